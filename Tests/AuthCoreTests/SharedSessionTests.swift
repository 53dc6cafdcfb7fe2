import AuthCore
import AuthFileStorage
import AuthTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("One account shared by many sessions and processes")
struct SharedSessionTests {
    private func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("auth-shared-\(UUID().uuidString)")
    }

    @Test("Two Session values for one account (restoreSession twice) share one refresh")
    func twoSessionsOneRefresh() async throws {
        let fixture = Fixture()
        _ = try await fixture.signIn()
        let first = try #require(try await fixture.client.restoreSession())
        let second = try #require(try await fixture.client.restoreSession())
        fixture.clock.advance(by: 3600)
        let tokens = try await withThrowingTaskGroup(of: Secret.self) { group in
            for index in 0..<200 { group.addTask { try await (index.isMultiple(of: 2) ? first : second).validAccessToken() } }
            return try await group.reduce(into: Set<Secret>()) { $0.insert($1) }
        }
        #expect(tokens.count == 1)
        #expect(await fixture.idp.tokenRequestsByGrant["refresh_token"] == 1)
        #expect(await fixture.idp.refreshTokenReuseDetected == false)
    }

    @Test("Another client that finds a newer token in storage uses it and sends nothing")
    func adoptsNewerStoredToken() async throws {
        let fixture = Fixture()
        let session = try await fixture.signIn()
        // A second "process": its own client over the same storage and identity provider.
        let other = AuthClient(provider: fixture.client.provider, storage: fixture.storage, transport: fixture.idp.transport, clock: fixture.clock)
        let stale = try #require(try await other.restoreSession())
        fixture.clock.advance(by: 3600)
        let refreshed = try await session.refresh()
        #expect(await fixture.idp.tokenRequestsByGrant["refresh_token"] == 1)
        // The stale session's token expired too; it re-reads storage and adopts the refreshed one.
        #expect(try await stale.validAccessToken() == refreshed.accessToken)
        #expect(await fixture.idp.tokenRequestsByGrant["refresh_token"] == 1)
        #expect(await fixture.idp.refreshTokenReuseDetected == false)
    }

    @Test("invalid_grant for an old token while storage holds a newer one keeps (and uses) the newer one")
    func invalidGrantKeepsNewerTokens() async throws {
        let fixture = Fixture()
        let session = try await fixture.signIn()
        let key = session.storageKey
        let original = await session.credential
        fixture.clock.advance(by: 3600)
        // While this refresh is at the provider, a process that does not share our lock writes newer tokens; then
        // the provider rejects the (now superseded) refresh token.
        let newer = Credential(
            providerID: original.providerID, issuer: original.issuer, clientID: original.clientID, subject: original.subject,
            accessToken: Secret("newer-access"), refreshToken: Secret("newer-refresh"),
            expiresAt: fixture.clock.now().addingTimeInterval(3600), updatedAt: fixture.clock.now()
        )
        await fixture.idp.update { $0.tokenResponseReplacement = (400, Data(#"{"error":"invalid_grant"}"#.utf8), [:]) }
        let interfering = InterferingStorage(fixture.storage, writing: newer, for: key)
        let client = AuthClient(provider: fixture.client.provider, storage: interfering, transport: fixture.idp.transport, clock: fixture.clock)
        let stale = try #require(try await client.restoreSession())
        let token = try await stale.validAccessToken()
        #expect(token == Secret("newer-access"))
        #expect(try await fixture.storage.credential(for: key)?.refreshToken == Secret("newer-refresh"))
        #expect(await stale.isSignedIn)
    }

    @Test("invalid_grant for the token still stored removes it (only then)")
    func invalidGrantRemovesRejected() async throws {
        let fixture = Fixture()
        let session = try await fixture.signIn()
        await fixture.idp.update { $0.tokenResponseReplacement = (400, Data(#"{"error":"invalid_grant"}"#.utf8), [:]) }
        let error = await authError { try await session.refresh() }
        #expect(error?.code == .invalidGrant)
        #expect(try await fixture.storedCount() == 0)
    }

    @Test("A lock held elsewhere past the timeout is storage_unavailable (retryable) and nothing is lost")
    func lockTimeout() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = try FileTokenStorage(directory: directory, lockTimeout: .milliseconds(300))
        let fixture = Fixture(storage: storage)
        let session = try await fixture.signIn()
        let before = await session.credential
        fixture.clock.advance(by: 3600)
        let holder = try LockHolder(storage.lockFileURL(for: session.storageKey))
        defer { holder.stop() }
        let error = await authError { _ = try await session.validAccessToken() }
        #expect(error?.code == .storageUnavailable)
        #expect(error?.isRetryable == true)
        #expect(error?.message.contains("lock") == true)
        #expect(try await storage.credential(for: session.storageKey) == before)
        #expect(await session.isSignedIn)
        #expect(await fixture.idp.tokenRequestsByGrant["refresh_token"] == nil)
    }

    @Test("A lock holder killed with SIGKILL does not wedge the others (the OS releases the lock)")
    func killedHolderReleases() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = try FileTokenStorage(directory: directory, lockTimeout: .seconds(30))
        let fixture = Fixture(storage: storage)
        let session = try await fixture.signIn()
        fixture.clock.advance(by: 3600)
        let holder = try LockHolder(storage.lockFileURL(for: session.storageKey))
        kill(holder.process.processIdentifier, SIGKILL)
        holder.process.waitUntilExit()
        let started = ContinuousClock.now
        // A wedged lock would make this wait the whole 30 s timeout and fail; a released one lets it through at once
        // (the bound leaves room for a loaded machine).
        _ = try await session.validAccessToken()
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(await fixture.idp.tokenRequestsByGrant["refresh_token"] == 1)
    }

    @Test("LockingTokenStorage: two wrappers over one lock directory exclude each other per account")
    func lockingStorageExcludes() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let shared = InMemoryTokenStorage()
        let first = LockingTokenStorage(shared, lockDirectory: directory)
        let second = LockingTokenStorage(shared, lockDirectory: directory, lockTimeout: .seconds(5))
        let key = StorageKey(providerID: "plain", issuer: "https://idp.example.test", clientID: "c", account: "a")
        let other = StorageKey(providerID: "plain", issuer: "https://idp.example.test", clientID: "c", account: "b")
        let order = OrderLog()
        let entered = Latch()
        let release = Latch()
        async let a: Void = first.withExclusiveAccess(to: key) {
            await order.append("a-in")
            await entered.signal()
            await release.wait()
            await order.append("a-out")
        }
        await entered.wait()
        // Another account is not blocked; the same account waits for the first section to end (and times out
        // when the wait is shorter than the section).
        try await second.withExclusiveAccess(to: other) { await order.append("other") }
        let quick = LockingTokenStorage(shared, lockDirectory: directory, lockTimeout: .milliseconds(100))
        let error = await authError { try await quick.withExclusiveAccess(to: key) {} }
        #expect(error?.code == .storageUnavailable)
        async let b: Void = second.withExclusiveAccess(to: key) { await order.append("b-in") }
        try await Task.sleep(for: .milliseconds(100))
        await release.signal()
        try await a
        try await b
        #expect(await order.entries == ["a-in", "other", "a-out", "b-in"])
    }

    @Test("A refresh whose answer was lost is not sent again, and the error says why")
    func lostResponseNotReplayed() async throws {
        let fixture = Fixture()
        let session = try await fixture.signIn()
        let offline = FlakyTransport(fixture.idp.transport)
        let client = AuthClient(provider: fixture.client.provider, storage: fixture.storage, transport: offline, clock: fixture.clock)
        let restored = try #require(try await client.restoreSession())
        _ = try await client.metadata()  // discovery succeeded; only the token request's answer is lost
        await offline.setFailing(true)
        let error = await authError { try await restored.refresh() }
        #expect(error?.code == .network)
        #expect(error?.message.contains("was not sent again") == true)
        #expect(try await fixture.storedCount() == 1)
        _ = session
    }

    @Test("A 400 without an OAuth error on refresh explains the likely reuse")
    func unexplained400() async throws {
        let fixture = Fixture()
        let session = try await fixture.signIn()
        await fixture.idp.update { $0.tokenResponseReplacement = (400, Data("Bad Request".utf8), ["Content-Type": "text/plain"]) }
        let error = await authError { try await session.refresh() }
        #expect(error?.code == .httpError)
        #expect(error?.httpStatus == 400)
        #expect(error?.message.contains("already used") == true)
        #expect(try await fixture.storedCount() == 1)
    }
}

/// A one-shot signal between tasks.
private actor Latch {
    private var signalled = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func signal() {
        signalled = true
        waiters.forEach { $0.resume() }
        waiters.removeAll()
    }

    func wait() async {
        if signalled { return }
        await withCheckedContinuation { waiters.append($0) }
    }
}

private actor OrderLog {
    var entries: [String] = []
    func append(_ entry: String) { entries.append(entry) }
}

/// Storage that writes `newer` under `key` right after the engine reads inside its exclusive section — as a
/// process that does not take the lock would, mid-refresh.
private actor InterferingStorage: TokenStorage {
    private let base: any TokenStorage
    private let newer: Credential
    private let key: StorageKey
    private var reads = 0

    init(_ base: any TokenStorage, writing newer: Credential, for key: StorageKey) {
        self.base = base
        self.newer = newer
        self.key = key
    }

    func credential(for key: StorageKey) async throws -> Credential? {
        let value = try await base.credential(for: key)
        reads += 1
        // Read 1: restoreSession. Read 2: the engine's re-read under the section; interfere after it.
        if reads == 2, key == self.key { try await base.store(newer, for: key) }
        return value
    }

    func store(_ credential: Credential, for key: StorageKey) async throws { try await base.store(credential, for: key) }
    func removeCredential(for key: StorageKey) async throws { try await base.removeCredential(for: key) }
    func storedKeys() async throws -> [StorageKey] { try await base.storedKeys() }
}

/// Another process holding a lock file with `flock` (Python's `fcntl`), until stopped or killed.
private final class LockHolder: Sendable {
    let process: Process

    init(_ url: URL) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import fcntl, sys, time; f = open(sys.argv[1], 'a'); fcntl.flock(f, fcntl.LOCK_EX); print('locked', flush=True); time.sleep(60)",
            url.path
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        // Wait until the lock is really held.
        _ = pipe.fileHandleForReading.readLine()
    }

    func stop() {
        if process.isRunning { process.terminate() }
    }
}

extension FileHandle {
    /// Reads up to the first newline (blocking; test helper only).
    fileprivate func readLine() -> String? {
        var bytes = Data()
        while let byte = try? read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { bytes.append(byte) }
        return String(data: bytes, encoding: .utf8)
    }
}
