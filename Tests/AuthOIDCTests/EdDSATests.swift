import AuthCore
import AuthOIDC
import AuthTesting
import Foundation
import Testing

@Suite("EdDSA (Ed25519): ID token verification, client assertions")
struct EdDSATests {
    private static let edPolicy = IDTokenPolicy(allowedAlgorithms: [.edDSA])

    @Test("An EdDSA ID token from an OKP/Ed25519 JWKS key verifies, and the sign-in stores the credential")
    func verifies() async throws {
        let harness = try PARHarness(policy: Self.edPolicy) { $0.signingAlgorithm = .edDSA }
        let session = try await harness.client.signIn(with: harness.agent)
        #expect(await session.idTokenClaims?.subject == "user-1234")
        #expect(try await harness.storage.storedKeys().count == 1)
    }

    @Test("An EdDSA ID token with a bad signature: invalid_signature, nothing stored")
    func badSignature() async throws {
        let harness = try PARHarness(policy: Self.edPolicy) { $0.signingAlgorithm = .edDSA }
        await harness.idp.update { $0.signing = .corruptSignature }
        let error = await #expect(throws: AuthError.self) { try await harness.client.signIn(with: harness.agent) }
        #expect(error?.code == .invalidSignature)
        #expect(try await harness.nothingKept())
    }

    @Test("An Ed25519 signature verifies only whole (64 bytes), only over its own input, only with EdDSA")
    func signatureShape() throws {
        let key = try JSONWebKey(try #require(TestSigningKeys.primary.publicJWKs[3].objectValue))
        let input = Data("header.payload".utf8)
        let signature = TestSigningKeys.primary.sign(input, algorithm: .edDSA)
        #expect(signature.count == 64 && key.isValidSignature(signature, for: input, algorithm: .edDSA))
        #expect(!key.isValidSignature(signature.prefix(63), for: input, algorithm: .edDSA))
        #expect(!key.isValidSignature(signature + Data([0]), for: input, algorithm: .edDSA))
        #expect(!key.isValidSignature(signature, for: Data("header.payloaD".utf8), algorithm: .edDSA))
        #expect(!key.isValidSignature(signature, for: input, algorithm: .es256))
    }

    @Test("An OKP key on another curve (X25519, Ed448) or with a short x is unsupported_key; a JWKS serving one verifies nothing: unknown_key_id, nothing stored")
    func wrongCurve() async throws {
        let good = try #require(TestSigningKeys.primary.publicJWKs[3].objectValue)
        for curve in ["X25519", "Ed448"] {
            var members = good
            members["crv"] = .string(curve)
            let error = #expect(throws: AuthError.self) { try JSONWebKey(members) }
            #expect(error?.code == .unsupportedKey)
        }
        var short = good
        short["x"] = .string(Base64URL.encode(Data(count: 31)))
        #expect((#expect(throws: AuthError.self) { try JSONWebKey(short) })?.code == .unsupportedKey)
        // An EC key never verifies EdDSA, and an OKP key never ES256.
        #expect(!(try JSONWebKey(good)).canVerify(.es256))

        let harness = try PARHarness(policy: Self.edPolicy) { configuration in
            configuration.signingAlgorithm = .edDSA
        }
        let upstream = harness.idp.transport
        let rewritten = InProcessTransport().adding(host: TestIdentityProvider.defaultIssuer.host!) { request in
            let (data, response) = try await upstream.send(request)
            guard request.url?.path == "/jwks" else { return (data, response) }
            return (Data(String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\"Ed25519\"", with: "\"Ed448\"").utf8), response)
        }
        let client = AuthClient(provider: harness.client.provider, storage: harness.storage, transport: rewritten, clock: harness.clock)
        let error = await #expect(throws: AuthError.self) { try await client.signIn(with: harness.agent) }
        #expect(error?.code == .unknownKeyID)
        #expect(try await harness.storage.storedKeys().isEmpty)
    }

    @Test("Ed25519 client assertions: from a private JWK or a PEM, signed EdDSA, verified by the public OKP JWK; accepted by the provider")
    func clientAssertions() async throws {
        let jwk = PARHarness.ed25519JWK(id: "k1")
        let key = try ClientSigningKey(jwk: jwk)
        #expect(key.description == "ClientSigningKey(EdDSA, kid: k1)")
        let publicJWK = try key.publicJWK()
        #expect(publicJWK["kty"] == "OKP" && publicJWK["crv"] == "Ed25519" && publicJWK["d"] == nil)
        let token = try key.signedJWT(type: "JWT", claims: ["iss": "me"])
        let parts = token.split(separator: ".").map(String.init)
        let verifier = try JSONWebKey(publicJWK)
        #expect(verifier.isValidSignature(try #require(Base64URL.decode(parts[2])), for: Data("\(parts[0]).\(parts[1])".utf8), algorithm: .edDSA))

        let pem = "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIJ1hsZ3v/VpguoRK9JLsLMREScVpezJpGXA7rAMcrn9g\n-----END PRIVATE KEY-----"
        let fromPEM = try ClientSigningKey(pem: pem, algorithm: .edDSA)
        #expect(try fromPEM.publicJWK()["x"] == "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo", "RFC 8032 §7.1 test 1's public key")
        #expect((#expect(throws: AuthError.self) { try ClientSigningKey(pem: pem, algorithm: .es256) })?.code == .invalidConfiguration)

        let harness = try PARHarness(values: ["private_key_alg": "eddsa"], privateJWK: jwk)
        _ = try await harness.client.signIn(with: harness.agent)
        #expect(await harness.idp.clientAuthenticationFailures.isEmpty)
        let assertion = try #require(await harness.transport.exchanges(pathSuffix: "/token").first?.formParameters["client_assertion"])
        let header = try JSONValue.parseObject(try #require(Base64URL.decode(String(assertion.split(separator: ".")[0]))))
        #expect(header["alg"] == "EdDSA" && header["kid"] == "k1")
    }

    @Test("DPoP with Ed25519: a provider that lists only EdDSA gets EdDSA proofs it verifies; the key survives storage for refresh and user info")
    func dpopEdDSA() async throws {
        let harness = try PARHarness(values: ["dpop": true]) {
            $0.dpop = .init()
            $0.dpop?.algorithms = ["EdDSA"]
        }
        let session = try await harness.client.signIn(with: harness.agent)
        let credential = await session.credential
        #expect(credential.tokenType == "DPoP" && credential.dpopKey?.algorithm == "EdDSA")
        let proof = try #require(await harness.transport.exchanges(pathSuffix: "/token").first?.request.value(forHTTPHeaderField: "DPoP"))
        let header = try JSONValue.parseObject(try #require(Base64URL.decode(String(proof.split(separator: ".")[0]))))
        #expect(header["alg"] == "EdDSA" && header["jwk"]?.objectValue?["crv"] == "Ed25519")
        #expect(try #require(await harness.pushes().first).formParameters["dpop_jkt"] == credential.dpopKey?.thumbprint)

        let key = try #require(credential.dpopKey)
        let stored = try JSONEncoder().encode(key)
        #expect(String(decoding: stored, as: UTF8.self).hasPrefix(#""Ed25519:"#))
        #expect(try JSONDecoder().decode(DPoPKey.self, from: stored) == key)
        let restored = try #require(try await harness.client.restoreSession())
        #expect(try await restored.refresh().tokenType == "DPoP")
        #expect(try await restored.userInfo().subject == "user-1234")
        #expect(await harness.idp.dpopProofFailures.isEmpty)
    }
}
