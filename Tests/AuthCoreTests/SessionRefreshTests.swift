import AuthCore
import AuthTesting
import Foundation
import Testing

@Suite("Session refresh")
struct SessionRefreshTests {
    @Test("A fresh token is returned without a refresh")
    func noRefreshWhenValid() async throws {
        let fixture = Fixture()
        let session = try await fixture.signIn()
        let token = try await session.validAccessToken()
        #expect(token == (await session.credential.accessToken))
        #expect(await fixture.idp.tokenRequestsByGrant["refresh_token"] == nil)
    }

    @Test("10,000 concurrent callers on an expired token share exactly one refresh request")
    func singleFlight() async throws {
        let fixture = Fixture()
        let session = try await fixture.signIn()
        let before = await session.credential
        fixture.clock.advance(by: 3600)

        let tokens = try await withThrowingTaskGroup(of: Secret.self) { group in
            for _ in 0..<10_000 { group.addTask { try await session.validAccessToken() } }
            return try await group.reduce(into: [Secret]()) { $0.append($1) }
        }
        #expect(tokens.count == 10_000)
        #expect(Set(tokens).count == 1)
        #expect(tokens[0] != before.accessToken)
        #expect(await fixture.idp.tokenRequestsByGrant["refresh_token"] == 1)
        #expect(await fixture.idp.refreshTokenReuseDetected == false)
        // The rotated refresh token was stored.
        let stored = try await fixture.storage.credential(for: before.storageKey)
        #expect(stored?.refreshToken != before.refreshToken)
        #expect(stored?.accessToken == tokens[0])
    }

    @Test("invalid_grant on refresh signs the session out, clears storage and emits signedOut")
    func invalidGrantSignsOut() async throws {
        let fixture = Fixture()
        let session = try await fixture.signIn()
        let events = await session.events()
        await fixture.idp.update {
            $0.tokenResponseReplacement = (400, Data(#"{"error":"invalid_grant"}"#.utf8), [:])
        }
        let error = await authError { try await session.refresh() }
        #expect(error?.code == .invalidGrant)
        #expect(try await fixture.storedCount() == 0)
        #expect(await session.isSignedIn == false)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next()?.kind == .signedOut(.refreshTokenRejected))
        // No loop: further calls fail at once without another request.
        let again = await authError { _ = try await session.validAccessToken() }
        #expect(again?.code == .notSignedIn)
        #expect(await fixture.idp.tokenRequestsByGrant["refresh_token"] == 1)
    }

    @Test("A transient failure (5xx or network) keeps the tokens, is retryable, and emits refreshFailed")
    func transientFailureKeepsTokens() async throws {
        let fixture = Fixture()
        let session = try await fixture.signIn()
        let events = await session.events()
        await fixture.idp.update { $0.tokenResponseReplacement = (502, Data(), [:]) }
        let error = await authError { try await session.refresh() }
        #expect(error?.code == .serverError)
        #expect(error?.isRetryable == true)
        #expect(try await fixture.storedCount() == 1)
        #expect(await session.isSignedIn)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next()?.kind == .refreshFailed(.serverError))

        // A network failure: the transport throws.
        let offline = FlakyTransport(fixture.idp.transport)
        let client = AuthClient(provider: fixture.client.provider, storage: fixture.storage, transport: offline, clock: fixture.clock)
        await fixture.idp.update { $0.tokenResponseReplacement = nil }
        let restored = try #require(try await client.restoreSession())
        await offline.setFailing(true)
        let networkError = await authError { try await restored.refresh() }
        #expect(networkError?.code == .network)
        #expect(networkError?.isRetryable == true)
        #expect(try await fixture.storedCount() == 1)
        // Back online, the kept refresh token works.
        await offline.setFailing(false)
        try await restored.refresh()
    }
}
