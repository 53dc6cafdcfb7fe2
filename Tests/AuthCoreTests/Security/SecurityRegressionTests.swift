import AuthCore
import AuthTesting
import Foundation
import Testing

/// Security checks that need more than one sign-in or a direct call, so they are not in `HostileScenario.all`.
/// Each test's id is listed in SECURITY.md (checked by `HostileScenarioTests`).
@Suite("Security regressions beyond the scenario catalog")
struct SecurityRegressionTests {
    static let documentedIDs = [
        "oauth-replayed-state", "oauth-unsolicited-response", "oauth-expired-state",
        "oidcc-client-test-kid-rotation", "oauth-jwks-refetch-rate-limited", "oauth-jwks-failure-keeps-cache",
        "oauth-malformed-jws", "oidcc-refresh-iss-changed", "oidcc-refresh-sub-changed", "oidcc-userinfo-sub-mismatch",
        "oauth-refresh-keeps-refresh-token", "oauth-error-description-plain-text"
    ]

    @Test("oauth-error-description-plain-text: an error description is reduced to printable text, no token call")
    func errorDescriptionPlainText() async throws {
        let fixture = Fixture()
        await fixture.idp.update { $0.authorizationError = ("access_denied", "The user said <b>no</b>\u{7}\u{1b}[31m") }
        let error = await authError { _ = try await fixture.signIn() }
        #expect(error?.code == .authorizationFailed)
        #expect(error?.oauthError == "access_denied")
        #expect(error?.message == "The provider refused the sign-in with 'access_denied': The user said <b>no</b>[31m.")
        #expect(await fixture.transport.exchanges(pathSuffix: "/token").isEmpty)
        #expect(try await fixture.storedCount() == 0)
    }

    @Test("oauth-replayed-state: a second use of a redirect fails with state_mismatch")
    func replayedState() async throws {
        let fixture = Fixture()
        let (_, redirect) = try await fixture.redirect()
        _ = try await fixture.client.completeSignIn(redirect: redirect)
        let error = await authError { _ = try await fixture.client.completeSignIn(redirect: redirect) }
        #expect(error?.code == .stateMismatch)
        #expect(await fixture.transport.exchanges(pathSuffix: "/token").count == 1)
        #expect(try await fixture.storedCount() == 1)
    }

    @Test("oauth-unsolicited-response: a redirect when no sign-in is pending fails with state_mismatch")
    func unsolicitedResponse() async throws {
        let fixture = Fixture()
        let forged = TestIdentityProvider.defaultRedirectURI.appendingQuery([
            ("code", "stolen-code"), ("state", "whatever"), ("iss", TestIdentityProvider.defaultIssuer.absoluteString)
        ])
        let error = await authError { _ = try await fixture.client.completeSignIn(redirect: forged) }
        #expect(error?.code == .stateMismatch)
        #expect(await fixture.transport.exchanges(pathSuffix: "/token").isEmpty)
        #expect(try await fixture.storedCount() == 0)
    }

    @Test("oauth-expired-state: a redirect after the request's lifetime fails")
    func expiredState() async throws {
        let fixture = Fixture(options: AuthClient.Options(authorizationLifetime: 120))
        let (_, redirect) = try await fixture.redirect()
        fixture.clock.advance(by: 121)
        let error = await authError { _ = try await fixture.client.completeSignIn(redirect: redirect) }
        #expect(error?.code == .stateMismatch)
        #expect(try await fixture.storedCount() == 0)
    }

    @Test("oidcc-client-test-kid-rotation: an unknown kid refetches the JWKS once, then succeeds")
    func keyRotation() async throws {
        let fixture = Fixture()
        _ = try await fixture.signIn()
        await fixture.idp.update {
            $0.signing = .rotatedKey
            $0.publishRotatedKeys = true
        }
        _ = try await fixture.signIn()
        #expect(await fixture.transport.exchanges(pathSuffix: "/jwks").count == 2)
    }

