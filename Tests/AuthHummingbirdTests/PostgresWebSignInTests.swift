#if PostgresStorage
import AuthCore
import AuthHummingbird
import AuthPostgres
import AuthTesting
import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import PostgresNIO
import Testing

/// PostgreSQL from `Scripts/postgres.sh` (the test command starts it); without `AUTH_PG_PORT` the suite is skipped,
/// unless `AUTH_PG_REQUIRED=1` (the test command) makes that a failure.
private enum Database {
    static let environment = ProcessInfo.processInfo.environment
    static let configured = environment["AUTH_PG_PORT"] != nil
    static let required = environment["AUTH_PG_REQUIRED"] == "1"

    static func client() -> PostgresClient {
        PostgresClient(configuration: .init(
            host: environment["AUTH_PG_HOST"] ?? "127.0.0.1", port: Int(environment["AUTH_PG_PORT"] ?? "") ?? 55432,
            username: environment["AUTH_PG_USER"] ?? "auth", password: nil, database: environment["AUTH_PG_DATABASE"] ?? "auth",
            tls: .disable
        ))
    }

    /// Runs `body` with two stores (two instances) over the same database, each with its own connection pool.
    static func withTwoInstances(_ body: (PostgresWebSessionStore, PostgresWebSessionStore, PostgresClient) async throws -> Void) async throws {
        let (clientA, clientB) = (client(), client())
        let runA = Task { await clientA.run() }
        let runB = Task { await clientB.run() }
        defer { runA.cancel(); runB.cancel() }
        let key = Data(SHA256.hash(data: Data("test key".utf8)))
        let storeA = try PostgresWebSessionStore(client: clientA, encryptionKey: key)
        let storeB = try PostgresWebSessionStore(client: clientB, encryptionKey: key)
        // From an empty database, both instances creating the tables at once (as two instances starting together do).
        try await clientA.query("DROP TABLE IF EXISTS auth_pending_sign_ins, auth_sessions, auth_credentials")
        async let preparedA: Void = storeA.prepare()
        async let preparedB: Void = storeB.prepare()
        _ = try await (preparedA, preparedB)
        try await body(storeA, storeB, clientA)
    }
}

@Suite("issue 24: web sign-in across instances with PostgreSQL (PostgresWebSessionStore)", .serialized, .enabled(if: Database.configured || Database.required))
struct PostgresWebSignInTests {
    @Test("Started on instance A, completed on instance B; the session works on both; sign-out on A ends it everywhere")
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
                    #expect(try await storeA.counts().pendingSignIns == 1)
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
                    #expect(try await WebSignInTests.sessionJSON(b, jar)["signed_in"] == false)
                    #expect(try await storeB.tokenStorage.storedKeys().isEmpty)
                }
            }
        }
    }

    @Test("A sealed row opens only with the same key and in its own row; expired sign-ins and sessions are cleaned up")
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
            #expect(try await storeA.counts() == (1, 1))
            try await storeA.removeExpired(now: Date().addingTimeInterval(9 * 3600))
            #expect(try await storeA.counts() == (0, 0))
        }
    }

    static func tableDump(_ sql: PostgresClient) async throws -> String {
        var text = ""
        for table in ["auth_pending_sign_ins", "auth_sessions", "auth_credentials"] {
            let rows = try await sql.query(PostgresQuery(unsafeSQL: "SELECT encode(convert_to(t::text, 'UTF8'), 'escape') FROM \(table) t"))
            for try await row in rows.decode(String.self) { text += row }
        }
        return text
    }
}
#endif
