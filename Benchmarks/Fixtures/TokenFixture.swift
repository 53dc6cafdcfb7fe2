import AuthProviders
import AuthTesting
import Crypto
import Foundation
import _CryptoExtras

/// One ID token per algorithm, signed with AuthTesting's fixed keys, and everything each verifier needs, prepared
/// once so that every benchmark (and every instruction count) measures only its verification.
public struct TokenFixture: Sendable {
    public let algorithm: AuthCore.JWSAlgorithm
    public let token: String
    public let signingInput: Data
    public let signature: Data
    public let keySet: JSONWebKeySet
    public let jwksJSON: String
    public let validator = IDTokenValidator(issuer: "https://idp.example.test", clientID: "test-client")
    public static let now = Date(timeIntervalSince1970: ManualClock.defaultEpoch)
    public static let nonce = "n-0123456789"

    public init(_ algorithm: AuthCore.JWSAlgorithm) {
        self.algorithm = algorithm
        let keys = TestSigningKeys.primary
        let claims: [String: JSONValue] = [
            "iss": "https://idp.example.test", "sub": "user-1234", "aud": "test-client", "nonce": .string(Self.nonce),
            "iat": .number(ManualClock.defaultEpoch), "exp": .number(ManualClock.defaultEpoch + 3600),
            "email": "alice@example.com",
        ]
        token = TestJWT.make(header: ["alg": .string(algorithm.rawValue), "kid": .string(keys.keyID(for: algorithm)), "typ": "JWT"], claims: claims) {
            keys.sign($0, algorithm: algorithm)
        }
        let parts = token.split(separator: ".")
        signingInput = Data((parts[0] + "." + parts[1]).utf8)
        signature = Base64URL.decode(parts[2])!
        let document = JSONValue.object(["keys": .array(keys.publicJWKs)])
        jwksJSON = String(decoding: try! document.jsonData(), as: UTF8.self)
        keySet = try! JSONWebKeySet(data: Data(jwksJSON.utf8))
    }

    /// Our full validation: parse, pinned algorithm, key lookup, signature, every claim rule.
    @inline(never)
    public func validate() throws -> IDTokenClaims {
        try validator.validate(token, keySet: keySet, nonce: Self.nonce, now: Self.now)
    }

    /// The raw public key for the pure signature check.
    public var rawRSAKey: _RSA.Signing.PublicKey {
        let jwk = TestSigningKeys.primary.publicJWKs[0]
        return try! _RSA.Signing.PublicKey(n: Base64URL.decode(jwk["n"]!.stringValue!)!, e: Base64URL.decode(jwk["e"]!.stringValue!)!)
    }

    /// The raw P-256 public key for the pure signature check.
    public var rawP256Key: P256.Signing.PublicKey {
        let jwk = TestSigningKeys.primary.publicJWKs[1]
        return try! P256.Signing.PublicKey(rawRepresentation: Base64URL.decode(jwk["x"]!.stringValue!)! + Base64URL.decode(jwk["y"]!.stringValue!)!)
    }

    /// The floor: swift-crypto's verification of the same signing input with a pre-built key and signature.
    public func rawVerifier() -> @Sendable () -> Bool {
        switch algorithm {
        case .rs256:
            let key = rawRSAKey
            let signature = _RSA.Signing.RSASignature(rawRepresentation: signature)
            let input = signingInput
            return { key.isValidSignature(signature, for: SHA256.hash(data: input), padding: .insecurePKCS1v1_5) }
        default:
            let key = rawP256Key
            let signature = try! P256.Signing.ECDSASignature(rawRepresentation: signature)
            let input = signingInput
            return { key.isValidSignature(signature, for: SHA256.hash(data: input)) }
        }
    }
}
