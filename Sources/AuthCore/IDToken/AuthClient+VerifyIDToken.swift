import Foundation

extension AuthClient {
    /// Verifies an ID token this client did not request itself — typically one an app sends to its backend after
    /// signing in — with the token checks a sign-in applies, and returns its claims. Nothing is stored.
    ///
    /// The key comes from the provider's published key set only (cached, refetched once for an unknown `kid`,
    /// never from the token's own `jku`/`jwk`/`x5c`); the algorithm must be pinned by the provider's
    /// ``IDTokenPolicy``; `iss` must name the provider's issuer, `aud` this client (no untrusted extra audience),
    /// `azp` this client when present; `exp`, `iat` and `nbf` are checked with the policy's clock skew against the
    /// client's clock; and the provider's ``AuthProvider/validateIdentity(_:)`` (Google's `hd`, Microsoft's tenant).
    ///
    /// What a sign-in also checks and this cannot: `at_hash` (no access token comes with it), `max_age`, `acr` and
    /// `prompt=login` (no request of this client asked for them: check ``IDTokenClaims`` yourself), and that the token
    /// is used once — an ID token is a bearer statement until it expires, so pass the nonce your app sent when you can.
    ///
    /// - Parameters:
    ///   - idToken: the ID token in compact serialization.
    ///   - nonce: the nonce the app sent with its authorization request, when the backend knows it (recommended: it
    ///     ties the token to that request); `nil` skips the check.
    /// - Throws: the ID token errors of sign-in, such as `invalid_signature`, `unknown_key_id`, `invalid_audience`,
    ///   `token_expired` or `nonce_mismatch`, attributed to this client's provider.
    public func verifyIDToken(_ idToken: Secret, nonce: String? = nil) async throws -> IDTokenClaims {
        do {
            let metadata = try await metadata()
            let claims = try await idTokenVerifier.verify(idToken, nonce: nonce, accessToken: nil, metadata: metadata)
            try provider.validateIdentity(claims)  // who may sign in at all: a Workspace domain, a tenant
            return claims
        } catch let error as AuthError {
            throw error.attributed(to: provider.id)
        }
    }
}
