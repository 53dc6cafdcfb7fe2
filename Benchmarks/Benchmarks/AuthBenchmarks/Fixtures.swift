import AuthProviders
import AuthTesting
import Crypto
import Foundation
import JWTKit
import _CryptoExtras

/// One ID token per algorithm, signed with AuthTesting's fixed keys, and everything each verifier needs, prepared
/// once so that every benchmark measures only its verification.
struct TokenFixture: Sendable {
    let algorithm: AuthCore.JWSAlgorithm
    let token: String
    let signingInput: Data
    let signature: Data
    let keySet: JSONWebKeySet
    let jwksJSON: String
    let validator = IDTokenValidator(issuer: "https://idp.example.test", clientID: "test-client")
    static let now = Date(timeIntervalSince1970: ManualClock.defaultEpoch)

    init(_ algorithm: AuthCore.JWSAlgorithm) {
        self.algorithm = algorithm
        let keys = TestSigningKeys.primary
        let claims: [String: JSONValue] = [
            "iss": "https://idp.example.test", "sub": "user-1234", "aud": "test-client", "nonce": "n-0123456789",
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

    /// The raw public key for the pure signature check.
    var rawRSAKey: _RSA.Signing.PublicKey {
        let jwk = TestSigningKeys.primary.publicJWKs[0]
        return try! _RSA.Signing.PublicKey(n: Base64URL.decode(jwk["n"]!.stringValue!)!, e: Base64URL.decode(jwk["e"]!.stringValue!)!)
    }

    var rawP256Key: P256.Signing.PublicKey {
        let jwk = TestSigningKeys.primary.publicJWKs[1]
        return try! P256.Signing.PublicKey(rawRepresentation: Base64URL.decode(jwk["x"]!.stringValue!)! + Base64URL.decode(jwk["y"]!.stringValue!)!)
    }
}

/// The claims jwt-kit checks, matching ours as closely as its API allows (signature, exp, aud, iss, nonce).
struct PeerPayload: JWTPayload {
    let iss: IssuerClaim
    let sub: SubjectClaim
    let aud: AudienceClaim
    let exp: ExpirationClaim
    let iat: IssuedAtClaim
    let nonce: String

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired(currentDate: TokenFixture.now)
        try aud.verifyIntendedAudience(includes: "test-client")
        guard iss.value == "https://idp.example.test", nonce == "n-0123456789" else {
            throw JWTError.claimVerificationFailure(failedClaim: iss, reason: "issuer or nonce")
        }
    }
}

/// A provider with fixed endpoints, so building authorization requests touches no network.
struct FixedProvider: AuthProvider {
    static let id: ProviderID = "fixed"
    let client = ClientRegistration(clientID: "test-client", redirectURI: URL(string: "com.example.app:/oauth/callback")!,
                                    scopes: ["openid", "email"])
    init() {}
    init(configuration: ProviderConfiguration) throws { self.init() }
    var endpointSource: EndpointSource {
        .fixed(ProviderMetadata(issuer: "https://idp.example.test",
                                authorizationEndpoint: URL(string: "https://idp.example.test/authorize")!,
                                tokenEndpoint: URL(string: "https://idp.example.test/token")!))
    }
    func authorizationParameters(for request: SignInRequest) -> [String: String] { ["ui_locales": "en"] }
}

/// A logger that drops everything (the benchmarks measure the engine, not logging).
struct SilentLogger: AuthLogger {
    func log(_ record: AuthLogRecord) {}
}
