import AuthCore
import AuthTesting
import Crypto
import Foundation
import Testing

/// Tokens signed by an independent implementation (Python's `cryptography`, see the fuzz seed corpus) must
/// validate here: the engine agrees with the rest of the world, not only with AuthTesting's signer.
@Suite("Interoperability with independently signed tokens")
struct InteroperabilityTests {
    private static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/Corpus/jws")

    private let keySet: JSONWebKeySet = {
        // The test keys always encode and parse.
        try! JSONWebKeySet(data: try! JSONValue.object(["keys": .array(TestSigningKeys.primary.publicJWKs)]).jsonData())
    }()
    private let validator = IDTokenValidator(issuer: "https://idp.example.test", clientID: "test-client")
    private let now = Date(timeIntervalSince1970: ManualClock.defaultEpoch)

    private func token(_ name: String) throws -> String {
        try String(contentsOf: Self.corpus.appendingPathComponent(name), encoding: .utf8)
    }

    @Test("RS256 and ES256 tokens signed by Python cryptography validate, including at_hash", arguments: ["valid-rs256", "valid-es256", "nokid-rs256"])
    func validForeignTokens(name: String) throws {
        let claims = try validator.validate(try token(name), keySet: keySet, nonce: "nonce", accessToken: Secret("access"), now: now)
        #expect(claims.subject == "user-1234")
        #expect(claims["email"]?.stringValue == "alice@example.com")
    }

    @Test("Foreign tokens that break a rule are rejected with the rule's code")
    func invalidForeignTokens() throws {
        let cases: [(String, AuthError.Code)] = [
            ("expired", .tokenExpired), ("alg-none", .unsupportedAlgorithm), ("hs256", .unsupportedAlgorithm),
            ("crit", .unsupportedCriticalHeader), ("aud-array", .invalidAudience), ("five-segments", .malformedIDToken)
        ]
        for (name, code) in cases {
            let error = #expect(throws: AuthError.self) {
                try validator.validate(try token(name), keySet: keySet, nonce: "nonce", accessToken: Secret("access"), now: now)
            }
            #expect(error?.code == code, "\(name)")
        }
    }

    @Test(
        "An EC JWK whose coordinate lost its leading zero bytes (Glewlwyd 2.7.5's JWKS, one key in 128) verifies as the full one; a coordinate longer than the curve's is unsupported_key"
    )
    func shortenedECCoordinate() throws {
        // A P-256 key whose y starts with a zero byte, as a server that writes the integer's minimal bytes sends it.
        var signingKey = P256.Signing.PrivateKey()
        while signingKey.publicKey.rawRepresentation[32] != 0 { signingKey = P256.Signing.PrivateKey() }
        let raw = signingKey.publicKey.rawRepresentation
        let minimalY = raw.suffix(32).drop { $0 == 0 }
        var members: [String: JSONValue] = [
            "kty": "EC", "crv": "P-256", "kid": "short-y", "alg": "ES256",
            "x": .string(Base64URL.encode(raw.prefix(32))), "y": .string(Base64URL.encode(Data(minimalY)))
        ]
        let input = Data("header.payload".utf8)
        let signature = try signingKey.signature(for: input).rawRepresentation
        #expect(try JSONWebKey(members).isValidSignature(signature, for: input, algorithm: .es256))
        // The same rule for x, and for a coordinate one byte too long (even a zero byte): refused, not trimmed.
        members["y"] = .string(Base64URL.encode(Data([0]) + raw.suffix(32)))
        #expect((#expect(throws: AuthError.self) { try JSONWebKey(members) })?.code == .unsupportedKey)
        #expect(JSONWebKey.coordinate(Data([1, 2]), size: 4) == Data([0, 0, 1, 2]))
        #expect(JSONWebKey.coordinate(Data(count: 5), size: 4) == nil)
    }
}
