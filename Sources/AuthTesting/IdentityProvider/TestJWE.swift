public import AuthCore
import Crypto
public import Foundation
import _CryptoExtras

/// Encrypted tokens for tests (JWE compact serialization, RFC 7516 §7.1), made with swift-crypto as a provider would:
/// every key management and content encryption algorithm the client decrypts, to the test client's keys, another
/// key, or a key derived from a client secret (OpenID Connect Core §10.2).
///
/// The client's keys are **test-only** published keys (the RSA one is `TestSigningKeys.primary`'s, the P-256 one
/// likewise): they protect nothing.
public enum TestJWE {
    /// Whom a JWE is encrypted to.
    public enum Recipient: Sendable {
        /// The test client's RSA key (``TestJWE/clientRSAKey``).
        case clientRSA
        /// The test client's P-256 key (``TestJWE/clientP256Key``).
        case clientP256
        /// An RSA key of no client (generated once per process): nothing the test client holds decrypts it.
        case strangerRSA
        /// A P-256 key of no client.
        case strangerP256
        /// A key derived from this client secret (`A128KW`, `A256KW`).
        case secret(String)
    }

    // swift-crypto's RSA encryption keys are not `Sendable`: kept as PEM, parsed where used. The fixed keys are valid,
    // and RSA-2048 generation only fails on allocation failure; a test helper may stop there.
    static let strangerRSAPEM = try! _RSA.Encryption.PrivateKey(keySize: .bits2048).pemRepresentation
    static var rsa: _RSA.Encryption.PrivateKey { try! _RSA.Encryption.PrivateKey(pemRepresentation: fixedRSAPrivateKeyPEM) }
    static var strangerRSA: _RSA.Encryption.PrivateKey { try! _RSA.Encryption.PrivateKey(pemRepresentation: strangerRSAPEM) }
    static let p256 = try! P256.KeyAgreement.PrivateKey(rawRepresentation: Data(hex: fixedP256PrivateKeyHex))
    static let strangerP256 = P256.KeyAgreement.PrivateKey()

    /// The test client's RSA decryption key (kid `enc-rsa`).
    public static let clientRSAKey = try! ClientDecryptionKey(pem: fixedRSAPrivateKeyPEM, keyID: "enc-rsa")
    /// The test client's P-256 private key in PEM form (a key file for configuration tests).
    public static let clientP256PEM = p256.pemRepresentation
    /// The test client's P-256 decryption key (kid `enc-ec`).
    public static let clientP256Key = try! ClientDecryptionKey(pem: clientP256PEM, keyID: "enc-ec")

