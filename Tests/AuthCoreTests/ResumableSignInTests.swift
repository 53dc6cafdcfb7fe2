import AuthCore
import AuthTesting
import Foundation
import Testing

@Suite("a sign-in started by one instance completes on another (PendingSignIn)")
struct ResumableSignInTests {
    /// A second client (another instance of the same web app) over the same provider and storage.
    private func secondInstance(of fixture: Fixture) -> AuthClient {
        AuthClient(
            provider: fixture.client.provider, storage: fixture.storage, transport: fixture.transport,
            logger: fixture.logger, clock: fixture.clock
        )
    }

    @Test("Started on A, completed on B through an encoded PendingSignIn: tokens validated and stored")
    func completesOnAnotherInstance() async throws {
        let fixture = Fixture()
        let (request, pending) = try await fixture.client.prepareResumableSignIn(options: SignInOptions(maxAge: 600))
        #expect(request.state == pending.state)
        let stored = try JSONEncoder().encode(pending)
        let redirect = try await fixture.agent.authorize(request)

        let instanceB = secondInstance(of: fixture)
        let resumed = try JSONDecoder().decode(PendingSignIn.self, from: stored)
        let session = try await instanceB.completeSignIn(redirect: redirect, resuming: resumed)
        #expect(await session.subject == "user-1234")
        #expect(try await fixture.storedCount() == 1)
        // Instance A never remembered it: its own completion path knows nothing of this state.
        let error = await authError { _ = try await fixture.client.completeSignIn(redirect: redirect) }
        #expect(error?.code == .stateMismatch)
    }

    @Test("The redirect of another sign-in, an expired one, or another provider's is refused; nothing is stored")
    func refusals() async throws {
        let fixture = Fixture()
        let (request, pending) = try await fixture.client.prepareResumableSignIn()
        let (otherRequest, _) = try await fixture.client.prepareResumableSignIn()
        let instanceB = secondInstance(of: fixture)

        let otherRedirect = try await fixture.agent.authorize(otherRequest)
        #expect(await authError { _ = try await instanceB.completeSignIn(redirect: otherRedirect, resuming: pending) }?.code == .stateMismatch)

        let redirect = try await fixture.agent.authorize(request)
        fixture.clock.advance(by: 601)
        #expect(await authError { _ = try await instanceB.completeSignIn(redirect: redirect, resuming: pending) }?.code == .stateMismatch)
        #expect(try await fixture.storedCount() == 0)
        #expect(await fixture.transport.exchanges(pathSuffix: "/token").isEmpty, "no code was sent anywhere")
    }

    @Test("Without an ID token, each sign-in's accountName keeps its tokens apart; without one they share 'default'")
    func accountNameSeparatesSubjectlessSignIns() async throws {
        let fixture = Fixture(scopes: ["email", "offline_access"])
        var first = SignInOptions()
        first.accountName = "web-one"
        var second = SignInOptions()
        second.accountName = "web-two"
        let one = try await fixture.signIn(first)
        let two = try await fixture.signIn(second)
        #expect(await one.subject == nil)
        #expect(one.storageKey.account == "web-one" && two.storageKey.account == "web-two")
        #expect(try await fixture.storedCount() == 2)
        #expect(try await fixture.client.restoreSession(account: "web-one")?.credential.accessToken == one.credential.accessToken)
        let plain = try await fixture.signIn()
        #expect(plain.storageKey.account == "default")

        // Read back by key, with one storage read; another client's key finds nothing.
        let restored = try #require(try await fixture.client.restoreSession(key: two.storageKey))
        #expect(await restored.credential.accessToken == two.credential.accessToken)
        var foreign = two.storageKey
        foreign.clientID = "another-client"
        #expect(try await fixture.client.restoreSession(key: foreign) == nil)
    }

    @Test("A PendingSignIn prints without its verifier or nonce")
    func redacted() async throws {
        let fixture = Fixture()
        let (request, pending) = try await fixture.client.prepareResumableSignIn()
        let encoded = String(decoding: try JSONEncoder().encode(pending), as: UTF8.self)
        let nonce = try #require(request.url.queryParameters["nonce"])
        #expect(encoded.contains(nonce), "the store needs it")
        #expect(!"\(pending)".contains(nonce) && !"\(pending)".contains(pending.state))
    }
}
