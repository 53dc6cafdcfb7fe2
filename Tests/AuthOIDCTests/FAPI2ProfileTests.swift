import AuthCore
import AuthOIDC
import AuthTesting
import Foundation
import Testing

@Suite("FAPI 2.0 Security Profile (profile: fapi2)")
struct FAPI2ProfileTests {
    /// A provider that offers everything FAPI 2.0 needs: PAR (required), DPoP, RFC 9207 `iss`, `algorithm` ID tokens.
    private static func harness(
        algorithm: JWSAlgorithm = .edDSA,
        values: [String: JSONValue] = [:],
        privateJWK: [String: JSONValue]? = PARHarness.ed25519JWK(),
        secret: String? = nil,
        configure: (inout TestIdentityProvider.Configuration) -> Void = { _ in }
    ) throws -> PARHarness {
        try PARHarness(values: ["profile": "fapi2"].merging(values) { _, new in new }, privateJWK: privateJWK, secret: secret) {
            $0.signingAlgorithm = algorithm
            $0.dpop = .init()
            $0.pushedAuthorization = .init(required: true)
            configure(&$0)
        }
    }

    @Test(
        "A FAPI 2.0 sign-in: one pushed request, PKCE S256, private_key_jwt, DPoP-bound tokens, RFC 9207 iss, a PS256/ES256/EdDSA ID token",
        arguments: [(JWSAlgorithm.edDSA, true), (.ps256, false), (.es256, true)])
    func signsIn(algorithm: JWSAlgorithm, edKey: Bool) async throws {
        let harness = try Self.harness(algorithm: algorithm, privateJWK: edKey ? PARHarness.ed25519JWK() : PARHarness.p256JWK())
        let request = try await harness.client.prepareSignIn()
        #expect(PARHarness.queryNames(request.url) == ["client_id", "request_uri"])
        let session = try await harness.client.completeSignIn(redirect: try await harness.agent.authorize(request))
        let pushes = await harness.pushes()
        #expect(pushes.count == 1)
        let form = try #require(pushes.first).formParameters
        #expect(form["code_challenge_method"] == "S256" && form["dpop_jkt"] != nil)
        let assertion = try #require(form["client_assertion"])
        let header = try JSONValue.parseObject(try #require(Base64URL.decode(String(assertion.split(separator: ".")[0]))))
        #expect(header["alg"]?.stringValue == (edKey ? "EdDSA" : "ES256"))
        let credential = await session.credential
        #expect(credential.tokenType == "DPoP" && credential.dpopKey != nil)
        #expect(await session.idTokenClaims?.subject == "user-1234")
        #expect(await harness.idp.clientAuthenticationFailures.isEmpty)
        #expect(await harness.idp.pushedAuthorizationFailures.isEmpty)
    }

    @Test(
        "A configuration that breaks a rule cannot be built: fapi_profile_violation naming the rule",
        arguments: [
            ("client authentication", [String: JSONValue](), false),
            ("sender-constrained tokens", ["dpop": false], true),
            ("pushed authorization requests", ["par": false], true)
        ])
    func configurationRefused(rule: String, values: [String: JSONValue], withKey: Bool) throws {
        let error = #expect(throws: AuthError.self) {
            try Self.harness(values: values, privateJWK: withKey ? PARHarness.ed25519JWK() : nil, secret: withKey ? nil : "s3cret")
        }
        #expect(error?.code == .fapiProfileViolation)
        #expect(error?.message.contains("rule '\(rule)'") == true)
        if rule == "client authentication" { #expect(error?.message.contains("mTLS") == true) }
    }

    /// A provider that breaks one rule; the sign-in must not start.
    private static let providerRefusals: [(String, @Sendable (inout TestIdentityProvider.Configuration) -> Void)] = [
        ("signing algorithms", { $0.signingAlgorithm = .rs256 }),
        ("pushed authorization requests", { $0.pushedAuthorization = nil }),
        ("RFC 9207 iss", { $0.initialBehavior.advertisesIssParameter = false }),
        ("sender-constrained tokens", { $0.dpop = nil }),
        ("PKCE S256", { $0.initialBehavior.discoveryOverrides["code_challenge_methods_supported"] = ["plain"] }),
        ("signing algorithms", { $0.initialBehavior.discoveryOverrides["token_endpoint_auth_signing_alg_values_supported"] = ["RS256", "PS256"] })
    ]

    @Test(
        "A provider that breaks a rule (offers only RS256, lacks PAR, RFC 9207, DPoP or S256, refuses EdDSA assertions): fapi_profile_violation, nothing sent, nothing stored",
        arguments: 0..<6)
    func providerRefused(index: Int) async throws {
        let (rule, configure) = Self.providerRefusals[index]
        let harness = try Self.harness(configure: configure)
        let error = await #expect(throws: AuthError.self) { try await harness.client.signIn(with: harness.agent) }
        #expect(error?.code == .fapiProfileViolation)
        #expect(error?.message.contains("rule '\(rule)'") == true)
        #expect(await harness.pushes().isEmpty)
        #expect(await harness.transport.exchanges(pathSuffix: "/token").isEmpty)
        #expect(try await harness.nothingKept())
    }

    @Test("No ID token algorithm outside PS256, ES256 and EdDSA, even when discovery offers one: unsupported_algorithm, nothing stored")
    func rs256TokenRefused() async throws {
        let harness = try Self.harness(algorithm: .rs256) {
            $0.initialBehavior.discoveryOverrides["id_token_signing_alg_values_supported"] = ["RS256", "ES256"]
        }
        let error = await #expect(throws: AuthError.self) { try await harness.client.signIn(with: harness.agent) }
        #expect(error?.code == .unsupportedAlgorithm)
        #expect(try await harness.nothingKept())
    }

    @Test("An authorization response without RFC 9207 iss: missing_issuer_parameter, nothing stored")
    func issRequired() async throws {
        let harness = try Self.harness { $0.initialBehavior.sendsIssParameter = false }
        let error = await #expect(throws: AuthError.self) { try await harness.client.signIn(with: harness.agent) }
        #expect(error?.code == .missingIssuerParameter)
        #expect(try await harness.nothingKept())
    }
}
