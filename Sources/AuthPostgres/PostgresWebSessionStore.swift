#if PostgresStorage
    public import AuthCore
    public import AuthWebSignIn
    import Crypto
    public import Foundation
    import Logging
    public import PostgresNIO

    /// A ``WebSessionStore`` in PostgreSQL (postgres-nio), shared by every instance of a web app: a sign-in started on
    /// one instance completes on another, a session works on all, and a refresh runs once across them all.
    ///
    /// Everything secret is sealed with AES-256-GCM under the app's key before it reaches the database — session records
    /// (CSRF token) and credentials (tokens) — each bound to its row's key, so rows cannot be swapped. Session ids are
    /// stored as their SHA-256. (Sign-ins waiting for their callback are in the browser's sealed cookie; give every
    /// instance the same ``WebSignInConfiguration/signInCookieKey``.) Run
    /// ``prepare()`` once at start-up (it creates the tables if needed); the caller runs the `PostgresClient`.
    public final class PostgresWebSessionStore: WebSessionStore {
        let sealer: Sealer
        let statements: PostgresStatements
        /// The users' credentials, in the `auth_credentials` table.
        public let tokenStorage: any TokenStorage

        /// Creates a store.
        ///
        /// - Parameters:
        ///   - client: a running `PostgresClient` (for example added to the app's services).
        ///   - encryptionKey: 32 bytes for AES-256-GCM, the same on every instance (keep it in a secret manager).
        /// - Throws: `invalid_configuration` for a key that is not 32 bytes.
        public convenience init(client: PostgresClient, encryptionKey: Data, logger: Logger = Logger(label: "auth.postgres")) throws {
            try self.init(client: client, encryptionKey: encryptionKey, logger: logger, statementTimeout: .seconds(5), lockWait: .seconds(10))
        }

        /// Creates a store whose statements wait at most `statementTimeout` (for a connection and to run) and whose
        /// exclusive sections wait at most `lockWait` for another instance's (tests shorten both).
        package init(client: PostgresClient, encryptionKey: Data, logger: Logger, statementTimeout: Duration, lockWait: Duration) throws {
            guard encryptionKey.count == 32 else {
                throw AuthError(.invalidConfiguration, "The PostgresWebSessionStore encryption key must be 32 bytes (AES-256); it has \(encryptionKey.count).")
            }
            self.sealer = Sealer(key: SymmetricKey(data: encryptionKey))
            self.statements = PostgresStatements(client: client, logger: logger, purpose: "session-store", timeout: statementTimeout)
            self.tokenStorage = PostgresTokenStorage(
                sealer: sealer,
                statements: PostgresStatements(client: client, logger: logger, purpose: "credential", timeout: statementTimeout),
                lockWait: lockWait
            )
        }

        /// Creates the tables and indexes when they do not exist. Instances starting together take turns (a transaction
        /// holding an advisory lock): PostgreSQL's `CREATE TABLE IF NOT EXISTS` is not safe against itself running at
        /// the same moment.
        public func prepare() async throws {
            let statements: [PostgresQuery] = [
                "CREATE TABLE IF NOT EXISTS auth_sessions (session_hash text PRIMARY KEY, sealed bytea NOT NULL, expires_at timestamptz NOT NULL)",
                "CREATE INDEX IF NOT EXISTS auth_sessions_expiry ON auth_sessions (expires_at)",
                // The SHA-256 of the session's credential key: a back-channel logout finds the sessions it ends.
                "ALTER TABLE auth_sessions ADD COLUMN IF NOT EXISTS account_hash text",
                "CREATE INDEX IF NOT EXISTS auth_sessions_account ON auth_sessions (account_hash)",
                // What a back-channel logout names, hashed with the provider's route name (WebSessionRecord.subjectIndex,
                // providerSessionIndex): it finds its sessions by index, never by reading every credential. Rows of
                // earlier versions have none and end with their expiry.
                "ALTER TABLE auth_sessions ADD COLUMN IF NOT EXISTS subject_hash text",
                "ALTER TABLE auth_sessions ADD COLUMN IF NOT EXISTS provider_session_hash text",
                "ALTER TABLE auth_sessions ADD COLUMN IF NOT EXISTS created_at timestamptz",
                "CREATE INDEX IF NOT EXISTS auth_sessions_subject ON auth_sessions (subject_hash, created_at)",
                "CREATE INDEX IF NOT EXISTS auth_sessions_provider_session ON auth_sessions (provider_session_hash)",
                "CREATE TABLE IF NOT EXISTS auth_credentials (storage_key text PRIMARY KEY, provider text NOT NULL, issuer text NOT NULL, client_id text NOT NULL, account text NOT NULL, sealed bytea NOT NULL, updated_at timestamptz NOT NULL)",
                // Pending sign-ins live in the browser's sealed cookie now; the table of earlier versions goes.
                "DROP TABLE IF EXISTS auth_pending_sign_ins",
                // One lease per account being refreshed or signed out (PostgresTokenStorage.withExclusiveAccess).
                "CREATE TABLE IF NOT EXISTS auth_locks (lock_key text PRIMARY KEY, holder text NOT NULL, expires_at timestamptz NOT NULL)",
                // Users' names as a provider said them once (Apple's first authorization), sealed, by subject hash.
                "CREATE TABLE IF NOT EXISTS auth_names (subject_hash text PRIMARY KEY, sealed bytea NOT NULL)",
                // Native sign-in nonces already used, until they expire (markUsed).
                "CREATE TABLE IF NOT EXISTS auth_used_nonces (digest text PRIMARY KEY, expires_at timestamptz NOT NULL)"
            ]
            let logger = self.statements.logger
            do {
                try await self.statements.client.withTransaction(logger: logger) { connection in
                    try await connection.query("SELECT pg_advisory_xact_lock(hashtext('swift-auth-providers schema'))", logger: logger)
                    for statement in statements { try await connection.query(statement, logger: logger) }
                }
            } catch {
                throw AuthError(.storageUnavailable, "PostgreSQL could not create the session store's tables: \(String(reflecting: error))", underlying: error)
            }
        }

        /// Keeps `session` under `key` (the SHA-256 of the browser's session id).
        public func saveSession(_ session: WebSessionRecord, key: String) async throws {
            let sealed = try sealer.seal(try JSONEncoder().encode(session), context: "session:" + key)
            try await run(
                """
                INSERT INTO auth_sessions (session_hash, sealed, expires_at, account_hash, subject_hash, provider_session_hash, created_at)
                VALUES (\(key), \(sealed), \(session.expiresAt), \(Self.digest(session.account.rawValue)), \(session.subjectIndex), \(session.providerSessionIndex), \(session.createdAt))
                ON CONFLICT (session_hash) DO UPDATE SET sealed = EXCLUDED.sealed, expires_at = EXCLUDED.expires_at, account_hash = EXCLUDED.account_hash,
                  subject_hash = EXCLUDED.subject_hash, provider_session_hash = EXCLUDED.provider_session_hash, created_at = EXCLUDED.created_at
                """
            )
        }

        /// The unexpired session under `key`.
        public func session(key: String, now: Date) async throws -> WebSessionRecord? {
            let rows = try await query("SELECT sealed FROM auth_sessions WHERE session_hash = \(key) AND expires_at > \(now)")
            for try await sealed in rows.decode(Data.self) {
                let record = try JSONDecoder().decode(WebSessionRecord.self, from: try sealer.open(sealed, context: "session:" + key))
                return record.expiresAt > now ? record : nil  // the sealed expiry decides, not the column
            }
            return nil
        }

        /// Forgets the session under `key`.
        public func removeSession(key: String) async throws {
            try await run("DELETE FROM auth_sessions WHERE session_hash = \(key)")
        }

        /// Forgets every session whose credential is `account`.
        public func removeSessions(account: StorageKey) async throws {
            try await run("DELETE FROM auth_sessions WHERE account_hash = \(Self.digest(account.rawValue))")
        }

        /// Removes and returns the sessions of `subjectIndex` and/or `providerSessionIndex`: one indexed `DELETE …
        /// RETURNING`, whatever else is stored.
        public func removeSessions(subjectIndex: String?, providerSessionIndex: String?) async throws -> [WebSessionRecord] {
            let statement: PostgresQuery
            switch (subjectIndex, providerSessionIndex) {
            case (let subject?, let session?):
                statement = "DELETE FROM auth_sessions WHERE subject_hash = \(subject) AND provider_session_hash = \(session) RETURNING session_hash, sealed"
            case (let subject?, nil):
                statement = "DELETE FROM auth_sessions WHERE subject_hash = \(subject) RETURNING session_hash, sealed"
            case (nil, let session?):
                statement = "DELETE FROM auth_sessions WHERE provider_session_hash = \(session) RETURNING session_hash, sealed"
            case (nil, nil):
                return []
            }
            return try await records(try await query(statement))
        }

        /// The unexpired sessions of `subjectIndex`, by its index, left in place.
        public func sessions(subjectIndex: String, now: Date) async throws -> [WebSessionRecord] {
            let found = try await records(try await query("SELECT session_hash, sealed FROM auth_sessions WHERE subject_hash = \(subjectIndex)"))
            return found.filter { $0.expiresAt > now }
        }

        /// Removes and returns the oldest sessions of `subjectIndex` beyond the newest `limit`, in one statement.
        public func removeSessions(subjectIndex: String, keepingNewest limit: Int) async throws -> [WebSessionRecord] {
            try await records(
                try await query(
                    """
                    DELETE FROM auth_sessions WHERE session_hash IN (
                      SELECT session_hash FROM auth_sessions WHERE subject_hash = \(subjectIndex) ORDER BY created_at DESC, session_hash OFFSET \(max(0, limit))
                    ) RETURNING session_hash, sealed
                    """
                )
            )
        }

        /// The records of rows `(session_hash, sealed)`; one that does not open is left out.
        private func records(_ rows: PostgresRowSequence) async throws -> [WebSessionRecord] {
            var records: [WebSessionRecord] = []
            for try await (key, sealed) in rows.decode((String, Data).self) {
                guard let plain = try? sealer.open(sealed, context: "session:" + key),
                    let record = try? JSONDecoder().decode(WebSessionRecord.self, from: plain)
                else { continue }
                records.append(record)
            }
            return records
        }

        /// Deletes expired sessions and, in the same statement, their credentials (matched by the key's SHA-256); the
        /// credentials no session names that were last written ten minutes ago or earlier (a sign-in writes its
        /// credential just before its session); and the marks of used nonces that expired.
        public func removeExpired(now: Date) async throws {
            try await run(
                """
                WITH gone AS (DELETE FROM auth_sessions WHERE expires_at <= \(now) RETURNING account_hash)
                DELETE FROM auth_credentials WHERE encode(sha256(convert_to(storage_key, 'UTF8')), 'hex') IN (SELECT account_hash FROM gone)
                """
            )
            let settled = now.addingTimeInterval(-600)
            try await run(
                """
                DELETE FROM auth_credentials c WHERE c.updated_at <= \(settled) AND NOT EXISTS (
                  SELECT 1 FROM auth_sessions s WHERE s.account_hash = encode(sha256(convert_to(c.storage_key, 'UTF8')), 'hex'))
                """
            )
            try await removeExpiredMarks(now: now)
        }

        /// Records `digest` as used in one statement — the first of two instances that race wins, the other gets `false`;
        /// a mark that expired is taken over.
        public func markUsed(digest: String, until expiresAt: Date, now: Date) async throws -> Bool {
            let rows = try await query(
                """
                INSERT INTO auth_used_nonces (digest, expires_at) VALUES (\(digest), \(expiresAt))
                ON CONFLICT (digest) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE auth_used_nonces.expires_at <= \(now)
                RETURNING digest
                """
            )
            for try await _ in rows { return true }
            return false
        }

        /// Deletes the marks of used nonces that expired by `now`.
        public func removeExpiredMarks(now: Date) async throws {
            try await run("DELETE FROM auth_used_nonces WHERE expires_at <= \(now)")
        }

        /// Keeps `name` (sealed, bound to its row) for the user `subjectIndex`, for every instance.
        public func rememberDisplayName(_ name: String, subjectIndex: String) async throws {
            let sealed = try sealer.seal(Data(name.utf8), context: "name:" + subjectIndex)
            try await run(
                "INSERT INTO auth_names (subject_hash, sealed) VALUES (\(subjectIndex), \(sealed)) ON CONFLICT (subject_hash) DO UPDATE SET sealed = EXCLUDED.sealed"
            )
        }

        /// The name kept for the user `subjectIndex`, or `nil` (none, or a row that does not open with this key).
        public func rememberedDisplayName(subjectIndex: String) async throws -> String? {
            let rows = try await query("SELECT sealed FROM auth_names WHERE subject_hash = \(subjectIndex)")
            for try await sealed in rows.decode(Data.self) {
                return (try? sealer.open(sealed, context: "name:" + subjectIndex)).map { String(decoding: $0, as: UTF8.self) }
            }
            return nil
        }

        /// Deletes the name kept for the user `subjectIndex`, for every instance.
        public func forgetDisplayName(subjectIndex: String) async throws {
            try await run("DELETE FROM auth_names WHERE subject_hash = \(subjectIndex)")
        }

        /// `true`: every instance reads and writes the same database.
        public var isSharedAcrossInstances: Bool { true }

        /// How many sessions exist, expired ones not yet removed included (for tests and health pages).
        public func sessionCount() async throws -> Int {
            let rows = try await query("SELECT count(*) FROM auth_sessions")
            for try await count in rows.decode(Int.self) { return count }
            return 0
        }

        private func run(_ statement: PostgresQuery) async throws { try await statements.run(statement) }
        private func query(_ statement: PostgresQuery) async throws -> PostgresRowSequence { try await statements.query(statement) }

        static func digest(_ value: String) -> String { sha256Hex(value) }
    }

    /// AES-256-GCM with the row's key as associated data: a sealed value opens only in the row it was written to.
    struct Sealer: Sendable {
        let key: SymmetricKey

        func seal(_ data: Data, context: String) throws -> Data {
            guard let combined = try AES.GCM.seal(data, using: key, authenticating: Data(context.utf8)).combined else {
                throw AuthError(.storageFailed, "A value could not be sealed for the database.")
            }
            return combined
        }

        func open(_ data: Data, context: String) throws -> Data {
            do {
                return try AES.GCM.open(try AES.GCM.SealedBox(combined: data), using: key, authenticating: Data(context.utf8))
            } catch {
                throw AuthError(.storageCorrupted, "A sealed value in the database does not open with this key (another key, or a moved or altered row).")
            }
        }
    }
#endif
