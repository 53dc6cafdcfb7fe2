import AuthCore
import AuthTesting
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
}
