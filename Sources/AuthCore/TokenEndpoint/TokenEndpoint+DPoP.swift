import Foundation
import HTTPTypes

extension TokenEndpoint {
    /// POSTs a token request; with `dpopKey`, each attempt carries a fresh proof (with the server's latest nonce), and
    /// one `use_dpop_nonce` answer is retried with the nonce it brought (RFC 9449 §8). `form` is called once per
    /// attempt, so a client assertion's `jti` is never sent twice.
    ///
    /// Returns the members of a successful answer, JSON or form-encoded (``TokenResponse/members(of:contentType:)``).
    ///
    /// - Throws: `dpop_proof_rejected` for `invalid_dpop_proof`, or `use_dpop_nonce` after the retry (or without a
    ///   usable nonce); the OAuth error of a 2xx answer that carries one (GitHub's); `invalid_response` for a 2xx body
    ///   that is neither JSON nor a form; the provider HTTP client's errors otherwise.
    func post(
        _ url: URL,
        dpopKey: DPoPKey?,
        form: () throws -> (parameters: [(String, String)], headers: [String: String])
    ) async throws -> [String: JSONValue] {
        var retriedWithNonce = false
        while true {
            let (parameters, headers) = try form()
            var request = try http.formRequest(url, headers: headers)
            if let dpopKey {
                request.headerFields[.dpop] = try dpopKey.proof(method: "POST", url: url, nonce: await dpopNonces.nonce(for: url), now: clock.now())
            }
            var body: Data? = Data(FormEncoding.encode(parameters).utf8)
            if provider.behavior.sendsTokenParametersInQuery {
                // As the vendor's SDK sends them (Grab): in the URL query of a bodiless POST. The URL is never logged.
                guard let queried = request.url?.appendingQuery(parameters) else {
                    throw AuthError(.invalidConfiguration, "The token endpoint URL cannot take a query.", providerID: provider.id)
                }
                request.url = queried
                request.headerFields[.contentType] = nil
                body = nil
            }
            let (data, response): (Data, HTTPResponse)
            do {
                (data, response) = try await http.send(request, body: body, endpoint: "token_endpoint")
            } catch var error as AuthError where body == nil {
                // The URL carries the grant's secrets, and a transport's error may quote it (URLError's failing URL):
                // the error keeps its code and message, not the transport's error.
                error.underlying = nil
                throw error
            }
            let nonce = response.headerFields[.dpopNonce]
            if dpopKey != nil, let nonce { await dpopNonces.remember(nonce, for: url) }
            let contentType = response.headerFields[.contentType]
            if response.status.kind == .successful {
                let members = try TokenResponse.members(of: data, contentType: contentType)
                // An error in a successful answer is still an error, never tokens.
                if let error = TokenResponse.oauthError(in: members, httpStatus: response.status.code) { throw error.attributed(to: provider.id) }
                return members
            }
            // A form-encoded error body reads as the JSON one would.
            let errorBody =
                TokenResponse.isFormEncoded(contentType)
                ? ((try? TokenResponse.members(of: data, contentType: contentType)).flatMap { try? JSONValue.object($0).jsonData() } ?? data)
                : data
            let error = http.error(forStatus: response.status.code, body: errorBody)
            guard dpopKey != nil else { throw error }
            switch error.oauthError {
            case "use_dpop_nonce":
                if !retriedWithNonce, let nonce, DPoPNonceStore.isWellFormed(nonce) {
                    retriedWithNonce = true
                    http.log(.debug, "dpop.nonce_retry", "The token endpoint asked for a DPoP nonce; retrying once with it.")
                    continue
                }
                throw AuthError(
                    .dpopProofRejected,
                    retriedWithNonce
                        ? "The token endpoint still demanded a DPoP nonce after one retry with the nonce it sent; nothing was stored."
                        : "The token endpoint demanded a DPoP nonce (use_dpop_nonce) but sent no usable DPoP-Nonce header; nothing was stored.",
                    oauthError: "use_dpop_nonce",
                    httpStatus: response.status.code
                )
            case "invalid_dpop_proof":
                let detail = (try? JSONValue.parseObject(errorBody))?["error_description"]?.stringValue.map { ": " + AuthorizationResponse.plainText($0) } ?? ""
                throw AuthError(
                    .dpopProofRejected,
                    "The token endpoint refused this client's DPoP proof (invalid_dpop_proof)\(detail); nothing was stored.",
                    oauthError: "invalid_dpop_proof",
                    httpStatus: response.status.code
                )
            default:
                throw error
            }
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
