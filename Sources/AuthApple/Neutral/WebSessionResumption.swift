package import AuthCore
package import Foundation

/// The one resumption of a web authentication session's waiting sign-in — a platform-neutral rule, tested on every
/// platform; the Apple shell (`WebAuthenticationSessionUserAgent`) hands it the continuation it awaits.
///
/// Two events can end a session: the system calls its completion handler (a callback, or the user closing the
/// sheet), or the app cancels it (the task awaiting the sign-in was cancelled: a vendor API's `cancel`, GOV.UK's
/// `finalise`). Apple does not call the completion handler after `ASWebAuthenticationSession.cancel()` (the vendors'
/// own code relies on it: schibsted/account-sdk-ios-web 6.x `SchibstedAuthenticator.swift` resumes a checked
/// continuation from that handler and calls `cancel()` itself after resuming), so the cancellation resumes the sign-in
/// itself, with `user_cancelled`. Whichever comes first wins; the other is ignored, so a checked continuation is never
/// resumed twice and never left waiting.
@MainActor
package final class WebSessionResumption {
    private var continuation: CheckedContinuation<URL, any Error>?
    private let providerID: ProviderID?

    /// Holds `continuation` for the sign-in of `providerID`.
    package init(_ continuation: CheckedContinuation<URL, any Error>, providerID: ProviderID?) {
        self.continuation = continuation
        self.providerID = providerID
    }

    /// Whether the sign-in has been resumed.
    package var isFinished: Bool { continuation == nil }

    /// Resumes the sign-in with `result`, unless it already was; answers whether this call resumed it.
    @discardableResult
    package func finish(_ result: Result<URL, AuthError>) -> Bool {
        guard let continuation else { return false }
        self.continuation = nil
        continuation.resume(with: result)
        return true
    }

    /// Resumes the sign-in with `user_cancelled` (the app closed the sheet), unless it already ended.
    @discardableResult
    package func cancel() -> Bool {
        finish(.failure(AuthError(.userCancelled, "The sign-in was cancelled; its page was closed.", providerID: providerID)))
    }
}
