import Foundation

extension ProviderConfiguration {
    /// The client's private key from the configuration, for `private_key_jwt`:
    ///
    /// | key | meaning |
    /// |---|---|
    /// | `private_key` | PEM text of the private key |
    /// | `private_key_file` | a path to a PEM file (`~` expanded) |
    /// | `private_key_jwk` | a private JWK (a dictionary) |
    /// | `private_key_alg` | RS256 (default for RSA), RS384, RS512, PS256, PS384, PS512, ES256 (default for EC), EdDSA (default for an OKP JWK; name it for an Ed25519 PEM) |
    /// | `private_key_id` | the `kid` header (default: the JWK's `kid`) |
    ///
    /// - Returns: `nil` when none of the key entries is present.
    /// - Throws: `invalid_configuration` for an unreadable file, an unknown algorithm or a key that is not of the
    ///   algorithm's kind — never with the key's text in the message.
    package func clientSigningKey(providerID: ProviderID? = nil) throws -> ClientSigningKey? {
        var algorithm: ClientSigningKey.Algorithm?
        if let name = string("private_key_alg") {
            guard let known = ClientSigningKey.Algorithm.allCases.first(where: { $0.rawValue.uppercased() == name.uppercased() }) else {
                let supported = ClientSigningKey.Algorithm.allCases.map(\.rawValue).joined(separator: ", ")
                throw AuthError(.invalidConfiguration, "private_key_alg '\(name)' is not one of \(supported).", providerID: providerID)
            }
            algorithm = known
        }
        let keyID = string("private_key_id")
        do {
            if let jwk = self["private_key_jwk"] {
                guard let members = jwk.objectValue else {
                    throw AuthError(.invalidConfiguration, "private_key_jwk must be a JWK object.")
                }
                let key = try ClientSigningKey(jwk: members, algorithm: algorithm)
                guard let keyID, keyID != key.keyID else { return key }
                var withID = members
                withID["kid"] = .string(keyID)
                return try ClientSigningKey(jwk: withID, algorithm: algorithm)
            }
            var pem = string("private_key")
            if let path = string("private_key_file") {
                let expanded = (path as NSString).expandingTildeInPath
                guard let text = try? String(contentsOfFile: expanded, encoding: .utf8) else {
                    throw AuthError(.invalidConfiguration, "The private key file \(expanded) cannot be read.")
                }
                pem = text
            }
            guard let pem else { return nil }
            let chosen = algorithm ?? (pem.contains("EC PRIVATE KEY") ? .es256 : .rs256)
            return try ClientSigningKey(pem: pem, algorithm: chosen, keyID: keyID)
        } catch let error as AuthError {
            throw error.attributed(to: providerID ?? "unknown")
        }
    }

    /// `client_assertion_audience`: what `private_key_jwt` assertions name as `aud` — `"token_endpoint"` (the default),
    /// `"issuer"`, or `"endpoint"` (the URL each is sent to).
    ///
    /// - Throws: `invalid_configuration` for another value.
    package func clientAssertionAudience(providerID: ProviderID? = nil) throws -> ClientAssertionAudience {
        guard let value = self["client_assertion_audience"] else { return .tokenEndpoint }
        guard let name = value.stringValue, let audience = ClientAssertionAudience(rawValue: name) else {
            throw AuthError(
                .invalidConfiguration, "client_assertion_audience must be \"token_endpoint\", \"issuer\" or \"endpoint\".",
                providerID: providerID, configurationKey: "client_assertion_audience")
        }
        return audience
    }

    /// `token_endpoint_auth_method` (`none`, `client_secret_basic`, `client_secret_post`, `private_key_jwt`,
    /// `tls_client_auth`, `self_signed_tls_client_auth`), when set.
    ///
    /// - Throws: `invalid_configuration` for another value.
    package func clientAuthenticationMethod(providerID: ProviderID? = nil) throws -> ClientRegistration.AuthenticationMethod? {
        guard let name = string("token_endpoint_auth_method") else { return nil }
        guard let method = ClientRegistration.AuthenticationMethod(rawValue: name) else {
            throw AuthError(
                .invalidConfiguration,
                "token_endpoint_auth_method '\(name)' is not none, client_secret_basic, client_secret_post, private_key_jwt, tls_client_auth or self_signed_tls_client_auth.",
                providerID: providerID
            )
        }
        return method
    }
}
