import Crypto
package import Foundation
import _CryptoExtras

/// Decrypts a compact JWE (RFC 7516 §5.2) with the client's keys: the key management of ``JWEKeyManagement``, the
/// content encryption of ``JWEContentEncryption``, each pinned to what the client registered.
package struct JWEDecryptor: Sendable {
    /// The client's private keys (RSA-OAEP, ECDH-ES).
    package var keys: [ClientDecryptionKey]
    /// The client secret, for `A128KW` / `A256KW` (OpenID Connect Core §10.2).
    package var clientSecret: Secret?

    /// Creates a decryptor.
    package init(keys: [ClientDecryptionKey], clientSecret: Secret?) {
        self.keys = keys
        self.clientSecret = clientSecret
    }

    /// The plaintext of `jwe`.
    ///
    /// - Parameter expected: the registered `alg` and `enc`; a JWE with others is refused (no algorithm confusion).
    /// - Throws: `unsupported_algorithm` for an `alg` or `enc` not supported (`RSA1_5` among them) or not the registered
    ///   one; `decryption_failed` when no key fits or the content does not authenticate.
    package func decrypt(_ jwe: CompactJWE, expected: ResponseEncryption?) throws -> Data {
        guard let management = JWEKeyManagement(rawValue: jwe.algorithm) else {
            let why = jwe.algorithm == "RSA1_5" ? " (RSAES-PKCS1-v1_5 key transport is open to padding-oracle attacks, RFC 8725 §3.2)" : ""
            throw AuthError(
                .unsupportedAlgorithm,
                "The token is encrypted with key management '\(jwe.algorithm)'\(why); only \(JWEKeyManagement.allCases.map(\.rawValue).joined(separator: ", ")) are accepted."
            )
        }
        guard let encryption = JWEContentEncryption(rawValue: jwe.contentEncryption) else {
            throw AuthError(
                .unsupportedAlgorithm,
                "The token's content encryption '\(jwe.contentEncryption)' is not one of \(JWEContentEncryption.allCases.map(\.rawValue).joined(separator: ", "))."
            )
        }
        if let expected, expected.algorithm != jwe.algorithm || expected.contentEncryption != jwe.contentEncryption {
            throw AuthError(
                .unsupportedAlgorithm,
                "The token is encrypted with \(jwe.algorithm)/\(jwe.contentEncryption); the client registered \(expected.algorithm)/\(expected.contentEncryption)."
            )
        }
        if let length = management.wrapKeyLength, management == .a128KW || management == .a256KW {
            guard let clientSecret else {
                throw AuthError(.decryptionFailed, "The token is encrypted with \(management.rawValue), whose key comes from the client secret, and this client has none.")
            }
            // OpenID Connect Core §10.2: the key is the leftmost bits of the SHA-256 hash of the secret's UTF-8 octets.
            let kek = SymmetricKey(data: Data(SHA256.hash(data: Data(clientSecret.reveal().utf8))).prefix(length))
            return try encryption.open(jwe, key: try Self.unwrap(jwe.encryptedKey, with: kek))
        }
        let candidates = keys.filter { $0.fits(management) }
        let named = jwe.header["kid"]?.stringValue.map { kid in candidates.filter { $0.keyID == kid } } ?? []
        let tried = named.isEmpty ? candidates : named
        guard !tried.isEmpty else {
            throw AuthError(.decryptionFailed, "The token is encrypted with \(management.rawValue) and the client has no key for it.")
        }
        var failure = AuthError(.decryptionFailed, "The encrypted token does not decrypt with any of the client's keys.")
        for key in tried {
            do {
                let contentKey = try contentKey(jwe, management: management, encryption: encryption, key: key)
                return try encryption.open(jwe, key: contentKey)
            } catch let error as AuthError {
                failure = error
            }
        }
        throw failure
    }

    /// The content encryption key, recovered with `key`.
    private func contentKey(_ jwe: CompactJWE, management: JWEKeyManagement, encryption: JWEContentEncryption, key: ClientDecryptionKey) throws -> Data {
        switch (key.material.key, management) {
        case (.rsa, .rsaOAEP), (.rsa, .rsaOAEP256):
            let privateKey = try key.material.key.rsaKey()
            let padding: _RSA.Encryption.Padding = management == .rsaOAEP ? .PKCS1_OAEP : .PKCS1_OAEP_SHA256
            // RFC 7516 §11.5: an OAEP failure must not be told apart from a bad tag (Manger's attack), so a random key
            // of the right length stands in and the content's authentication fails as it would with a wrong key.
            guard let decrypted = try? privateKey.decrypt(jwe.encryptedKey, padding: padding), decrypted.count == encryption.keyLength else {
                return SymmetricKey(size: SymmetricKeySize(bitCount: encryption.keyLength * 8)).withUnsafeBytes { Data($0) }
            }
            return decrypted
        case (.p256(let privateKey), _):
            // RFC 7518 §4.6: the ephemeral public key `epk` from the header, on the client key's curve (swift-crypto
            // refuses a point off the curve); the Concat KDF's AlgorithmID is `enc` in direct mode, else `alg`.
            guard let epk = jwe.header["epk"]?.objectValue, epk["kty"]?.stringValue == "EC", epk["crv"]?.stringValue == "P-256",
                let x = epk["x"]?.stringValue.flatMap({ Base64URL.decode($0) }).flatMap({ JSONWebKey.coordinate($0, size: 32) }),
                let y = epk["y"]?.stringValue.flatMap({ Base64URL.decode($0) }).flatMap({ JSONWebKey.coordinate($0, size: 32) }),
                let ephemeral = try? P256.KeyAgreement.PublicKey(rawRepresentation: x + y),
                let shared = try? privateKey.sharedSecretFromKeyAgreement(with: ephemeral)
            else {
                throw AuthError(.decryptionFailed, "The encrypted token's 'epk' is not a P-256 public key.")
            }
            let z = shared.withUnsafeBytes { Data($0) }
            func party(_ name: String) throws -> Data {
                guard let value = jwe.header[name] else { return Data() }
                guard let text = value.stringValue, let data = Base64URL.decode(text) else {
                    throw AuthError(.decryptionFailed, "The encrypted token's '\(name)' is not base64url.")
                }
                return data
            }
            let apu = try party("apu")
            let apv = try party("apv")
            if management == .ecdhES {
                guard jwe.encryptedKey.isEmpty else {
                    throw AuthError(.decryptionFailed, "An ECDH-ES token in direct key agreement mode has an encrypted key.")
                }
                return Self.concatKDF(z, length: encryption.keyLength, algorithmID: encryption.rawValue, apu: apu, apv: apv)
            }
            let length = management.wrapKeyLength ?? 16
            let kek = Self.concatKDF(z, length: length, algorithmID: management.rawValue, apu: apu, apv: apv)
            return try Self.unwrap(jwe.encryptedKey, with: SymmetricKey(data: kek))
        default:
            throw AuthError(.decryptionFailed, "The client's key does not fit \(management.rawValue).")
        }
    }

    /// AES Key Wrap (RFC 3394), as RFC 7518 §4.4 uses it.
    private static func unwrap(_ wrapped: Data, with kek: SymmetricKey) throws -> Data {
        guard let key = try? AES.KeyWrap.unwrap(wrapped, using: kek) else {
            throw AuthError(.decryptionFailed, "The encrypted token's content key does not unwrap with the client's key.")
        }
        return key.withUnsafeBytes { Data($0) }
    }

    /// The Concat KDF of NIST SP 800-56A §5.8.1 with SHA-256, with the OtherInfo of RFC 7518 §4.6.2: AlgorithmID,
    /// PartyUInfo and PartyVInfo each prefixed with their 32-bit big-endian length, SuppPubInfo the key length in bits.
    package static func concatKDF(_ z: Data, length: Int, algorithmID: String, apu: Data, apv: Data) -> Data {
        func lengthPrefixed(_ data: Data) -> Data {
            var out = Data()
            withUnsafeBytes(of: UInt32(data.count).bigEndian) { out.append(contentsOf: $0) }
            out.append(data)
            return out
        }
        var otherInfo = lengthPrefixed(Data(algorithmID.utf8))
        otherInfo.append(lengthPrefixed(apu))
        otherInfo.append(lengthPrefixed(apv))
        withUnsafeBytes(of: UInt32(length * 8).bigEndian) { otherInfo.append(contentsOf: $0) }
        var derived = Data()
        var counter: UInt32 = 1
        while derived.count < length {
            var round = Data()
            withUnsafeBytes(of: counter.bigEndian) { round.append(contentsOf: $0) }
            round.append(z)
            round.append(otherInfo)
            derived.append(contentsOf: SHA256.hash(data: round))
            counter += 1
        }
        return derived.prefix(length)
    }
}
