import AuthCore
import AuthTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Nobody is signed out by a fault: a refresh that meets a broken network, a server in trouble or a garbled answer
/// keeps the stored tokens and says the failure is retryable; only the provider's refusal (`invalid_grant`) signs out,
/// and then says whether an earlier refresh answer was lost.
@Suite("Faults: only a definitive refusal signs out")
struct FaultToleranceTests {
    /// A signed-in session, the network its requests cross, and its stored credential.
    private func signedIn() async throws -> (Fixture, FaultTransport, Session, Credential) {
        var network: FaultTransport?
        let fixture = Fixture(network: { base in
            let faults = FaultTransport(base)
            network = faults
            return faults
        })
        let session = try await fixture.signIn()
        let stored = try #require(try await fixture.storage.credential(for: session.storageKey))
        return (fixture, try #require(network), session, stored)
    }

    /// The faults after which the server never carried the refresh out: the same refresh token works next time.
    static let unseen: [FaultTransport.Fault] = [
        .notSent(.networkConnectionLost), .notSent(.cannotConnectToHost), .notSent(.secureConnectionFailed), .notSent(.timedOut),
        .status(500, retryAfter: nil), .status(502, retryAfter: nil), .status(503, retryAfter: nil), .status(429, retryAfter: nil),
        .status(429, retryAfter: "120")
    ]

    @Test("A refresh the server never carried out keeps the credential, is retryable, and the next refresh succeeds", arguments: unseen)
    func unseenFaults(fault: FaultTransport.Fault) async throws {
        let (fixture, network, session, before) = try await signedIn()
        var events = await session.events().makeAsyncIterator()
        await network.inject(fault)

        let error = try #require(await authError { _ = try await session.refresh() })
        #expect(error.isRetryable, "\(fault): \(error)")
        #expect(error.code != .invalidGrant)
        let kept = try #require(try await fixture.storage.credential(for: session.storageKey), "\(fault) removed the credential")
        #expect(kept.accessToken == before.accessToken && kept.refreshToken == before.refreshToken && kept.idToken == before.idToken)
        if case .status = fault {
            // The server answered without carrying the refresh out, so the mark written before the request is withdrawn.
            // (A network failure cannot tell sent from not sent: its mark stays.)
            #expect(kept.refreshPendingSince == nil, "\(fault)")
        }
        #expect(await events.next()?.kind == .refreshFailed(error.code))

        if case .status(429, let retryAfter?) = fault {
            // The server asked for more than the engine waits on its own: the wait is the caller's, and nothing is sent
            // to that server before it ends.
            #expect(error.code == .rateLimited && error.retryAfter == .seconds(Int(retryAfter)!))
            let served = await network.served()
            #expect(await authError { _ = try await session.refresh() }?.code == .rateLimited)
            #expect(await network.served() == served)
            #expect(await events.next()?.kind == .refreshFailed(.rateLimited))
            fixture.clock.advance(by: 121)
        }
        let refreshed = try await session.refresh()
        #expect(refreshed.refreshToken != before.refreshToken)
        #expect(await events.next()?.kind == .refreshed)
    }

    /// The faults after which the server carried the refresh out (and rotated the token) while its answer was lost.
    static let lost: [FaultTransport.Fault] = [.answerLost(.networkConnectionLost), .answerLost(.timedOut), .truncated, .garbled, .cancelledInFlight]

    @Test(
        "A refresh whose answer was lost keeps the tokens and marks them; the server's refusal of their reuse signs out saying so",
        arguments: lost)
    func lostAnswers(fault: FaultTransport.Fault) async throws {
        let (fixture, network, session, before) = try await signedIn()
        var events = await session.events().makeAsyncIterator()
        await network.inject(fault)

        let error = try #require(await authError { _ = try await session.refresh() })
        if case .cancelledInFlight = fault {
            #expect(error.code == .userCancelled)
        } else {
            #expect(error.isRetryable, "\(fault): \(error)")
        }
        let kept = try #require(try await fixture.storage.credential(for: session.storageKey), "\(fault) removed the credential")
        #expect(kept.accessToken == before.accessToken && kept.refreshToken == before.refreshToken)
        #expect(kept.refreshPendingSince == fixture.clock.now())
        #expect(await events.next()?.kind == .refreshFailed(error.code))
        #expect(await network.served() == 2)  // the code exchange and the refresh the server carried out

        // The test provider rotates refresh tokens and treats a reuse as theft (no grace period), as
        // django-oauth-toolkit does with REFRESH_TOKEN_REUSE_PROTECTION: the same refresh token is presented again.
        let refusal = try #require(await authError { _ = try await session.refresh() })
        #expect(refusal.code == .invalidGrant)
        #expect(refusal.message.contains("refresh answer was lost"))
        #expect(try await fixture.storage.credential(for: session.storageKey) == nil)
        #expect(await events.next()?.kind == .signedOut(.refreshAnswerLost))
    }

    @Test("A refusal with no lost answer before it signs out as a rejected refresh token")
    func plainRefusal() async throws {
        let (fixture, network, session, _) = try await signedIn()
        var events = await session.events().makeAsyncIterator()
        await network.inject(.refusal("invalid_grant"))

        let refusal = try #require(await authError { _ = try await session.refresh() })
        #expect(refusal.code == .invalidGrant && !refusal.message.contains("lost"))
        #expect(try await fixture.storage.credential(for: session.storageKey) == nil)
        #expect(await events.next()?.kind == .signedOut(.refreshTokenRejected))
    }

    @Test("A 503 with a short Retry-After is waited out on the injected clock and retried once")
    func shortRetryAfterWaited() async throws {
        let (fixture, network, session, before) = try await signedIn()
        await network.inject(.status(503, retryAfter: "2"))

        let refresh = Task { try await session.refresh() }
        try await waitForSleepers(1, on: fixture.clock)
        #expect(await network.served() == 1)  // only the code exchange: the 503 was not carried out, nothing retried yet
        fixture.clock.advance(by: 2)
        let refreshed = try await refresh.value
        #expect(refreshed.refreshToken != before.refreshToken)
        #expect(await network.served() == 2)
    }

    @Test("A Retry-After as an HTTP date is waited out until that date")
    func httpDateRetryAfter() async throws {
        let (fixture, network, session, _) = try await signedIn()
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        await network.inject(.status(429, retryAfter: formatter.string(from: fixture.clock.now().addingTimeInterval(10))))

        let refresh = Task { try await session.refresh() }
        try await waitForSleepers(1, on: fixture.clock)
        fixture.clock.advance(by: 9)
        #expect(fixture.clock.sleeperCount == 1)
        fixture.clock.advance(by: 1)
        _ = try await refresh.value
    }

    @Test("Concurrent requests share one Retry-After wait: ten callers, one wait of 5 s")
    func sharedWait() async throws {
        let (fixture, network, session, _) = try await signedIn()
        await network.inject(.status(429, retryAfter: "5"), path: "/userinfo")

        let first = Task { try await session.userInfo() }
        try await waitForSleepers(1, on: fixture.clock)
        let others = (0..<9).map { _ in Task { try await session.userInfo() } }
        try await waitForSleepers(10, on: fixture.clock)
        #expect(await network.served("/userinfo") == 0)  // nobody sent to the server inside its wait
        fixture.clock.advance(by: 5)
        for task in [first] + others { _ = try await task.value }
        #expect(await network.served("/userinfo") == 10)
    }

    @Test("A Retry-After longer than the engine's cap is the caller's: rate_limited at once, the hold capped at 5 minutes")
    func hostileRetryAfterCapped() async throws {
        let (fixture, network, session, _) = try await signedIn()
        await network.inject(.status(429, retryAfter: "99999999999"))

        let error = try #require(await authError { _ = try await session.refresh() })
        #expect(error.code == .rateLimited && error.isRetryable)
        #expect(error.retryAfter == .seconds(300))
        #expect(fixture.clock.sleeperCount == 0)
        fixture.clock.advance(by: 301)
        _ = try await session.refresh()
        #expect(await network.served() == 2)
    }

    @Test("Withdrawing a refresh mark never replaces what another process stored meanwhile under the same refresh token")
    func withdrawalKeepsAnotherProcessWrite() async throws {
        let (fixture, network, session, before) = try await signedIn()
        // Another process that does not share the lock, with a provider that keeps refresh tokens: it marks the same
        // credential for its own refresh and stores a newer access token while this process's request is in flight.
        var other = before
        other.accessToken = Secret("access-token-stored-by-another-process")
        other.refreshPendingSince = fixture.clock.now().addingTimeInterval(-1)
        let storage = fixture.storage
        let key = session.storageKey
        await network.whenNextSent { [other] in try? await storage.store(other, for: key) }
        await network.inject(.refusal("invalid_request"))

        let error = try #require(await authError { _ = try await session.refresh() })
        #expect(error.code != .invalidGrant)
        let stored = try #require(try await fixture.storage.credential(for: key))
        #expect(stored.accessToken == other.accessToken)
        #expect(stored.refreshPendingSince == other.refreshPendingSince)
    }

    /// Waits (in real time, briefly) until `count` tasks are suspended on the manual clock.
    private func waitForSleepers(_ count: Int, on clock: ManualClock) async throws {
        for _ in 0..<2000 where clock.sleeperCount < count { try await Task.sleep(for: .milliseconds(5)) }
        #expect(clock.sleeperCount == count)
    }
}
