import Foundation

extension ProviderConfiguration {
    /// What the client registered for signed and encrypted responses (OpenID Connect Dynamic Client Registration §2),
    /// and its decryption key:
    ///
    /// | key | meaning |
    /// |---|---|
    /// | `id_token_encrypted_response_alg` / `_enc` | ID tokens are JWEs with this `alg` (and `enc`, default `A128CBC-HS256`) |
    /// | `userinfo_encrypted_response_alg` / `_enc` | user info answers likewise |
    /// | `userinfo_signed_response_alg` | user info answers are JWTs signed with this algorithm (`RS256`, `ES256`, …; never `none`) |
    /// | `decryption_key` / `decryption_key_file` / `decryption_key_jwk` | the private key (PEM text, a PEM file, a private JWK) for `RSA-OAEP*` and `ECDH-ES*` |
    /// | `decryption_key_id` | its `kid` (default: the JWK's) |
    ///
    /// - Throws: `invalid_configuration` for an unsupported algorithm (`RSA1_5` included), a key management algorithm
    ///   without the key or client secret it needs, or an unreadable key.
    package func applyResponseProtection(to client: inout ClientRegistration, providerID: ProviderID) throws {
        func invalid(_ message: String, _ key: String) -> AuthError {
            AuthError(.invalidConfiguration, message, providerID: providerID, configurationKey: key)
        }
        if let name = string("userinfo_signed_response_alg") {
            guard let algorithm = JWSAlgorithm(rawValue: name) else {
                throw invalid(
                    "userinfo_signed_response_alg '\(name)' is not a supported signature algorithm (unsigned user info is never accepted).", "userinfo_signed_response_alg")
            }
            client.userInfoSigningAlgorithm = algorithm
        }
        var key: ClientDecryptionKey?
        let keyID = string("decryption_key_id")
        if let jwk = self["decryption_key_jwk"] {
            guard var members = jwk.objectValue else { throw invalid("decryption_key_jwk must be a JWK object.", "decryption_key_jwk") }
            if let keyID { members["kid"] = .string(keyID) }
            key = try ClientDecryptionKey(jwk: members)
        } else if let path = string("decryption_key_file") {
            let expanded = (path as NSString).expandingTildeInPath
            guard let text = try? String(contentsOfFile: expanded, encoding: .utf8) else {
                throw invalid("The decryption key file \(expanded) cannot be read.", "decryption_key_file")
            }
            key = try ClientDecryptionKey(pem: text, keyID: keyID)
        } else if let pem = string("decryption_key") {
            key = try ClientDecryptionKey(pem: pem, keyID: keyID)
        }
        if let key { client.decryptionKeys = [key] }
        for prefix in ["id_token", "userinfo"] {
            guard let algorithm = string("\(prefix)_encrypted_response_alg") else {
                if string("\(prefix)_encrypted_response_enc") != nil {
                    throw invalid("\(prefix)_encrypted_response_enc needs \(prefix)_encrypted_response_alg.", "\(prefix)_encrypted_response_enc")
                }
                continue
            }
            guard let management = JWEKeyManagement(rawValue: algorithm) else {
                throw invalid(
                    "\(prefix)_encrypted_response_alg '\(algorithm)' is not one of \(JWEKeyManagement.allCases.map(\.rawValue).joined(separator: ", ")) (RSA1_5 is refused: RFC 8725 §3.2).",
                    "\(prefix)_encrypted_response_alg"
                )
            }
            let encryption = string("\(prefix)_encrypted_response_enc") ?? JWEContentEncryption.a128CBCHS256.rawValue
            guard JWEContentEncryption(rawValue: encryption) != nil else {
                throw invalid(
                    "\(prefix)_encrypted_response_enc '\(encryption)' is not one of \(JWEContentEncryption.allCases.map(\.rawValue).joined(separator: ", ")).",
                    "\(prefix)_encrypted_response_enc"
                )
            }
            if management.wrapKeyLength != nil, management == .a128KW || management == .a256KW {
                guard client.clientSecret != nil else { throw invalid("\(algorithm) derives its key from the client secret, and none is configured.", "client_secret") }
            } else if !client.decryptionKeys.contains(where: { $0.fits(management) }) {
                throw invalid("\(algorithm) needs the client's decryption key (decryption_key_file or decryption_key_jwk) of the matching kind.", "decryption_key_file")
            }
            let registered = ResponseEncryption(algorithm: algorithm, contentEncryption: encryption)
            if prefix == "id_token" { client.idTokenEncryption = registered } else { client.userInfoEncryption = registered }
        }
    }
}
