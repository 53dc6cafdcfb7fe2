import Foundation

extension AuthClient {
    /// Signs in with tokens the app obtained outside this client — a test harness that ran the code flow itself
    /// (Schibsted's README describes this), a backend that redeemed the code — and stores them like a sign-in's.
    ///
    /// The tokens are trusted no more than a token response: the ID token is required and validated in full
    /// (signature with the provider's keys, issuer under the provider's policy, audience, expiry, `iat`), without a
    /// nonce because this client sent none. The token type must be `Bearer`.
    ///
    /// - Throws: `missing_id_token`; the ID token errors of sign-in; `unsupported_token_type`; storage errors.
    ///   Nothing is stored when any check fails.
    public func importTokens(_ tokens: TokenResponse) async throws -> Session {
        try await signInEntrance {
            guard let idToken = tokens.idToken else {
                throw AuthError(.missingIDToken, "Imported tokens need their ID token: it is what says whose they are and that this provider issued them for this client.")
            }
            guard tokens.tokenType.caseInsensitiveCompare("Bearer") == .orderedSame else {
                throw AuthError(.unsupportedTokenType, "Imported tokens have token type '\(tokens.tokenType)'; only Bearer tokens can be used.")
            }
            let metadata = try await metadata()
            let claims = try await idTokenVerifier.verify(idToken, nonce: nil, accessToken: tokens.accessToken, metadata: metadata)
            return try await admit(
                SignInEvidence(grant: .imported, tokens: tokens, claims: claims, metadata: metadata, completion: "Signed in with imported tokens.")
            )
        }
    }
}
