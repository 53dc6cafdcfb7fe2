import AuthProviders
import AuthTesting
import Crypto
import Foundation
import _AuthHarness
import _CryptoExtras

/// One ID token per algorithm, signed with AuthTesting's fixed keys, and everything each verifier needs, prepared
/// once so that every benchmark (and every instruction count) measures only its verification.
public struct TokenFixture: Sendable {
    public let algorithm: AuthCore.JWSAlgorithm
    public let token: String
    public let signingInput: Data
    public let signature: Data
    public let jwksJSON: String
    /// Our ID token validation over the fixture's key set.
    public let validator: IDTokenHarness
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
        signature = Self.base64URLDecode(parts[2])
        let document = JSONValue.object(["keys": .array(keys.publicJWKs)])
        jwksJSON = String(decoding: try! JSONHarness.data(document), as: UTF8.self)
        // RS256 and ES256 under the standard policy (as their recorded baselines); PS256 and EdDSA pinned alone.
        let policy = algorithm == .rs256 || algorithm == .es256 ? IDTokenPolicy.standard : IDTokenPolicy(allowedAlgorithms: [algorithm])
        validator = try! IDTokenHarness(issuer: "https://idp.example.test", clientID: "test-client", policy: policy, jwks: Data(jwksJSON.utf8))
    }

    /// Our full validation: parse, pinned algorithm, key lookup, signature, every claim rule.
    @inline(never)
    public func validate() throws -> IDTokenClaims {
        try validator.validate(token, nonce: Self.nonce, now: Self.now)
    }

    /// The raw public key for the pure signature check.
    public var rawRSAKey: _RSA.Signing.PublicKey {
        let jwk = TestSigningKeys.primary.publicJWKs[0]
        return try! _RSA.Signing.PublicKey(n: Self.base64URLDecode(jwk["n"]!.stringValue!), e: Self.base64URLDecode(jwk["e"]!.stringValue!))
    }

    /// The raw P-256 public key for the pure signature check.
    public var rawP256Key: P256.Signing.PublicKey {
        let jwk = TestSigningKeys.primary.publicJWKs[1]
        return try! P256.Signing.PublicKey(rawRepresentation: Self.base64URLDecode(jwk["x"]!.stringValue!) + Self.base64URLDecode(jwk["y"]!.stringValue!))
    }

    /// The raw Ed25519 public key for the pure signature check.
    public var rawEd25519Key: Curve25519.Signing.PublicKey {
        let jwk = TestSigningKeys.primary.publicJWKs[3]
        return try! Curve25519.Signing.PublicKey(rawRepresentation: Self.base64URLDecode(jwk["x"]!.stringValue!))
    }

    /// The floor: swift-crypto's verification of the same signing input with a pre-built key and signature.
    public func rawVerifier() -> @Sendable () -> Bool {
        switch algorithm {
        case .rs256, .ps256:
            let key = rawRSAKey
            let signature = _RSA.Signing.RSASignature(rawRepresentation: signature)
            let input = signingInput
            let padding: _RSA.Signing.Padding = algorithm == .ps256 ? .PSS : .insecurePKCS1v1_5
            return { key.isValidSignature(signature, for: SHA256.hash(data: input), padding: padding) }
        case .edDSA:
            let key = rawEd25519Key
            let signature = signature
            let input = signingInput
            return { key.isValidSignature(signature, for: input) }
        default:
            let key = rawP256Key
            let signature = try! P256.Signing.ECDSASignature(rawRepresentation: signature)
            let input = signingInput
            return { key.isValidSignature(signature, for: SHA256.hash(data: input)) }
        }
    }

    /// Base64url without padding (RFC 7515 §2), for the fixture's own set-up; not measured.
    static func base64URLDecode(_ text: some StringProtocol) -> Data {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)!
    }
}
