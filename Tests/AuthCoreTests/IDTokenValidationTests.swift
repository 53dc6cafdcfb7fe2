import AuthCore
import AuthTesting
import Foundation
import Testing

@Suite("ID token validation through the engine")
struct IDTokenValidationTests {
    /// Signs in with the identity provider misbehaving as `change` says; returns the error.
    private func signInError(
        algorithm: JWSAlgorithm = .rs256,
        _ change: @escaping @Sendable (inout TestIdentityProvider.Behavior) -> Void
    ) async throws -> (AuthError?, Fixture) {
        let fixture = Fixture(algorithm: algorithm)
        await fixture.idp.update(change)
        let error = await authError { _ = try await fixture.signIn() }
        #expect(try await fixture.storedCount() == 0, "nothing may be stored after a rejected ID token")
        return (error, fixture)
    }

    @Test("Claim checks each end in their own error code")
    func claimChecks() async throws {
        let cases: [(AuthError.Code, @Sendable (inout TestIdentityProvider.Behavior) -> Void)] = [
            (.invalidIssuer, { $0.idTokenClaimOverrides["iss"] = "https://other.example.test" }),
            (.invalidIssuer, { $0.idTokenClaimRemovals = ["iss"] }),
            (.invalidAudience, { $0.idTokenClaimOverrides["aud"] = "another-client" }),
            (.invalidAudience, { $0.idTokenClaimRemovals = ["aud"] }),
            (.invalidAudience, { $0.idTokenClaimOverrides["aud"] = ["test-client", "untrusted"]; $0.idTokenClaimOverrides["azp"] = "test-client" }),
            (.invalidAuthorizedParty, { $0.idTokenClaimOverrides["azp"] = "another-client" }),
            (.missingClaim, { $0.idTokenClaimRemovals = ["sub"] }),
            (.missingClaim, { $0.idTokenClaimRemovals = ["exp"] }),
            (.missingClaim, { $0.idTokenClaimRemovals = ["iat"] }),
            (.tokenExpired, { $0.idTokenClaimOverrides["exp"] = 1_767_225_000 }),
            (.invalidIssuedAt, { $0.idTokenClaimOverrides["iat"] = 1_767_000_000 }),
            (.invalidIssuedAt, { $0.idTokenClaimOverrides["iat"] = 1_767_300_000 }),
            (.nonceMismatch, { $0.idTokenClaimOverrides["nonce"] = "replayed" }),
            (.nonceMismatch, { $0.idTokenClaimRemovals = ["nonce"] }),
            (.accessTokenHashMismatch, { $0.idTokenClaimOverrides["at_hash"] = "AAAAAAAAAAAAAAAAAAAAAA" }),
        ]
        for (index, (expected, change)) in cases.enumerated() {
            let (error, _) = try await signInError(change)
            #expect(error?.code == expected, "case \(index): expected \(expected), got \(String(describing: error))")
        }
    }

    @Test("A single-element aud array is accepted")
    func singleAudienceArray() async throws {
        let fixture = Fixture()
        await fixture.idp.update { $0.idTokenClaimOverrides["aud"] = ["test-client"] }
        let session = try await fixture.signIn()
        #expect(await session.idTokenClaims?.audience == ["test-client"])
    }

    @Test("Signature attacks are refused", arguments: [JWSAlgorithm.rs256, .es256])
    func signatureAttacks(algorithm: JWSAlgorithm) async throws {
        #expect(try await signInError(algorithm: algorithm) { $0.signing = .corruptSignature }.0?.code == .invalidSignature)
        #expect(try await signInError(algorithm: algorithm) { $0.signing = .unsigned }.0?.code == .unsupportedAlgorithm)
        #expect(try await signInError(algorithm: algorithm) { $0.signing = .hmacWithRSAPublicKey }.0?.code == .unsupportedAlgorithm)
        #expect(try await signInError(algorithm: algorithm) { $0.idTokenHeaderOverrides["crit"] = ["exp"] }.0?.code == .unsupportedCriticalHeader)
    }

    @Test("Metadata advertising none and HS256 does not widen the pinned algorithms")
    func metadataCannotWidenAlgorithms() async throws {
        let (error, _) = try await signInError {
            $0.discoveryOverrides["id_token_signing_alg_values_supported"] = ["none", "HS256", "RS256"]
            $0.signing = .unsigned
        }
        #expect(error?.code == .unsupportedAlgorithm)
    }

