import Foundation
import HTTPTypes

extension HTTPField.Name {
    /// `DPoP`: the proof header (RFC 9449 §4.1).
    static let dpop = HTTPField.Name("DPoP")!
    /// `DPoP-Nonce`: a server-provided nonce for the next proof (RFC 9449 §8, §9).
    static let dpopNonce = HTTPField.Name("DPoP-Nonce")!
}

extension AuthClient {
    /// The key a new grant (a sign-in, a device sign-in) binds its tokens to, or `nil` for bearer tokens.
    ///
    /// ``DPoPUsage/whenAdvertised`` uses DPoP when the metadata lists `ES256` in `dpop_signing_alg_values_supported`;
    /// ``DPoPUsage/always`` uses it regardless, unless the provider says it accepts only other algorithms.
    ///
    /// - Throws: `invalid_configuration` when DPoP is required and the provider accepts no ES256 proof.
    func newDPoPKey(for metadata: ProviderMetadata) throws -> DPoPKey? {
        let advertised = metadata.dpopSigningAlgorithms
        switch provider.client.dpop {
        case .never:
            return nil
        case .whenAdvertised:
            guard advertised?.contains("ES256") == true else { return nil }
        case .always:
            if let advertised, !advertised.contains("ES256") {
                throw AuthError(
                    .invalidConfiguration,
                    "DPoP is required (dpop: true), but the provider accepts DPoP proofs signed with \(advertised.joined(separator: ", ")) only; this client signs them with ES256.",
                    providerID: provider.id
                )
            }
        }
        let key = DPoPKey.generate()
        log(.debug, "dpop.key_created", "A new DPoP key binds this sign-in's tokens.", ["jkt": key.thumbprint])
        return key
    }

    /// POSTs a token request; with `dpopKey`, each attempt carries a fresh proof (with the server's latest nonce), and
    /// one `use_dpop_nonce` answer is retried with the nonce it brought (RFC 9449 §8). `form` is called once per
    /// attempt, so a client assertion's `jti` is never sent twice.
    ///
    /// - Throws: `dpop_proof_rejected` for `invalid_dpop_proof`, or `use_dpop_nonce` after the retry (or without a
    ///   usable nonce); the back channel's errors otherwise.
    func postTokenRequest(
        _ url: URL,
        dpopKey: DPoPKey?,
        form: () throws -> (parameters: [(String, String)], headers: [String: String])
    ) async throws -> Data {
        let channel = backChannel
        var retriedWithNonce = false
        while true {
            let (parameters, headers) = try form()
            var request = try channel.formRequest(url, headers: headers)
            if let dpopKey {
                request.headerFields[.dpop] = try dpopKey.proof(method: "POST", url: url, nonce: await dpopNonces.nonce(for: url), now: clock.now())
            }
            let (data, response) = try await channel.send(request, body: Data(FormEncoding.encode(parameters).utf8), endpoint: "token_endpoint")
            let nonce = response.headerFields[.dpopNonce]
            if dpopKey != nil, let nonce { await dpopNonces.remember(nonce, for: url) }
            if response.status.kind == .successful { return data }
            let error = channel.error(forStatus: response.status.code, body: data)
            guard dpopKey != nil else { throw error }
            switch error.oauthError {
            case "use_dpop_nonce":
                if !retriedWithNonce, let nonce, DPoPNonceStore.isWellFormed(nonce) {
                    retriedWithNonce = true
                    log(.debug, "dpop.nonce_retry", "The token endpoint asked for a DPoP nonce; retrying once with it.")
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
                let detail = (try? JSONValue.parseObject(data))?["error_description"]?.stringValue.map { ": " + AuthorizationResponse.plainText($0) } ?? ""
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

    /// Sends `request` presenting `accessToken` through `send`: `Authorization: Bearer …`, or — for a token bound to
    /// `dpopKey` — `Authorization: DPoP …` with a proof for this method and URL carrying `ath` and the server's latest
    /// nonce. A 401 that demands a nonce (`use_dpop_nonce` with `DPoP-Nonce`, RFC 9449 §9) is retried once with it.
    func sendAuthorized(
        _ request: HTTPRequest,
        body: Data?,
        accessToken: Secret,
        dpopKey: DPoPKey?,
        send: (HTTPRequest, Data?) async throws -> (Data, HTTPResponse)
    ) async throws -> (Data, HTTPResponse) {
        var authorized = request
        guard let dpopKey else {
            authorized.headerFields[.authorization] = "Bearer \(accessToken.reveal())"
            return try await send(authorized, body)
        }
        guard let url = request.url else {
            throw AuthError(.invalidConfiguration, "A request with a DPoP-bound token needs an absolute URL.", providerID: provider.id)
        }
        authorized.headerFields[.authorization] = "DPoP \(accessToken.reveal())"
        var retriedWithNonce = false
        while true {
            let nonce = await dpopNonces.nonce(for: url)
            authorized.headerFields[.dpop] = try dpopKey.proof(
                method: request.method.rawValue, url: url, accessToken: accessToken, nonce: nonce, now: clock.now()
            )
            let (data, response) = try await send(authorized, body)
            guard let fresh = response.headerFields[.dpopNonce] else { return (data, response) }
            await dpopNonces.remember(fresh, for: url)
            guard !retriedWithNonce, response.status == .unauthorized, Self.demandsDPoPNonce(response),
                DPoPNonceStore.isWellFormed(fresh), fresh != nonce
            else { return (data, response) }
            retriedWithNonce = true
            log(.debug, "dpop.nonce_retry", "A resource server asked for a DPoP nonce; retrying once with it.")
        }
    }

    /// Whether a 401's `WWW-Authenticate` carries `error="use_dpop_nonce"`.
    static func demandsDPoPNonce(_ response: HTTPResponse) -> Bool {
        response.headerFields[values: .wwwAuthenticate].contains { $0.contains("use_dpop_nonce") }
    }
}
