public import Foundation

/// A validated authorization code for a backend to exchange, with the PKCE verifier it must send.
public struct AuthorizationCodeResult: Sendable {
    /// The authorization code.
    public let code: Secret
    /// The PKCE verifier: send it with the code to the token endpoint (`code_verifier`); `nil` when the login was
    /// requested without PKCE (`SignInOptions/omitsPKCEForBackendExchange`).
    public let codeVerifier: Secret?
    /// The redirect URI the code was issued for (`redirect_uri` in the token request).
    public let redirectURI: URL
}

extension AuthClient {
    /// Validates the redirect of a request from ``prepareSignIn(options:)`` — exact match, single-use `state`,
    /// RFC 9207 `iss`, OAuth errors — and returns the code **without** exchanging it, for apps whose backend
    /// redeems codes. Nothing is stored.
    public func completeAuthorization(redirect: URL) async throws -> AuthorizationCodeResult {
        do {
            let (pending, _, code, _) = try await validateRedirect(redirect)
            log(.info, "authorization.completed", "Authorization code received for a backend exchange.")
            return AuthorizationCodeResult(code: code, codeVerifier: pending.codeVerifier, redirectURI: pending.redirectURI)
        } catch let error as AuthError {
            throw error.attributed(to: provider.id)
        }
    }
}
