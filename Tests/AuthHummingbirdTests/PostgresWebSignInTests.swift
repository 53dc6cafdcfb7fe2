#if PostgresStorage && HummingbirdSignIn
    import AuthCore
    import AuthHummingbird
    import AuthPostgres
    import AuthWebSignIn
    import AuthTesting
    import Crypto
    import Foundation
    import Hummingbird
    import HummingbirdTesting
    import Logging
    import PostgresNIO
    import Testing

    /// PostgreSQL from `Scripts/services/postgres.sh` (the test command starts it); without `AUTH_PG_PORT` the suite is skipped,
    /// unless `AUTH_PG_REQUIRED=1` (the test command) makes that a failure.
    private enum Database {
        static let environment = ProcessInfo.processInfo.environment
        static let configured = environment["AUTH_PG_PORT"] != nil
        static let required = environment["AUTH_PG_REQUIRED"] == "1"

        static func client(maximumConnections: Int? = nil) -> PostgresClient {
            var configuration = PostgresClient.Configuration(
                host: environment["AUTH_PG_HOST"] ?? "127.0.0.1", port: Int(environment["AUTH_PG_PORT"] ?? "") ?? 55432,
                username: environment["AUTH_PG_USER"] ?? "auth", password: environment["AUTH_PG_PASSWORD"],
                database: environment["AUTH_PG_DATABASE"] ?? "auth", tls: .disable
            )
            if let maximumConnections { configuration.options.maximumConnections = maximumConnections }
            return PostgresClient(configuration: configuration)
        }

        /// Runs `body` with a store over a pool of `maximumConnections`, its statements and lock waits bounded as given.
        static func withSmallPool(
            maximumConnections: Int, statementTimeout: Duration = .seconds(5), lockWait: Duration = .seconds(10),
            _ body: (PostgresWebSessionStore, PostgresClient) async throws -> Void
        ) async throws {
            let sql = client(maximumConnections: maximumConnections)
            let run = Task { await sql.run() }
            defer { run.cancel() }
            let store = try PostgresWebSessionStore(
                client: sql, encryptionKey: Data(repeating: 1, count: 32), logger: Logger(label: "test"),
                statementTimeout: statementTimeout, lockWait: lockWait
            )
            try await store.prepare()
            try await sql.query("DELETE FROM auth_locks")
            try await body(store, sql)
        }

        /// `body`'s result, or `nil` when it has not finished after `limit` (a hang fails the test instead of the run).
        static func within<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T? {
            try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask { try await body() }
                group.addTask {
                    try await Task.sleep(for: limit)
                    return nil
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
        }

        /// Runs `body` with two stores (two instances) over the same database, each with its own connection pool.
        static func withTwoInstances(_ body: (PostgresWebSessionStore, PostgresWebSessionStore, PostgresClient) async throws -> Void) async throws {
            let (clientA, clientB) = (client(), client())
            let runA = Task { await clientA.run() }
            let runB = Task { await clientB.run() }
            defer {
                runA.cancel()
                runB.cancel()
            }
            let key = Data(SHA256.hash(data: Data("test key".utf8)))
            let storeA = try PostgresWebSessionStore(client: clientA, encryptionKey: key)
            let storeB = try PostgresWebSessionStore(client: clientB, encryptionKey: key)
            // From an empty database, both instances creating the tables at once (as two instances starting together do).
            try await clientA.query("DROP TABLE IF EXISTS auth_pending_sign_ins, auth_sessions, auth_credentials, auth_locks, auth_used_nonces, auth_names")
            async let preparedA: Void = storeA.prepare()
            async let preparedB: Void = storeB.prepare()
            _ = try await (preparedA, preparedB)
            try await body(storeA, storeB, clientA)
        }
    }

    @Suite("web sign-in across instances with PostgreSQL (PostgresWebSessionStore)", .serialized, .enabled(if: Database.configured || Database.required))
    struct PostgresWebSignInTests {
        @Test(
            "Sessions found by index across instances: a logout's subject or sid hash removes only its sessions; the oldest beyond a cap go first; a name kept on A is read on B; credentials without a session are swept once settled"
        )
        func indexedSessions() async throws {
            try await Database.withTwoInstances { storeA, storeB, sql in
                let now = Date()
                func record(_ subject: String, _ index: Int, sid: String? = nil) -> WebSessionRecord {
                    let key = StorageKey(providerID: "oidc", issuer: "https://idp.example.test", clientID: "app", account: "web-\(subject)-\(index)")
                    return WebSessionRecord(
                        providerName: "oidc", account: key, subject: subject, displayName: subject, csrfToken: "c",
                        createdAt: now.addingTimeInterval(Double(index)), expiresAt: now.addingTimeInterval(3600), providerSessionID: sid
                    )
                }
                for index in 0..<5 { try await storeA.saveSession(record("alice", index, sid: index == 4 ? "sid-4" : nil), key: "alice-\(index)") }
                for index in 0..<3 { try await storeA.saveSession(record("bob", index), key: "bob-\(index)") }
                let alice = WebSessionRecord.subjectIndex(providerName: "oidc", subject: "alice")
                let bySID = try await storeB.removeSessions(
                    subjectIndex: alice, providerSessionIndex: WebSessionRecord.providerSessionIndex(providerName: "oidc", sessionID: "sid-4"))
                #expect(bySID.map(\.account.account) == ["web-alice-4"])
                let beyond = try await storeB.removeSessions(subjectIndex: alice, keepingNewest: 2)
                #expect(Set(beyond.map(\.account.account)) == ["web-alice-0", "web-alice-1"], "the oldest beyond the newest two")
                let ended = try await storeB.removeSessions(subjectIndex: alice, providerSessionIndex: nil)
                #expect(Set(ended.map(\.account.account)) == ["web-alice-2", "web-alice-3"])
                #expect(try await storeA.sessionCount() == 3, "bob's sessions stay")

                try await storeA.rememberDisplayName("Alice Example", subjectIndex: alice)
                #expect(try await storeB.rememberedDisplayName(subjectIndex: alice) == "Alice Example")
                #expect(try await storeB.rememberedDisplayName(subjectIndex: WebSessionRecord.subjectIndex(providerName: "oidc", subject: "bob")) == nil)
                try await storeB.forgetDisplayName(subjectIndex: alice)
                #expect(try await storeA.rememberedDisplayName(subjectIndex: alice) == nil, "forgotten for every instance")

                let bob = record("bob", 0).account
                let orphan = StorageKey(providerID: "oidc", issuer: bob.issuer, clientID: bob.clientID, account: "web-orphan")
                for (key, written) in [(bob, now.addingTimeInterval(-3600)), (orphan, now.addingTimeInterval(-3600))] {
                    try await storeA.tokenStorage.store(
                        Credential(providerID: "oidc", issuer: key.issuer, clientID: key.clientID, subject: "x", accessToken: Secret("a"), updatedAt: written), for: key
                    )
                }
                try await storeB.removeExpired(now: now)
                let left = try await storeA.tokenStorage.storedKeys()
                #expect(left.contains(bob) && !left.contains(orphan), "the credential without a session is swept, bob's stays")
                _ = sql
            }
        }

        @Test("Started on instance A, completed on instance B; the session works on both; sign-out on A ends it at once on A and on B within the session cache's 2 s")
        func acrossInstances() async throws {
            try await Database.withTwoInstances { storeA, storeB, sql in
                let harnessA = try WebSignInHarness(store: storeA)
                // Instance B: the same provider (same in-process identity provider), its own router and pool.
                let harnessB = try harnessA.sibling(store: storeB)
                try await harnessA.application().test(.router) { a in
                    try await harnessB.application().test(.router) { b in
                        var jar = CookieJar()
                        let login = try await a.execute(uri: "/auth/oidc/login", method: .get)
                        jar.update(from: login)
                        #expect(try await storeA.sessionCount() == 0, "a started sign-in writes nothing to the database")
                        let callback = try await harnessA.followToProvider(try require(login.headers[.location]))
                        let done = try await b.execute(uri: callback, method: .get, headers: jar.header)
                        #expect(done.status == .seeOther)
                        jar.update(from: done)
                        #expect(String(buffer: try await a.execute(uri: "/me", method: .get, headers: jar.header).body) == "Alice Example via oidc, token available")
                        #expect(String(buffer: try await b.execute(uri: "/me", method: .get, headers: jar.header).body) == "Alice Example via oidc, token available")
                        // Replayed at A: the row was taken by B.
                        #expect(try await a.execute(uri: callback, method: .get, headers: jar.header).status == .badRequest)

                        // At rest: no token, verifier or session id in any column.
                        let issued = await harnessA.idp.issuedSecrets
                        let dump = try await Self.tableDump(sql)
                        #expect(!dump.isEmpty)
                        for secret in issued { #expect(!dump.contains(secret)) }
                        let sessionID = try require(jar.values[WebSignInConfiguration.sessionCookieName])
                        #expect(!dump.contains(sessionID))

                        let csrf = try require(try await WebSignInTests.sessionJSON(b, jar)["csrf_token"]?.stringValue)
                        var headers = jar.header
                        headers[HTTPField.Name("X-CSRF-Token")!] = csrf
                        #expect(try await a.execute(uri: "/auth/logout", method: .post, headers: headers).status == .seeOther)
                        #expect(try await WebSignInTests.sessionJSON(a, jar)["signed_in"] == false, "at once on A")
                        // B read the session a moment ago and trusts its copy for the session cache's lifetime (2 s).
                        try await Task.sleep(for: .milliseconds(2_100))
                        #expect(try await WebSignInTests.sessionJSON(b, jar)["signed_in"] == false, "on B within the bound")
                        #expect(try await storeB.tokenStorage.storedKeys().isEmpty)
                    }
                }
            }
        }

        @Test("A sealed row opens only with the same key and in its own row; expired sessions are cleaned up")
        func sealingAndExpiry() async throws {
            try await Database.withTwoInstances { storeA, _, sql in
                let harness = try WebSignInHarness(store: storeA)
                try await harness.application().test(.router) { client in
                    var jar = CookieJar()
                    try await WebSignInTests.signIn(client, harness, jar: &jar)
                    _ = try await client.execute(uri: "/auth/oidc/login", method: .get)
                }
                // Another key cannot read the credential.
                let other = try PostgresWebSessionStore(client: sql, encryptionKey: Data(repeating: 7, count: 32))
                let key = try require(try await storeA.tokenStorage.storedKeys().first)
                #expect(try await storeA.tokenStorage.credential(for: key) != nil)
                let error = await #expect(throws: AuthError.self) { _ = try await other.tokenStorage.credential(for: key) }
                #expect(error?.code == .storageCorrupted)
                #expect(try await storeA.sessionCount() == 1)
                try await storeA.removeExpired(now: Date().addingTimeInterval(9 * 3600))
                #expect(try await storeA.sessionCount() == 0)
                #expect(try await storeA.tokenStorage.storedKeys().isEmpty, "the expired session's credential went with it")
            }
        }

        @Test("Hostile: a native nonce submitted to two instances at once is used by exactly one; an expired mark is taken over and swept")
        func nonceUsedOnceAcrossInstances() async throws {
            try await Database.withTwoInstances { storeA, storeB, sql in
                let now = Date()
                let digest = sha256Hex(UUID().uuidString)
                let answers = try await withThrowingTaskGroup(of: Bool.self) { group in
                    for index in 0..<16 {
                        let store = index.isMultiple(of: 2) ? storeA : storeB
                        group.addTask { try await store.markUsed(digest: digest, until: now.addingTimeInterval(600), now: now) }
                    }
                    return try await group.reduce(into: [Bool]()) { $0.append($1) }
                }
                #expect(answers.filter { $0 }.count == 1, "one of 16 concurrent uses on two instances wins")
                #expect(try await storeB.markUsed(digest: digest, until: now.addingTimeInterval(600), now: now.addingTimeInterval(599)) == false)
                #expect(try await storeB.markUsed(digest: digest, until: now.addingTimeInterval(1200), now: now.addingTimeInterval(600)), "its mark expired with it")
                try await storeA.removeExpired(now: now.addingTimeInterval(1201))
                let rows = try await sql.query("SELECT count(*) FROM auth_used_nonces")
                for try await count in rows.decode(Int.self) { #expect(count == 0, "expired marks are swept with expired sessions") }
            }
        }

        @Test("Back-channel logout received by instance A ends the user's sessions on instance B too, within the session cache's 2 s")
        func backChannelLogoutAcrossInstances() async throws {
            try await Database.withTwoInstances { storeA, storeB, _ in
                let harnessA = try WebSignInHarness(store: storeA)
                let harnessB = try harnessA.sibling(store: storeB)
                try await harnessA.application().test(.router) { a in
                    try await harnessB.application().test(.router) { b in
                        var first = CookieJar()
                        var second = CookieJar()
                        try await WebSignInTests.signIn(b, harnessB, jar: &first)
                        try await WebSignInTests.signIn(b, harnessB, jar: &second)
                        #expect(try await WebSignInTests.sessionJSON(b, first)["signed_in"] == true)
                        let done = try await WebSignInTests.backChannelLogout(a, token: await harnessA.idp.logoutToken(subject: "user-1234"))
                        #expect(done.status == .ok)
                        // B read `first` a moment ago and trusts its copy for the session cache's lifetime (2 s).
                        try await Task.sleep(for: .milliseconds(2_100))
                        #expect(try await WebSignInTests.sessionJSON(b, first)["signed_in"] == false)
                        #expect(try await WebSignInTests.sessionJSON(b, second)["signed_in"] == false)
                        #expect(try await storeB.sessionCount() == 0)
                        #expect(try await storeB.tokenStorage.storedKeys().isEmpty)
                    }
                }
            }
        }

        @Test("Hostile load: 40 concurrent exclusive sections (one account, and forty) over a pool of 4 connections all finish; no connection is held while a section runs")
        func noDeadlockUnderConcurrency() async throws {
            try await Database.withSmallPool(maximumConnections: 4) { store, _ in
                let storage = store.tokenStorage
                let key = StorageKey(providerID: "oidc", issuer: "https://idp.example.test", clientID: "app", account: "alice")
                try await storage.store(
                    Credential(providerID: "oidc", issuer: key.issuer, clientID: key.clientID, subject: "alice", accessToken: Secret("a"), updatedAt: Date()),
                    for: key
                )
                // Each section reads and writes the credential (as a refresh or a sign-out does) while holding the lease.
                let finished = try await Database.within(.seconds(60)) {
                    try await withThrowingTaskGroup(of: Int.self) { group in
                        for index in 0..<40 {
                            group.addTask {
                                let account = index % 2 == 0 ? key : StorageKey(providerID: "oidc", issuer: key.issuer, clientID: key.clientID, account: "user-\(index)")
                                return try await storage.withExclusiveAccess(to: account) {
                                    _ = try await storage.credential(for: account)
                                    try await Task.sleep(for: .milliseconds(5))
                                    _ = try await storage.storedKeys()
                                    return 1
                                }
                            }
                        }
                        return try await group.reduce(0, +)
                    }
                }
                #expect(finished == 40, "every section finished (a pinned connection per lock deadlocks the pool)")
                let left = try await Database.within(.seconds(5)) { try await storage.credential(for: key) }
                #expect(left??.subject == "alice", "the store still answers")
            }
        }

        @Test("A lease held elsewhere makes a section wait, then fail with storage_unavailable after its bound; a lapsed lease is taken over")
        func boundedLockWait() async throws {
            try await Database.withSmallPool(maximumConnections: 2, lockWait: .milliseconds(400)) { store, sql in
                let storage = store.tokenStorage
                let key = StorageKey(providerID: "oidc", issuer: "https://idp.example.test", clientID: "app", account: "bob")
                let lockKey = sha256Hex(key.rawValue)
                try await sql.query("INSERT INTO auth_locks (lock_key, holder, expires_at) VALUES (\(lockKey), 'another-instance', now() + interval '1 hour')")
                let started = ContinuousClock.now
                let error = await #expect(throws: AuthError.self) { try await storage.withExclusiveAccess(to: key) { 1 } }
                #expect(error?.code == .storageUnavailable)
                #expect(ContinuousClock.now - started < .seconds(3), "bounded by the lock wait")

                try await sql.query("UPDATE auth_locks SET expires_at = now() - interval '1 second' WHERE lock_key = \(lockKey)")
                #expect(try await storage.withExclusiveAccess(to: key) { 2 } == 2, "a lapsed lease (a crashed instance) is taken over")
                let rows = try await sql.query("SELECT count(*) FROM auth_locks WHERE lock_key = \(lockKey)")
                for try await count in rows.decode(Int.self) { #expect(count == 0, "the lease is given back") }
            }
        }

        @Test("A statement waits for a pooled connection at most its bound: storage_unavailable, not a hang")
        func boundedStatements() async throws {
            try await Database.withSmallPool(maximumConnections: 1, statementTimeout: .milliseconds(300)) { store, sql in
                let holding = Task { try await sql.withConnection { _ in try await Task.sleep(for: .seconds(3)) } }
                defer { holding.cancel() }
                try await Task.sleep(for: .milliseconds(100))
                let started = ContinuousClock.now
                let error = await #expect(throws: AuthError.self) { _ = try await store.session(key: "x", now: Date()) }
                #expect(error?.code == .storageUnavailable)
                #expect(ContinuousClock.now - started < .seconds(2))
            }
        }

        @Test("Hostile: a pending sign-in or session whose expiry column was moved in the database still expires when its sealed expiry says")
        func sealedExpiryDecides() async throws {
            try await Database.withTwoInstances { storeA, _, sql in
                let harness = try WebSignInHarness(store: storeA)
                try await harness.application().test(.router) { client in
                    var jar = CookieJar()
                    try await WebSignInTests.signIn(client, harness, jar: &jar)
                    // Whoever can write the table pushes every expiry into the future…
                    try await sql.query("UPDATE auth_sessions SET expires_at = now() + interval '100 days'")
                    // …but after the sealed session lifetime (8 hours) the session is over all the same.
                    let sessionKey = try require(jar.values[WebSignInConfiguration.sessionCookieName])
                    let later = Date().addingTimeInterval(9 * 3600)
                    #expect(try await storeA.session(key: sha256Hex(sessionKey), now: later) == nil)
                    #expect(try await storeA.session(key: sha256Hex(sessionKey), now: Date()) != nil)
                }
            }
        }

        static func tableDump(_ sql: PostgresClient) async throws -> String {
            var text = ""
            for table in ["auth_sessions", "auth_credentials"] {
                let rows = try await sql.query(PostgresQuery(unsafeSQL: "SELECT encode(convert_to(t::text, 'UTF8'), 'escape') FROM \(table) t"))
                for try await row in rows.decode(String.self) { text += row }
            }
            return text
        }
    }
#endif
