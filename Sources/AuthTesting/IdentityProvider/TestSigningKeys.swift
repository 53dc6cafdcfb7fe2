public import AuthCore
import Crypto
public import Foundation
import _CryptoExtras

/// Signing keys for the in-process identity provider: one RSA-2048 key (published twice: for RS256 and, under its own
/// key id, for PS256), one P-256 and one Ed25519 key, each with a key id.
///
/// `primary` is a fixed, published **test-only** key pair (never trust it anywhere): fixed so that tokens in
/// the fuzz seed corpus verify in every process, and so that test processes skip RSA key generation.
/// `rotated` is generated once per process, for key-rotation tests.
public struct TestSigningKeys: Sendable {
    let rsa: _RSA.Signing.PrivateKey
    let p256: P256.Signing.PrivateKey
    let ed25519: Curve25519.Signing.PrivateKey
    /// The RSA key's id.
    public let rsaKeyID: String
    /// The P-256 key's id.
    public let p256KeyID: String
    /// The Ed25519 key's id (EdDSA).
    public let ed25519KeyID: String
    /// The RSA key's id for PS256 (the same key, published with `alg: PS256`).
    public let rsaPSSKeyID: String

    /// The keys every identity provider starts with (fixed test keys).
    // The embedded keys are valid; parsing them cannot fail.
    public static let primary = TestSigningKeys(
        rsa: try! _RSA.Signing.PrivateKey(pemRepresentation: fixedRSAPrivateKeyPEM),
        p256: try! P256.Signing.PrivateKey(rawRepresentation: Data(hex: fixedP256PrivateKeyHex)),
        ed25519: try! Curve25519.Signing.PrivateKey(rawRepresentation: Data(hex: fixedEd25519PrivateKeyHex)),
        label: "primary"
    )
    /// Another set, generated per process, for rotation.
    // RSA-2048 generation only fails on allocation failure; a test helper may stop there.
    public static let rotated = TestSigningKeys(
        rsa: try! _RSA.Signing.PrivateKey(keySize: .bits2048),
        p256: P256.Signing.PrivateKey(),
        ed25519: Curve25519.Signing.PrivateKey(),
        label: "rotated"
    )

    init(rsa: _RSA.Signing.PrivateKey, p256: P256.Signing.PrivateKey, ed25519: Curve25519.Signing.PrivateKey, label: String) {
        self.rsa = rsa
        self.p256 = p256
        self.ed25519 = ed25519
        rsaKeyID = "rsa-\(label)"
        p256KeyID = "ec-\(label)"
        ed25519KeyID = "ed-\(label)"
        rsaPSSKeyID = "rsa-pss-\(label)"
    }

    /// The key id used for `algorithm`.
    public func keyID(for algorithm: JWSAlgorithm) -> String {
        switch algorithm {
        case .es256: p256KeyID
        case .edDSA: ed25519KeyID
        case .ps256: rsaPSSKeyID
        default: rsaKeyID
        }
    }

    /// The public keys as JWK objects: RSA (RS256), P-256 (ES256), then RSA (PS256) and Ed25519 (EdDSA).
    public var publicJWKs: [JSONValue] {
        // getKeyPrimitives fails only for keys that are not RSA; ours is.
        let primitives = try! rsa.publicKey.getKeyPrimitives()
        let point = p256.publicKey.rawRepresentation
        return [
            [
                "kty": "RSA", "kid": .string(rsaKeyID), "use": "sig", "alg": "RS256",
                "n": .string(Base64URL.encode(primitives.modulus)),
                "e": .string(Base64URL.encode(primitives.publicExponent))
            ],

            [
                "kty": "EC", "kid": .string(p256KeyID), "use": "sig", "alg": "ES256", "crv": "P-256",
                "x": .string(Base64URL.encode(point.prefix(32))),
                "y": .string(Base64URL.encode(point.suffix(32)))
            ],
            // Appended after the first two, whose positions fixtures and benchmarks rely on.
            [
                "kty": "RSA", "kid": .string(rsaPSSKeyID), "use": "sig", "alg": "PS256",
                "n": .string(Base64URL.encode(primitives.modulus)),
                "e": .string(Base64URL.encode(primitives.publicExponent))
            ],
            [
                "kty": "OKP", "kid": .string(ed25519KeyID), "use": "sig", "alg": "EdDSA", "crv": "Ed25519",
                "x": .string(Base64URL.encode(ed25519.publicKey.rawRepresentation))
            ]
        ]
    }

    /// The RSA public key's modulus and exponent bytes (for hostile tests that misuse them as an HMAC secret).
    public var rsaPublicKeyDER: Data { rsa.publicKey.derRepresentation }

