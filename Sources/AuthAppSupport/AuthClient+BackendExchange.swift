public import AuthCore
public import Foundation

extension AuthClient {
    /// Validates the redirect of a request from `prepareSignIn(options:)` — exact match, single-use `state`,
    /// RFC 9207 `iss`, OAuth errors — and returns the code **without** exchanging it, for apps whose backend
    /// redeems codes. Nothing is stored.
    ///
    /// It lives in app support, not in AuthCore: only an app hands its code to a server of its own; a server or a
    /// command-line tool signs in with `completeSignIn(redirect:)`.
    ///
    /// - Throws: the redirect's errors, as `completeSignIn(redirect:)` throws them (`redirect_mismatch`,
    ///   `state_mismatch`, `issuer_parameter_mismatch`, `authorization_failed`, …).
    public func completeAuthorization(redirect: URL) async throws -> AuthorizationCodeResult {
        let (code, verifier, redirectURI) = try await authorizationCodeForBackend(redirect: redirect)
        return AuthorizationCodeResult(code: code, codeVerifier: verifier, redirectURI: redirectURI)
    }
}
