import Foundation

// What is DPoP about a token request (RFC 9449): the proof each attempt carries, the one `use_dpop_nonce` retry, and
// the token type the answer must have. The request itself is ``TokenEndpoint/post(_:dpopKey:endpoint:form:)``.
extension TokenEndpoint {
    /// A fresh proof of `key` for a POST to `url`, with the server's latest `DPoP-Nonce`.
    func dpopProof(_ key: DPoPKey, for url: URL) async throws -> String {
        try key.proof(method: "POST", url: url, nonce: await dpopNonces.nonce(for: url), now: clock.now())
    }

    /// Whether a DPoP-bound token request refused with `error` is sent once more (RFC 9449 §8): `true` for the first
    /// `use_dpop_nonce` answer that brought a well-formed nonce; `false` for any error that is not DPoP's.
    ///
    /// - Throws: `dpop_proof_rejected` for `use_dpop_nonce` after the retry (or without a usable nonce), and for
    ///   `invalid_dpop_proof`.
    func dpopRetry(after error: OAuthErrorResponse, httpStatus: Int, nonce: String?, retriedWithNonce: Bool) throws -> Bool {
        switch error.error {
        case "use_dpop_nonce":
            if !retriedWithNonce, let nonce, DPoPNonceStore.isWellFormed(nonce) {
                http.log(.debug, "dpop.nonce_retry", "The token endpoint asked for a DPoP nonce; retrying once with it.")
                return true
            }
            throw AuthError(
                .dpopProofRejected,
                retriedWithNonce
                    ? "The token endpoint still demanded a DPoP nonce after one retry with the nonce it sent; nothing was stored."
                    : "The token endpoint demanded a DPoP nonce (use_dpop_nonce) but sent no usable DPoP-Nonce header; nothing was stored.",
                oauthError: "use_dpop_nonce",
                httpStatus: httpStatus
            )
        case "invalid_dpop_proof":
            throw AuthError(
                .dpopProofRejected,
                "The token endpoint refused this client's DPoP proof (invalid_dpop_proof)\(error.detail); nothing was stored.",
                oauthError: "invalid_dpop_proof",
                httpStatus: httpStatus
            )
        default:
            return false
        }
    }

    /// Checks that the token type is what the request asked for: `DPoP` when a proof was sent, never `DPoP` without.
    ///
    /// - Throws: `dpop_not_bound` for a bearer token in answer to a proof; `unsupported_token_type` for a DPoP token
    ///   that this client holds no key for.
    func checkTokenBinding(_ tokens: TokenResponse, dpopKey: DPoPKey?) throws {
        if dpopKey != nil, tokens.tokenType != "DPoP" {
            throw AuthError(
                .dpopNotBound,
                "The provider answered with a '\(tokens.tokenType)' token though this client sent a DPoP proof for a token bound to its key (RFC 9449 §5); a bearer token works for anyone who copies it, so it was not stored.",
                providerID: provider.id,
                endpoint: "token_endpoint"
            )
        }
        if dpopKey == nil, tokens.tokenType == "DPoP" {
            throw AuthError(
                .unsupportedTokenType,
                "The provider issued a DPoP-bound token though this client sent no DPoP proof; it cannot be used. Set dpop to true (or leave it to the provider's metadata) to use DPoP.",
                providerID: provider.id,
                endpoint: "token_endpoint"
            )
        }
    }
}
