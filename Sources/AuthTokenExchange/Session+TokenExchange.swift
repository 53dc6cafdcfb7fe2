public import AuthCore

extension Session {
    /// Exchanges one of this session's tokens for a token scoped to another audience, resource or scope (OAuth 2.0
    /// Token Exchange, RFC 8693 §2).
    ///
    /// The session's own credential is never replaced: the exchanged token is returned, to keep apart (an
    /// ``ExchangedTokenSource`` keeps one and asks again when it expires). The subject token is the session's access
    /// token (refreshed first when it is about to expire) or its ID token; a session whose tokens are DPoP-bound proves
    /// possession of its key, and a `DPoP` answer is bound to it (RFC 9449 §5).
    ///
    /// - Throws: `not_signed_in`; `missing_id_token` when the ID token is the subject and the session has none;
    ///   `missing_issued_token_type` and `issued_token_type_mismatch` (RFC 8693 §2.2.1); `exchange_audience_mismatch`;
    ///   the token endpoint's errors (`invalid_grant`, `token_request_failed` with the server's `invalid_target` or
    ///   `unsupported_grant_type` in `AuthError.oauthError`).
    public func exchangeToken(_ request: TokenExchangeRequest) async throws -> ExchangedToken {
        let subjectToken: Secret
        let subjectType: TokenExchangeTokenType
        switch request.subject {
        case .accessToken:
            subjectToken = try await validAccessToken()
            subjectType = .accessToken
        case .idToken:
            guard isSignedIn else { throw AuthError(.notSignedIn, "The session is signed out; sign in again.", providerID: providerID) }
            guard let idToken = credential.idToken else {
                throw AuthError(.missingIDToken, "The session has no ID token to exchange; exchange its access token instead.", providerID: providerID)
            }
            subjectToken = idToken
            subjectType = .idToken
        }
        return try await client.exchangeToken(request, subjectToken: subjectToken, subjectTokenType: subjectType, dpopKey: credential.dpopKey)
    }
}
