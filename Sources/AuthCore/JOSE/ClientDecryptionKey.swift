import Crypto
import Foundation
import _CryptoExtras

/// The client's private key for encrypted ID tokens and user info (JWE, RFC 7516): an RSA key (2048 bits or more)
/// for `RSA-OAEP` / `RSA-OAEP-256`, or a P-256 key for `ECDH-ES` (and `ECDH-ES+A128KW` / `+A256KW`).
///
/// The provider encrypts to the public half, which the client registered in its `jwks` (dynamic registration
/// publishes it). The key never appears in a description, a log line or an error. `A128KW` / `A256KW` need no key
/// here: their key is derived from the client secret (OpenID Connect Core §10.2).
///
/// ```swift
/// var registration = ClientRegistration(clientID: "app", clientSecret: secret, redirectURI: callback)
/// registration.decryptionKeys = [try ClientDecryptionKey(pem: String(contentsOfFile: "enc.key"), keyID: "enc-1")]
/// registration.idTokenEncryption = ResponseEncryption(algorithm: "RSA-OAEP", contentEncryption: "A256GCM")
/// ```
public struct ClientDecryptionKey: Sendable, Hashable, CustomStringConvertible {
    enum Key: Sendable {
        /// The PKCS#8 DER of an RSA key, parsed where it is used (swift-crypto's RSA encryption keys are not `Sendable`).
        case rsa(der: Data)
        case p256(P256.KeyAgreement.PrivateKey)

        /// The RSA key, for `.rsa`.
        func rsaKey() throws -> _RSA.Encryption.PrivateKey {
            guard case .rsa(let der) = self else { throw AuthError(.decryptionFailed, "The client's key is not an RSA key.") }
            return try _RSA.Encryption.PrivateKey(derRepresentation: der)
        }
    }

    /// Compares and hashes keys by their public half; holds the private key.
    struct Material: Sendable, Hashable {
        let key: Key
        let publicBytes: Data
        static func == (lhs: Material, rhs: Material) -> Bool { lhs.publicBytes == rhs.publicBytes }
        func hash(into hasher: inout Hasher) { hasher.combine(publicBytes) }
    }

    /// The `kid` the provider names in the JWE header, when set.
    package let keyID: String?
    let material: Material

    /// A key from PEM text (PKCS#8, or the traditional RSA / EC forms): RSA (2048 bits or more) or P-256.
    ///
    /// - Throws: `invalid_configuration` when the PEM is neither, never with the key's text in the message.
    public init(pem: String, keyID: String? = nil) throws {
        self.keyID = keyID
        if let rsa = try? _RSA.Encryption.PrivateKey(pemRepresentation: pem) {
            material = Material(key: .rsa(der: rsa.derRepresentation), publicBytes: rsa.publicKey.derRepresentation)
        } else if let p256 = try? P256.KeyAgreement.PrivateKey(pemRepresentation: pem) {
            material = Material(key: .p256(p256), publicBytes: p256.publicKey.rawRepresentation)
        } else {
            throw AuthError(.invalidConfiguration, "The client's decryption key is not an RSA (2048 bits or more) or P-256 private key in PEM form.")
        }
    }

    /// A key from a private JWK: `kty` RSA with `n`, `e`, `d`, `p`, `q`, or EC `P-256` with `x`, `y`, `d`; its
    /// `kid` is kept.
    ///
    /// - Throws: `invalid_configuration` naming what is missing.
    public init(jwk: [String: JSONValue]) throws {
        func bytes(_ name: String) throws -> Data {
            guard let text = jwk[name]?.stringValue, let data = Base64URL.decode(text), !data.isEmpty else {
                throw AuthError(.invalidConfiguration, "The client's private decryption JWK has no valid '\(name)' member.")
            }
            return data
        }
        keyID = jwk["kid"]?.stringValue
        switch jwk["kty"]?.stringValue {
        case "RSA":
            guard let key = try? _RSA.Encryption.PrivateKey(n: try bytes("n"), e: try bytes("e"), d: try bytes("d"), p: try bytes("p"), q: try bytes("q")) else {
                throw AuthError(.invalidConfiguration, "The client's private RSA decryption JWK is not a valid key of 2048 bits or more.")
            }
            material = Material(key: .rsa(der: key.derRepresentation), publicBytes: key.publicKey.derRepresentation)
        case "EC":
            guard jwk["crv"]?.stringValue == "P-256", let key = try? P256.KeyAgreement.PrivateKey(rawRepresentation: try bytes("d")) else {
                throw AuthError(.invalidConfiguration, "The client's private EC decryption JWK must be a P-256 key with a valid 'd'.")
            }
            material = Material(key: .p256(key), publicBytes: key.publicKey.rawRepresentation)
        default:
            throw AuthError(.invalidConfiguration, "The client's private decryption JWK must have kty RSA or EC.")
        }
    }

    /// The public half as a JWK with `use: enc`, to register in the client's `jwks`.
    package func publicJWK() throws -> [String: JSONValue] {
        var jwk: [String: JSONValue]
        switch material.key {
        case .rsa:
            let parameters = try material.key.rsaKey().publicKey.getKeyPrimitives()
            jwk = ["kty": "RSA", "n": .string(Base64URL.encode(parameters.modulus)), "e": .string(Base64URL.encode(parameters.publicExponent))]
        case .p256(let key):
            let raw = key.publicKey.rawRepresentation
            jwk = ["kty": "EC", "crv": "P-256", "x": .string(Base64URL.encode(raw.prefix(32))), "y": .string(Base64URL.encode(raw.suffix(32)))]
        }
        jwk["use"] = "enc"
        if let keyID { jwk["kid"] = .string(keyID) }
        return jwk
    }

    /// Whether this key can take part in `algorithm`.
    func fits(_ algorithm: JWEKeyManagement) -> Bool {
        switch (material.key, algorithm) {
        case (.rsa, .rsaOAEP), (.rsa, .rsaOAEP256): true
        case (.p256, .ecdhES), (.p256, .ecdhESA128KW), (.p256, .ecdhESA256KW): true
        default: false
        }
    }

    /// `ClientDecryptionKey(RSA, kid: …)`: never the key.
    public var description: String {
        let kind =
            switch material.key {
            case .rsa: "RSA"
            case .p256: "P-256"
            }
        return "ClientDecryptionKey(\(kind)\(keyID.map { ", kid: \($0)" } ?? ""))"
    }
}
