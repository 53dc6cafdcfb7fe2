public import AuthCore
public import Foundation
import Crypto
import _CryptoExtras

/// Signing keys for the in-process identity provider: one RSA-2048 and one P-256 key, each with a key id.
///
/// Key generation (RSA especially) is slow, so two sets are generated once per process and shared:
/// ``primary`` and ``rotated`` (for key-rotation tests).
public struct TestSigningKeys: Sendable {
    let rsa: _RSA.Signing.PrivateKey
    let p256: P256.Signing.PrivateKey
    /// The RSA key's id.
    public let rsaKeyID: String
    /// The P-256 key's id.
    public let p256KeyID: String

    /// The keys every identity provider starts with.
    public static let primary = TestSigningKeys(label: "primary")
    /// Another set, for rotation.
    public static let rotated = TestSigningKeys(label: "rotated")

    init(label: String) {
        // RSA-2048 generation only fails on allocation failure; a test helper may stop there.
        rsa = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
        p256 = P256.Signing.PrivateKey()
        rsaKeyID = "rsa-\(label)"
        p256KeyID = "ec-\(label)"
    }

    /// The key id used for `algorithm`.
    public func keyID(for algorithm: JWSAlgorithm) -> String {
        algorithm == .es256 ? p256KeyID : rsaKeyID
    }

    /// The public keys as JWK objects.
    public var publicJWKs: [JSONValue] {
        // getKeyPrimitives fails only for keys that are not RSA; ours is.
        let primitives = try! rsa.publicKey.getKeyPrimitives()
        let point = p256.publicKey.rawRepresentation
        return [
            [
                "kty": "RSA", "kid": .string(rsaKeyID), "use": "sig", "alg": "RS256",
                "n": .string(Base64URL.encode(primitives.modulus)),
                "e": .string(Base64URL.encode(primitives.publicExponent)),
            ],
            [
                "kty": "EC", "kid": .string(p256KeyID), "use": "sig", "alg": "ES256", "crv": "P-256",
                "x": .string(Base64URL.encode(point.prefix(32))),
                "y": .string(Base64URL.encode(point.suffix(32))),
            ],
        ]
    }

    /// The RSA public key's modulus and exponent bytes (for hostile tests that misuse them as an HMAC secret).
    public var rsaPublicKeyDER: Data { rsa.publicKey.derRepresentation }

    /// Signs `signingInput` with the key for `algorithm` (RS256 or ES256).
    public func sign(_ signingInput: Data, algorithm: JWSAlgorithm) -> Data {
        if algorithm == .es256 {
            // ECDSA signing with a valid key does not fail.
            return (try! p256.signature(for: signingInput)).rawRepresentation
        }
        // RSA PKCS#1 v1.5 signing with a valid 2048-bit key does not fail.
        return (try! rsa.signature(for: SHA256.hash(data: signingInput), padding: .insecurePKCS1v1_5)).rawRepresentation
    }
}

/// Builds compact JWS tokens for the identity provider and for tests that forge their own.
public enum TestJWT {
    /// A JWS with `header` and `claims`, its signature produced by `signature(signingInput)`.
    public static func make(
        header: [String: JSONValue],
        claims: [String: JSONValue],
        signature: (Data) -> Data
    ) -> String {
        // Encoding a JSONValue cannot fail.
        let headerPart = Base64URL.encode(try! JSONValue.object(header).jsonData())
        let payloadPart = Base64URL.encode(try! JSONValue.object(claims).jsonData())
        let signingInput = headerPart + "." + payloadPart
        return signingInput + "." + Base64URL.encode(signature(Data(signingInput.utf8)))
    }

    /// An HMAC-SHA256 signature of `input` with `key` (for the "HS256 with the RSA public key" attack).
    public static func hmacSHA256(_ input: Data, key: Data) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: input, using: SymmetricKey(data: key)))
    }
}
