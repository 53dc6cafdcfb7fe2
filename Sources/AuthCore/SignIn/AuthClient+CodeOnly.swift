package import Foundation

extension AuthClient {
    /// Validates the redirect of a request from ``prepareSignIn(options:)`` — exact match, single-use `state`,
    /// RFC 9207 `iss`, OAuth errors — and returns its code and PKCE verifier **without** redeeming them. Nothing is
    /// stored. The public face is AuthAppSupport's `completeAuthorization(redirect:)`, for apps whose backend redeems
    /// codes.
    package func authorizationCodeForBackend(redirect: URL) async throws -> (code: Secret, codeVerifier: Secret?, redirectURI: URL) {
        do {
            let (pending, _, code, _) = try await validateRedirect(redirect)
            log(.info, "authorization.completed", "Authorization code received for a backend exchange.")
            return (code, pending.codeVerifier, pending.redirectURI)
        } catch let error as AuthError {
            throw error.attributed(to: provider.id)
        }
    }
}
