import AuthCore
import AuthTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Session operations: authorized requests, sign-out, user info, introspection, accounts")
struct SessionOperationsTests {
    private func resourceRequest(_ fixture: Fixture) -> CapturedRequest {
        var request = CapturedRequest(url: fixture.idp.endpoint("/api/resource"))
        request.httpMethod = "GET"
        return request
    }

    @Test("send adds the bearer token")
    func sendAddsBearer() async throws {
        let fixture = Fixture()
        let session = try await fixture.signIn()
        let (_, response) = try await session.send(resourceRequest(fixture))
        #expect(response.statusCode == 200)
        let sent = try #require(await fixture.transport.exchanges(pathSuffix: "/api/resource").first)
        #expect(sent.request.value(forHTTPHeaderField: "Authorization") == "Bearer \(await session.credential.accessToken.reveal())")
    }

    @Test("1,000 concurrent requests hitting 401 share one refresh and each is retried once")
    func concurrent401() async throws {
        let fixture = Fixture()
        let session = try await fixture.signIn()
        await fixture.idp.revokeAccessTokens()
        let request = resourceRequest(fixture)

        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<1000 { group.addTask { try await session.send(request).1.statusCode } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.count == 1000)
        #expect(statuses.allSatisfy { $0 == 200 })
        #expect(await fixture.idp.tokenRequestsByGrant["refresh_token"] == 1)
        #expect(await fixture.idp.requestCounts["/api/resource"] == 2000)
        #expect(await fixture.idp.refreshTokenReuseDetected == false)
    }

    @Test("A second 401 after the refresh is returned, not retried again (no loop)")
    func noRetryLoop() async throws {
        let fixture = Fixture()
        let session = try await fixture.signIn()
        await fixture.idp.update {
            $0.tokenResponseOverrides["access_token"] = "not-a-live-token"
            $0.idTokenClaimRemovals = ["at_hash"]
        }
        await fixture.idp.revokeAccessTokens()
        let (_, response) = try await session.send(resourceRequest(fixture))
        #expect(response.statusCode == 401)
        #expect(await fixture.idp.requestCounts["/api/resource"] == 2)
        #expect(await fixture.idp.tokenRequestsByGrant["refresh_token"] == 1)
    }

    @Test("Sign-out revokes the refresh token, then the access token, and clears storage")
    func signOutRevokesInOrder() async throws {
        let fixture = Fixture()
        let session = try await fixture.signIn()
        let credential = await session.credential
        let events = await session.events()
        let report = try await session.signOut()

        #expect(report.revokedRefreshToken && report.revokedAccessToken && report.revocationError == nil)
        let revocations = await fixture.transport.exchanges(pathSuffix: "/revoke").map(\.formParameters)
        #expect(revocations.map { $0["token_type_hint"] } == ["refresh_token", "access_token"])
        #expect(revocations.map { $0["token"] } == [credential.refreshToken?.reveal(), credential.accessToken.reveal()])
        #expect(revocations.allSatisfy { $0["client_id"] == TestIdentityProvider.defaultClientID })
        #expect(try await fixture.storedCount() == 0)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next()?.kind == .signedOut(.requested))
        // The provider really revoked the grant.
        let introspection = try await fixture.client.introspect(credential.accessToken)
        #expect(introspection.isActive == false)
    }

    @Test("Local data is cleared even when revocation fails")
    func signOutWhenRevocationFails() async throws {
        let fixture = Fixture()
        let session = try await fixture.signIn()
        await fixture.idp.update { $0.revocationFailureStatus = 503 }
        let report = try await session.signOut()
        #expect(report.revocationError?.code == .serverError)
        #expect(!report.revokedRefreshToken)
        #expect(try await fixture.storedCount() == 0)
        #expect(await session.isSignedIn == false)
    }

    @Test("The end-session URL carries id_token_hint, client_id, post_logout_redirect_uri and state")
    func endSessionURL() async throws {
        let fixture = Fixture()
        let session = try await fixture.signIn()
        let url = try await session.endSessionURL(postLogoutRedirectURI: URL(string: "com.example.app:/logged-out"), state: "xyz")
        #expect(url.absoluteString.hasPrefix("https://idp.example.test/logout?"))
        let query = url.queryParameters
        #expect(query["id_token_hint"] == (await session.credential.idToken?.reveal()))
        #expect(query["client_id"] == TestIdentityProvider.defaultClientID)
        #expect(query["post_logout_redirect_uri"] == "com.example.app:/logged-out")
        #expect(query["state"] == "xyz")
    }

    @Test("User info is returned when its sub matches and rejected when it does not")
    func userInfoSubjectCheck() async throws {
        let fixture = Fixture()
        let session = try await fixture.signIn()
        let info = try await session.userInfo()
        #expect(info.subject == "user-1234")
        #expect(info["email"]?.stringValue == "alice@example.com")
        let sent = try #require(await fixture.transport.exchanges(pathSuffix: "/userinfo").first)
        #expect(sent.request.url?.query == nil)  // the token travels only in the header
        #expect(sent.request.value(forHTTPHeaderField: "Authorization")?.hasPrefix("Bearer ") == true)

        await fixture.idp.update { $0.userInfoOverrides["sub"] = "someone-else" }
        let error = await authError { _ = try await session.userInfo() }
        #expect(error?.code == .subjectMismatch)
    }

    @Test("Introspection reports an active access token")
    func introspection() async throws {
        let fixture = Fixture()
        let session = try await fixture.signIn()
        let result = try await session.introspect()
        #expect(result.isActive)
        #expect(result.subject == "user-1234")
        #expect(result.clientID == TestIdentityProvider.defaultClientID)
    }

    @Test("Several accounts are stored side by side, listed, and switched between")
    func multipleAccounts() async throws {
        let fixture = Fixture()
        let alice = try await fixture.signIn()
        fixture.clock.advance(by: 10)
        await fixture.idp.setUser(.init(subject: "user-5678", claims: ["email": "bob@example.com"]))
        let bob = try await fixture.signIn()

        let accounts = try await fixture.client.accounts()
        #expect(accounts.map(\.subject) == ["user-5678", "user-1234"])
        #expect(alice.storageKey != bob.storageKey)
        let switched = try #require(try await fixture.client.restoreSession(account: "user-1234"))
        #expect(await switched.idTokenClaims?["email"]?.stringValue == "alice@example.com")
        let latest = try #require(try await fixture.client.restoreSession())
        #expect(await latest.subject == "user-5678")

        try await bob.signOut(revokingTokens: false)
        #expect(try await fixture.client.accounts().map(\.subject) == ["user-1234"])
    }

    @Test("Client-wide events report sign-ins and refreshes")
    func clientEvents() async throws {
        let fixture = Fixture()
        let events = await fixture.client.events()
        let session = try await fixture.signIn()
        try await session.refresh()
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == AuthEvent(.signedIn, account: session.storageKey))
        #expect(await iterator.next() == AuthEvent(.refreshed, account: session.storageKey))
    }
}
