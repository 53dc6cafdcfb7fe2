public import AuthCore
import AuthSchibsted
public import Foundation

/// Receives what the client does, for analytics (the vendor's `TrackingEventsHandler`, passed at `Client` init).
///
/// Events carry no tokens, codes or personal data: error codes, the requested MFA method, the cross-domain id the
/// app itself supplied. Calls are awaited in order on the client's actor, so keep them quick (hand off to your own
/// queue for network work).
public protocol TrackingEventsHandler: Sendable {
    /// Called for each event.
    func track(_ event: SchibstedTrackingEvent) async
}

/// An event for a ``TrackingEventsHandler``.
public enum SchibstedTrackingEvent: Sendable, Hashable {
    /// A login request was made (the vendor's `getLoginSession` additional fields).
    case loginStarted(mfa: MFAType?, withSSO: Bool, xDomainId: UUID?)
    /// The login completed and the user is stored.
    case loginCompleted
    /// The login failed with this error code (the vendor's `error(.loginError(…), in: .webBrowser)`).
    case loginFailed(AuthError.Code)
    /// The pending login was cancelled or dismissed.
    case loginCancelled
    /// Simplified login found another app's session to offer (the vendor's `interaction(.open, with: .simplifiedLogin)`).
    case simplifiedLoginOffered
    /// The user continued as the offered account (the vendor's `engagement(.click(on: .continueAsButton))`).
    case simplifiedLoginContinued
}
