import Foundation
package import HTTPTypes

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
    package func newDPoPKey(for metadata: ProviderMetadata) throws -> DPoPKey? {
        let advertised = metadata.dpopSigningAlgorithms
        // FAPI 2.0 binds every token (its rules are checked before this is asked).
        switch provider.client.profile == .fapi2 ? .always : provider.client.dpop {
        case .never:
            return nil
        case .whenAdvertised:
            guard let advertised, advertised.contains("ES256") || advertised.contains("EdDSA") else { return nil }
        case .always:
            if let advertised, !advertised.contains("ES256"), !advertised.contains("EdDSA") {
                throw AuthError(
                    .invalidConfiguration,
                    "DPoP is required (dpop: true), but the provider accepts DPoP proofs signed with \(advertised.joined(separator: ", ")) only; this client signs them with ES256 or EdDSA.",
                    providerID: provider.id
                )
            }
        }
        // ES256 wherever the provider accepts it (the default without a list); EdDSA (Ed25519) for one that lists only EdDSA.
        let key = DPoPKey.generate(edDSA: advertised.map { !$0.contains("ES256") && $0.contains("EdDSA") } ?? false)
        log(.debug, "dpop.key_created", "A new DPoP key binds this sign-in's tokens.", ["jkt": key.thumbprint])
        return key
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

    /// Whether a 401's `WWW-Authenticate` holds a `DPoP` challenge with `error="use_dpop_nonce"` (RFC 9449 §9). Each
    /// field is parsed as challenges on its own: the words elsewhere — in another scheme's challenge, in an
    /// `error_description` — are not a demand, and a field that does not parse demands nothing, without hiding the
    /// demand of another field (another layer's challenge written loosely).
    package static func demandsDPoPNonce(_ response: HTTPResponse) -> Bool {
        response.headerFields[values: .wwwAuthenticate].contains { field in
            guard let challenges = try? AuthenticationChallenge.parse([field]) else { return false }
            return challenges.contains { $0.scheme == "dpop" && $0.parameters["error"] == "use_dpop_nonce" }
        }
    }
}
