import ArgumentParser
import AuthDynamicRegistration
import AuthProviders
import Foundation

/// `auth-cli login --decryption-key`, `--id-token-encryption`, `--userinfo-encryption`, `--userinfo-signing`: signed
/// and encrypted responses, as configuration of a client registered for them or registered with `--register`.
extension LoginCommand {
    /// The absolute path of `--decryption-key`, checked readable as a key.
    func decryptionKeyPath() throws -> String? {
        guard let decryptionKey else { return nil }
        let path = URL(fileURLWithPath: (decryptionKey as NSString).expandingTildeInPath).standardizedFileURL.path
        _ = try Self.decryptionKey(at: path)
        return path
    }

    /// The key in the file at `path`: a private JWK when the file is a JSON object, else PEM.
    static func decryptionKey(at path: String) throws -> ClientDecryptionKey {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ValidationError("Cannot read the decryption key file \(path).")
        }
        if text.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("{") {
            guard let jwk = try? JSONValue.parseObject(Data(text.utf8)) else { throw ValidationError("The decryption key file \(path) is not a JWK object.") }
            return try ClientDecryptionKey(jwk: jwk)
        }
        return try ClientDecryptionKey(pem: text)
    }

    /// `ALG[/ENC]` as a registered pair.
    static func encryption(_ text: String?) -> ResponseEncryption? {
        guard let text else { return nil }
        let parts = text.split(separator: "/", maxSplits: 1).map(String.init)
        return parts.count == 2 ? ResponseEncryption(algorithm: parts[0], contentEncryption: parts[1]) : ResponseEncryption(algorithm: text)
    }

    /// The provider configuration keys for the options given (checked when the provider is built).
    func responseProtectionValues() throws -> [String: JSONValue] {
        var values: [String: JSONValue] = [:]
        if let path = try decryptionKeyPath() { values["decryption_key_file"] = .string(path) }
        for (prefix, encryption) in [("id_token", Self.encryption(idTokenEncryption)), ("userinfo", Self.encryption(userinfoEncryption))] {
            guard let encryption else { continue }
            values["\(prefix)_encrypted_response_alg"] = .string(encryption.algorithm)
            values["\(prefix)_encrypted_response_enc"] = .string(encryption.contentEncryption)
        }
        if let userinfoSigning { values["userinfo_signed_response_alg"] = .string(userinfoSigning) }
        return values
    }

    /// Puts the options into a registration request: the algorithms, and the decryption key's public half in `jwks`.
    func addResponseProtection(to request: inout RegistrationRequest) throws {
        request.idTokenEncryption = Self.encryption(idTokenEncryption)
        request.userInfoEncryption = Self.encryption(userinfoEncryption)
        if let userinfoSigning {
            guard let algorithm = JWSAlgorithm(rawValue: userinfoSigning) else {
                throw ValidationError("--userinfo-signing \(userinfoSigning) is not a supported signature algorithm.")
            }
            request.userInfoSigningAlgorithm = algorithm
        }
        if let path = try decryptionKeyPath() {
            let publicKey = try Self.decryptionKey(at: path).publicJWK()
            var keys = request.jwks?["keys"]?.arrayValue ?? []
            keys.append(.object(publicKey))
            request.jwks = ["keys": .array(keys)]
        }
    }
}