    /// Signs `signingInput` with the key for `algorithm` (RS256, PS256, ES256 or EdDSA).
    public func sign(_ signingInput: Data, algorithm: JWSAlgorithm) -> Data {
        if algorithm == .es256 {
            // ECDSA signing with a valid key does not fail.
            return (try! p256.signature(for: signingInput)).rawRepresentation
        }
        if algorithm == .edDSA {
            // Ed25519 signing with a valid key does not fail.
            return try! ed25519.signature(for: signingInput)
        }
        if algorithm == .ps256 {
            // RSA-PSS signing with a valid 2048-bit key does not fail.
            return (try! rsa.signature(for: SHA256.hash(data: signingInput), padding: .PSS)).rawRepresentation
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

/// TEST ONLY. A published RSA-2048 private key for the in-process identity provider; it protects nothing.
let fixedRSAPrivateKeyPEM = """
    -----BEGIN PRIVATE KEY-----
    MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDcnZGxuu7JkEsJ
    ILc1/DoCZ8bBOCHlUTmIm1D14tyPU64hDR/EqCBh6tpTNHpq78C24sHjCFIeIseI
    yOkWOMXRPc9sp6oroU7QgPv6GbT3yWn9IHrwauQq8M10WiALnSO9FAgR2ChlNT+b
    UpVHBkmVIwUxq+5svpedXg4PQ0EAQ95tU526tEM4KlDr7j2QDdDX5/UP6CsljDYY
    JsHr4V4TaOWF4q0BLevs7GT5qeBXsOvnfFf6TzimnLR2y8XLQeytjUog+AH/q/wp
    WdUhcFwY8Ot0tF8vHE0Z3edIDinQac2KvxEp0Qy98xTaewSG5iWsjQv0eCLASzzR
    cCx19VOhAgMBAAECggEAAJFfIwRCWjg5Ey0UOzFPmWzvP1I3RDu2pnq3NOiXiGYP
    R29YuL5D5Ttx8N5KSHTEhcH9Tib8w+tWQRJZNDh4YIo57O4HBKpcxFp49WKTDHpP
    HwSGfvCC/wPJvxhxdnClEGElHONw65BLER4L8JBEl/9Y2VQPnC/79aHMAFwVlbpd
    xITMVyg9EPmK7Vz0EwZ3cKjyrbodWn7T6t8C4Px5MYKED5h5k0/F1T3thb5bE3qq
    V/1KQQbhzyBnysp5iYQGDHylmAo5JcDF4zTN6gul+oxqnqhPIIZTeMhiC0oO8OOf
    GZTVoVMTR4WUY/P5P+oSC+pJTjwMVGrAUK94luGjQQKBgQD+iHf+VqHiaqUSUeq7
    zNvFRpRjBEAfs27vEAWcduNtIGT0YXCN7gr/ZKo846V7B+V4e3Z+P1/zrzXQnG8s
    uxm2LtEbK8xXyON4Q2kj5PhgUGVCGRVVAX/4+dyOwEc/vwwYDl9s1v5JO+tn140+
    jUhXdbrWJi5aS//NzUGaoHdcwQKBgQDd4w8vCZZZHYuIVpo8/+ar+tRquVpYX4d4
    v9njrMV74U92lZfJyQBX85smZhuAgxclSmhJhhiOtxIqzsKfWJ+xYYfxDqtKx+a1
    nx/9Ww2Fy4qbzrGtRItpfqoVyw3ryA6VS8XWxjwtMslwBq7q5hiiFX+YHDm1MUyj
    P7V8/0pO4QKBgQCvzPAb4hgjuwbSVXPsTD0Kz4nTre7gNl2LjqRhghfomnQ/+kD0
    NpKv/QY70fvMsxKCGbwozHroY36m3DVJTt0eYM2al7CmfSDnQqAO46nNVBnsAkki
    kkuiWmlEy3cqhzjCMMMl+IRfbpxT96QdrRVnGvB10p83TMCck4UZWHW4wQKBgDbI
    mfYeIt3r2oiWAUzwTc7Ghm23R+Qr6fHZRH3fKX81mP4JX0m18/zDK9pmOYIYW72c
    SnVkw2lxL+4b0JexNPSBxSOyYH59LqxHFoniUktnftiLRvklxFoOqQXqdYxyf49C
    /xzRIwhx0qRzMfrTRt+1+SPgTCs9edOQpkmvanRhAoGAd8MnK+r7/i1+2gog8eDw
    jvQ2NGzWqCjL6WVqZ7T5rchAsZLlMpiG02sYNmmCwub2U3ieJUpEqN184ILYw/sr
    rwyvgPI1XKSEqI7VILqBl720fBpcpo7+Dt6TwBUF1ozEfVokMD6jBvG7Mn0U7Jaz
    9znH7Fh77Y1ow9FA7eRyJiU=
    -----END PRIVATE KEY-----
    """

/// TEST ONLY. A published Ed25519 private key seed for the in-process identity provider; it protects nothing.
let fixedEd25519PrivateKeyHex = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"

/// TEST ONLY. A published P-256 private key scalar for the in-process identity provider; it protects nothing.
let fixedP256PrivateKeyHex = "2c19f2f1791b62ec8f85e152f334beb958489de1f7f57afcecd99584120c972f"

extension Data {
    /// Bytes from a hex string of an even number of hex digits.
    init(hex: String) {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        self.init(bytes)
    }
}
