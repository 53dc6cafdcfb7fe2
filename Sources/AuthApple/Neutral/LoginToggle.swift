public import AuthCore

/// What a sign-in / sign-out button does when tapped — platform-neutral, tested on Linux; AuthApple's UIKit
/// `LoginButton` only draws it.
///
/// Signed out, a tap signs in (once at a time: a tap while busy does nothing); signed in, a tap signs out (the tokens
/// are revoked and removed; a failed revocation still signs out here). ``title`` follows.
@MainActor
public final class LoginToggle {
    /// The signed-in session, or `nil`.
    public private(set) var session: Session?
    /// Whether a sign-in or sign-out is under way (the button is disabled meanwhile).
    public private(set) var isBusy = false

    /// What a tap did.
    public enum Outcome: Sendable {
        /// A sign-in finished: its session, or why it failed.
        case signedIn(Result<Session, AuthError>)
        /// The session was signed out.
        case signedOut
        /// Nothing: a tap while busy, or without anything to sign in with.
        case ignored
    }

    /// Creates a signed-out toggle.
    public init() {}

    /// "Sign in" while signed out, "Sign out" while signed in.
    public var title: String { session == nil ? "Sign in" : "Sign out" }

    /// Signs out when signed in; otherwise signs in with `signIn` (`nil`: nothing to sign in with yet).
    public func tap(signIn: (@MainActor () async throws -> Session)?) async -> Outcome {
        guard !isBusy else { return .ignored }
        isBusy = true
        defer { isBusy = false }
        if let session {
            _ = try? await session.signOut()
            self.session = nil
            return .signedOut
        }
        guard let signIn else { return .ignored }
        do {
            let signedIn = try await signIn()
            session = signedIn
            return .signedIn(.success(signedIn))
        } catch let error as AuthError {
            return .signedIn(.failure(error))
        } catch {
            return .signedIn(.failure(AuthError(.authorizationFailed, "Sign-in failed.", underlying: error)))
        }
    }
}