    @Test("Embedded keys (jwk, jku, x5u, x5c) are never used")
    func embeddedKeysIgnored() async throws {
        let fixture = Fixture()
        await fixture.idp.update {
            $0.idTokenHeaderOverrides["jku"] = "https://attacker.example/jwks"
            $0.idTokenHeaderOverrides["jwk"] = ["kty": "RSA", "n": "AQAB", "e": "AQAB"]
            $0.idTokenHeaderOverrides["x5u"] = "https://attacker.example/cert"
        }
        _ = try await fixture.signIn()
        let hosts = await fixture.transport.exchanges.compactMap { $0.request.url?.host }
        #expect(!hosts.contains("attacker.example"))
    }

    @Test("Key rotation: an unknown kid refetches the JWKS once, then succeeds")
    func keyRotation() async throws {
        let fixture = Fixture()
        _ = try await fixture.signIn()
        await fixture.idp.update {
            $0.signing = .rotatedKey
            $0.publishRotatedKeys = true
        }
        fixture.clock.advance(by: 61)
        _ = try await fixture.signIn()
        #expect(await fixture.transport.exchanges(pathSuffix: "/jwks").count == 2)
    }

    @Test("Unknown kids cannot force more than one JWKS refetch per interval")
    func refetchRateLimited() async throws {
        let fixture = Fixture()
        _ = try await fixture.signIn()
        await fixture.idp.update { $0.signing = .rotatedKey }  // rotated keys are not published
        for _ in 0..<5 {
            let error = await authError { _ = try await fixture.signIn() }
            #expect(error?.code == .unknownKeyID)
        }
        #expect(await fixture.transport.exchanges(pathSuffix: "/jwks").count == 2)
    }

    @Test("A missing kid is accepted with one matching key and refused with several")
    func missingKeyID() async throws {
        let fixture = Fixture()
        await fixture.idp.update { $0.idTokenHeaderRemovals = ["kid"] }
        _ = try await fixture.signIn()

        let (error, _) = try await signInError {
            $0.idTokenHeaderRemovals = ["kid"]
            $0.publishRotatedKeys = true
        }
        #expect(error?.code == .missingKeyID)
    }

    @Test("Malformed tokens are errors, never crashes")
    func malformedTokens() throws {
        let validator = IDTokenValidator(issuer: "https://idp.example.test", clientID: "test-client")
        let keySet = JSONWebKeySet(keys: [])
        let inputs = [
            "", "a", "a.b", "a.b.c.d", "!!!.e30.", "e30.e30.e30", "eyJhbGciOiJSUzI1NiJ9.@@@.AA",
            String(repeating: "A", count: 70_000) + ".e30.AA",
        ]
        for input in inputs {
            let error = #expect(throws: AuthError.self) {
                try validator.validate(input, keySet: keySet, nonce: nil, now: Date())
            }
            #expect([.malformedIDToken, .unsupportedAlgorithm].contains(error?.code))
        }
    }

    @Test("A missing ID token when openid was requested is missing_id_token")
    func missingIDToken() async throws {
        let (error, _) = try await signInError { $0.tokenResponseRemovals = ["id_token"] }
        #expect(error?.code == .missingIDToken)
    }

    @Test("Token responses: unknown token_type refused, any case of Bearer accepted, missing expires_in tolerated")
    func tokenResponseShapes() async throws {
        #expect(try await signInError { $0.tokenResponseOverrides["token_type"] = "mac" }.0?.code == .unsupportedTokenType)
        #expect(try await signInError { $0.tokenResponseReplacement = (200, Data("{not json".utf8), [:]) }.0?.code == .invalidResponse)
        #expect(try await signInError { $0.tokenResponseReplacement = (302, Data(), ["Location": "https://elsewhere.example/"]) }.0?.code == .unexpectedRedirect)

        let fixture = Fixture()
        await fixture.idp.update {
            $0.tokenResponseOverrides["token_type"] = "bEaReR"
            $0.tokenResponseRemovals = ["expires_in"]
        }
        let session = try await fixture.signIn()
        #expect(await session.credential.tokenType == "Bearer")
        #expect(await session.credential.expiresAt == nil)
    }

    @Test("Oversized responses are refused")
    func oversizedResponse() async throws {
        let fixture = Fixture(options: AuthClient.Options(maximumResponseSize: 4096))
        await fixture.idp.update { $0.tokenResponseOverrides["padding"] = .string(String(repeating: "x", count: 5000)) }
        let error = await authError { _ = try await fixture.signIn() }
        #expect(error?.code == .responseTooLarge)
        #expect(try await fixture.storedCount() == 0)
    }
}
