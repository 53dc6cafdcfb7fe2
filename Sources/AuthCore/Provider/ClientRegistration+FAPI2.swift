import Foundation

// The FAPI 2.0 Security Profile (https://openid.net/specs/fapi-security-profile-2_0-final.html §5): the rules a
// registration decides alone are checked when it is built from a configuration and again before every sign-in; the
// rules that depend on the provider's metadata before every sign-in, before anything is sent.
extension ClientRegistration {
    /// The signature algorithms FAPI 2.0 §5.4 allows: PS256, ES256 and EdDSA (Ed25519).
    package static let fapi2Algorithms: [JWSAlgorithm] = [.ps256, .es256, .edDSA]

    /// The FAPI 2.0 rules this registration decides alone; nothing for a ``ClientProfile/standard`` client.
    ///
    /// - Throws: `fapi_profile_violation` naming the first rule that does not hold.
    package func checkFAPI2Registration(providerID: ProviderID?) throws {
        guard profile == .fapi2 else { return }
        if pushedAuthorization == .never {
            throw Self.fapi2Violation(
                "pushed authorization requests", "par is false (pushedAuthorization: .never), and FAPI 2.0 pushes every authorization request (RFC 9126).",
                providerID: providerID)
        }
        if usesMutualTLS {
            // RFC 8705 client authentication: the certificate also binds the tokens (FAPI 2.0 §5.3.2.1, §5.3.3).
            return
        }
        guard authenticationMethod == .privateKeyJWT, let key = signingKey else {
            throw Self.fapi2Violation(
                "client authentication",
                "the client authenticates with \(authenticationMethod.rawValue); FAPI 2.0 requires private_key_jwt (configure the client's private key) or mTLS (tls_client_auth or self_signed_tls_client_auth with a TLS client identity on the transport).",
                providerID: providerID)
        }
        guard Self.fapi2Algorithms.map(\.rawValue).contains(key.algorithm.rawValue) else {
            throw Self.fapi2Violation(
                "signing algorithms", "client assertions are signed with \(key.algorithm.rawValue); FAPI 2.0 allows PS256, ES256 or EdDSA only.",
                providerID: providerID)
        }
        if dpop == .never {
            throw Self.fapi2Violation(
                "sender-constrained tokens",
                "dpop is false; FAPI 2.0 requires DPoP- or mTLS-bound tokens: leave DPoP on, or authenticate with mTLS (tls_client_auth), whose certificate binds the tokens.",
                providerID: providerID)
        }
    }

    /// The error for a broken rule: one code, the rule named first.
    package static func fapi2Violation(_ rule: String, _ detail: String, providerID: ProviderID?) -> AuthError {
        AuthError(.fapiProfileViolation, "The FAPI 2.0 Security Profile's rule '\(rule)' does not hold: \(detail)", providerID: providerID)
    }
}

extension IDTokenPolicy {
    /// This policy under `profile`: FAPI 2.0 pins ID token algorithms to PS256, ES256 and EdDSA, whatever the policy
    /// or the provider's metadata lists.
    package func pinned(for profile: ClientProfile) -> IDTokenPolicy {
        guard profile == .fapi2 else { return self }
        var pinned = self
        pinned.allowedAlgorithms = ClientRegistration.fapi2Algorithms
        return pinned
    }
}

extension AuthClient {
    /// The FAPI 2.0 rules for one sign-in: the registration's, then the provider's metadata (a pushed authorization
    /// request endpoint, S256, the client's authentication method, DPoP with ES256 or EdDSA (or certificate-bound tokens
    /// for an mTLS client), RFC 9207 `iss`, a FAPI algorithm for ID tokens and for the client's assertions). Nothing for a
    /// ``ClientProfile/standard`` client.
    ///
    /// - Throws: `fapi_profile_violation` naming the first rule that does not hold; nothing is sent then.
    func checkFAPI2(metadata: ProviderMetadata, options: SignInOptions) throws {
        let client = provider.client
        guard client.profile == .fapi2 else { return }
        try client.checkFAPI2Registration(providerID: provider.id)
        func violation(_ rule: String, _ detail: String) -> AuthError {
            ClientRegistration.fapi2Violation(rule, detail, providerID: provider.id)
        }
        func offered(_ member: String) -> [String]? { metadata.document[member]?.arrayValue?.compactMap(\.stringValue) }
        if options.omitsPKCEForBackendExchange {
            throw violation("PKCE S256", "this sign-in omits PKCE for a backend exchange.")
        }
        if let methods = offered("code_challenge_methods_supported"), !methods.contains("S256") {
            throw violation("PKCE S256", "the provider's code_challenge_methods_supported does not list S256.")
        }
        guard metadata.pushedAuthorizationRequestEndpoint != nil else {
            throw violation("pushed authorization requests", "the provider's metadata names no pushed_authorization_request_endpoint.")
        }
        if let methods = offered("token_endpoint_auth_methods_supported"), !methods.contains(client.authenticationMethod.rawValue) {
            throw violation(
                "client authentication", "the provider's token_endpoint_auth_methods_supported does not list \(client.authenticationMethod.rawValue).")
        }
        if client.usesMutualTLS {
            // Certificate-bound tokens (RFC 8705 §3.3): the provider must say it issues them.
            guard metadata.document["tls_client_certificate_bound_access_tokens"]?.boolValue == true else {
                throw violation(
                    "sender-constrained tokens",
                    "the client authenticates with mTLS, but the provider does not declare tls_client_certificate_bound_access_tokens, so its tokens may be unbound.")
            }
        } else {
            guard let proofAlgorithms = metadata.dpopSigningAlgorithms, proofAlgorithms.contains("ES256") || proofAlgorithms.contains("EdDSA") else {
                throw violation(
                    "sender-constrained tokens",
                    "the provider's metadata offers no DPoP with ES256 or EdDSA (dpop_signing_alg_values_supported); with private_key_jwt, FAPI 2.0 tokens are DPoP-bound.")
            }
        }
        guard metadata.authorizationResponseIssParameterSupported else {
            throw violation("RFC 9207 iss", "the provider does not declare authorization_response_iss_parameter_supported, so its authorization responses may lack 'iss'.")
        }
        let allowed = ClientRegistration.fapi2Algorithms.map(\.rawValue)
        guard metadata.idTokenSigningAlgorithms.contains(where: allowed.contains) else {
            let listed = metadata.idTokenSigningAlgorithms.isEmpty ? "none" : metadata.idTokenSigningAlgorithms.joined(separator: ", ")
            throw violation("signing algorithms", "the provider signs ID tokens with \(listed); FAPI 2.0 allows PS256, ES256 or EdDSA only.")
        }
        if let algorithm = client.signingKey?.algorithm.rawValue, let accepted = offered("token_endpoint_auth_signing_alg_values_supported"),
            !accepted.contains(algorithm)
        {
            throw violation("signing algorithms", "the provider does not accept \(algorithm) client assertions (token_endpoint_auth_signing_alg_values_supported).")
        }
    }
}