    /// `plaintext` encrypted with `algorithm` / `encryption` to `recipient`.
    ///
    /// - Parameters:
    ///   - plaintext: what to encrypt (a signed JWT, or JSON).
    ///   - algorithm: the key management algorithm (`alg`), possibly one the client refuses.
    ///   - encryption: the content encryption algorithm (`enc`).
    ///   - recipient: whom to encrypt to.
    ///   - extra: members added to the protected header (`cty`, a forged `alg`, …), after the computed ones.
    ///   - tamper: changes the encoded segments before they are joined (index 0 header … 4 tag), to break the JWE.
    public static func encrypt(
        _ plaintext: Data,
        algorithm: String,
        encryption: String,
        to recipient: Recipient,
        header extra: [String: JSONValue] = [:],
        tamper: (inout [Data]) -> Void = { _ in }
    ) throws -> String {
        guard let content = JWEContentEncryption(rawValue: encryption) else { throw AuthError(.unsupportedAlgorithm, "enc \(encryption)") }
        var header: [String: JSONValue] = ["alg": .string(algorithm), "enc": .string(encryption)]
        var contentKey = SymmetricKey(size: SymmetricKeySize(bitCount: content.keyLength * 8)).withUnsafeBytes { Data($0) }
        var encryptedKey = Data()
        switch (JWEKeyManagement(rawValue: algorithm), recipient) {
        case (.rsaOAEP?, _), (.rsaOAEP256?, _):
            let key = {
                if case .strangerRSA = recipient { return strangerRSA.publicKey }
                return rsa.publicKey
            }()
            header["kid"] = "enc-rsa"
            encryptedKey = try key.encrypt(contentKey, padding: algorithm == "RSA-OAEP" ? .PKCS1_OAEP : .PKCS1_OAEP_SHA256)
        case (let management?, _) where management.rawValue.hasPrefix("ECDH-ES"):
            let key = {
                if case .strangerP256 = recipient { return strangerP256.publicKey }
                return p256.publicKey
            }()
            let ephemeral = P256.KeyAgreement.PrivateKey()
            let raw = ephemeral.publicKey.rawRepresentation
            header["epk"] = ["kty": "EC", "crv": "P-256", "x": .string(Base64URL.encode(raw.prefix(32))), "y": .string(Base64URL.encode(raw.suffix(32)))]
            header["kid"] = "enc-ec"
            let z = try ephemeral.sharedSecretFromKeyAgreement(with: key).withUnsafeBytes { Data($0) }
            if management == .ecdhES {
                contentKey = JWEDecryptor.concatKDF(z, length: content.keyLength, algorithmID: encryption, apu: Data(), apv: Data())
            } else {
                let kek = JWEDecryptor.concatKDF(z, length: management.wrapKeyLength ?? 16, algorithmID: algorithm, apu: Data(), apv: Data())
                encryptedKey = try AES.KeyWrap.wrap(SymmetricKey(data: contentKey), using: SymmetricKey(data: kek))
            }
        case (let management?, .secret(let secret)):
            let kek = Data(SHA256.hash(data: Data(secret.utf8))).prefix(management.wrapKeyLength ?? 16)
            encryptedKey = try AES.KeyWrap.wrap(SymmetricKey(data: contentKey), using: SymmetricKey(data: kek))
        default:
            // An algorithm the client refuses (RSA1_5, dir, …): a well-formed JWE whose key means nothing.
            encryptedKey = Data(count: 256)
        }
        header.merge(extra) { _, added in added }
        let protectedHeader = Base64URL.encode(try JSONValue.object(header).jsonData())
        let aad = Data(protectedHeader.utf8)
        let (iv, ciphertext, tag) = try seal(plaintext, content: content, key: contentKey, aad: aad)
        var segments = [
            Data(protectedHeader.utf8), Data(Base64URL.encode(encryptedKey).utf8), Data(Base64URL.encode(iv).utf8),
            Data(Base64URL.encode(ciphertext).utf8), Data(Base64URL.encode(tag).utf8)
        ]
        tamper(&segments)
        return segments.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ".")
    }

    /// The IV, ciphertext and tag of `plaintext` under `content` (RFC 7518 §5.2.2.1, §5.3).
    private static func seal(_ plaintext: Data, content: JWEContentEncryption, key contentKey: Data, aad: Data) throws -> (Data, Data, Data) {
        switch content {
        case .a128GCM, .a256GCM:
            let box = try AES.GCM.seal(plaintext, using: SymmetricKey(data: contentKey), authenticating: aad)
            return (Data(box.nonce), box.ciphertext, box.tag)
        case .a128CBCHS256, .a256CBCHS512:
            let half = content.keyLength / 2
            let iv = AES._CBC.IV()
            let ciphertext = try AES._CBC.encrypt(plaintext, using: SymmetricKey(data: contentKey.suffix(half)), iv: iv)
            var macInput = aad + Data(iv) + ciphertext
            withUnsafeBytes(of: UInt64(aad.count * 8).bigEndian) { macInput.append(contentsOf: $0) }
            let macKey = SymmetricKey(data: contentKey.prefix(half))
            let mac =
                content == .a128CBCHS256
                ? Data(HMAC<SHA256>.authenticationCode(for: macInput, using: macKey)) : Data(HMAC<SHA512>.authenticationCode(for: macInput, using: macKey))
            return (Data(iv), ciphertext, mac.prefix(half))
        }
    }

    /// Flips a bit of the tag: the JWE no longer authenticates. Pass as `tamper`.
    public static func flipTagBit(_ segments: inout [Data]) {
        guard var tag = Base64URL.decode(String(decoding: segments[4], as: UTF8.self)), !tag.isEmpty else { return }
        tag[tag.startIndex] ^= 0x01
        segments[4] = Data(Base64URL.encode(tag).utf8)
    }
}