    @Test("oauth-jwks-refetch-rate-limited: forged kids cannot force more than one refetch per interval")
    func refetchRateLimited() async throws {
        let fixture = Fixture()
        _ = try await fixture.signIn()
        await fixture.idp.update { $0.signing = .rotatedKey }  // the rotated keys are not published
        for _ in 0..<5 {
            let error = await authError { _ = try await fixture.signIn() }
            #expect(error?.code == .unknownKeyID)
        }
        #expect(await fixture.transport.exchanges(pathSuffix: "/jwks").count == 2)
        // After the interval, one more refetch is allowed.
        fixture.clock.advance(by: 61)
        _ = await authError { _ = try await fixture.signIn() }
        #expect(await fixture.transport.exchanges(pathSuffix: "/jwks").count == 3)
        #expect(try await fixture.storedCount() == 1)
    }

    @Test("oauth-jwks-failure-keeps-cache: a failing JWKS refetch keeps the cached keys")
    func failingRefetchKeepsCache() async throws {
        let fixture = Fixture()
        _ = try await fixture.signIn()
        await fixture.idp.update {
            $0.jwksFailureStatus = 503
            $0.signing = .rotatedKey
        }
        let error = await authError { _ = try await fixture.signIn() }
        #expect(error?.code == .unknownKeyID)
        await fixture.idp.update { $0.signing = .honest }
        _ = try await fixture.signIn()  // still validated with the cached keys
        #expect(await fixture.transport.exchanges(pathSuffix: "/jwks").count == 2)
    }

    @Test("oauth-malformed-jws: malformed tokens are errors, never crashes")
    func malformedTokens() throws {
        let validator = IDTokenValidator(issuer: "https://idp.example.test", clientID: "test-client")
        let keySet = JSONWebKeySet(keys: [])
        let inputs = [
            "", "a", "a.b", "a.b.c.d", "a.b.c.d.e", "!!!.e30.", "e30.e30.e30", "eyJhbGciOiJSUzI1NiJ9.@@@.AA",
            "W10.e30.AA", "eyJhbGciOjF9.e30.AA", String(repeating: "A", count: 70_000) + ".e30.AA"
        ]
        for input in inputs {
            let error = #expect(throws: AuthError.self) {
                try validator.validate(input, keySet: keySet, nonce: nil, now: Date())
            }
            #expect([.malformedIDToken, .unsupportedAlgorithm].contains(error?.code), "input \(input.prefix(20))")
        }
    }

    @Test("oidcc-refresh-iss-changed: a refreshed ID token from another issuer is rejected, tokens kept")
    func refreshIssuerChanged() async throws {
        let fixture = Fixture()
        let session = try await fixture.signIn()
        let before = await session.credential
        await fixture.idp.update { $0.idTokenClaimOverrides["iss"] = "https://impostor.example.test" }
        let error = await authError { try await session.refresh() }
        #expect(error?.code == .invalidIssuer)
        #expect(try await fixture.storage.credential(for: before.storageKey) == before)
    }

    @Test("oidcc-refresh-sub-changed: a refreshed ID token for another subject is rejected, tokens kept")
    func refreshSubjectChanged() async throws {
        let fixture = Fixture()
        let session = try await fixture.signIn()
        let before = await session.credential
        await fixture.idp.update { $0.idTokenClaimOverrides["sub"] = "someone-else" }
        let error = await authError { try await session.refresh() }
        #expect(error?.code == .subjectMismatch)
        #expect(try await fixture.storage.credential(for: before.storageKey) == before)
    }

    @Test("oidcc-userinfo-sub-mismatch: user info for another subject is rejected")
    func userInfoSubjectMismatch() async throws {
        let fixture = Fixture()
        let session = try await fixture.signIn()
        await fixture.idp.update { $0.userInfoOverrides["sub"] = "someone-else" }
        let error = await authError { _ = try await session.userInfo() }
        #expect(error?.code == .subjectMismatch)
        let request = try #require(await fixture.transport.exchanges(pathSuffix: "/userinfo").first?.request)
        #expect(request.url?.query == nil)
        #expect(request.httpBody == nil)
    }

    @Test("oauth-refresh-keeps-refresh-token: a refresh response without a refresh token keeps the old one")
    func refreshKeepsRefreshToken() async throws {
        let fixture = Fixture()
        await fixture.idp.update { $0.omitsRefreshTokenOnRefresh = true }
        let session = try await fixture.signIn()
        let before = await session.credential
        try await session.refresh()
        #expect(await session.credential.refreshToken == before.refreshToken)
        #expect(try await fixture.storage.credential(for: before.storageKey)?.refreshToken == before.refreshToken)
    }
}
