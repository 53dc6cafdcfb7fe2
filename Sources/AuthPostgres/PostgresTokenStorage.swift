#if PostgresStorage
    import AuthCore
    import AuthWebSignIn
    import Foundation
    import Logging
    import PostgresNIO

    /// Credentials in PostgreSQL, sealed (see ``PostgresWebSessionStore``); one refresh or sign-out per account across
    /// every instance through a lease in `auth_locks`.
    ///
    /// The lease is a row, not a session-level advisory lock: holding an advisory lock pins one pooled connection for the
    /// whole exclusive section, while the section's own statements (and any others) need connections too — enough
    /// concurrent sections then hold every connection and wait for each other forever. A lease row is taken and given
    /// back by single statements, so no connection is held while the section runs (and calls the provider), the wait for
    /// it is bounded, and a lease whose instance died lapses after ``leaseLifetime``.
    struct PostgresTokenStorage: TokenStorage {
        let sealer: Sealer
        let statements: PostgresStatements
        /// How long a section waits for another instance's section of the same account before giving up.
        var lockWait: Duration = .seconds(10)
        /// How long a lease lasts when its holder neither finishes nor gives it back (a crashed instance). Longer than a
        /// section takes: a refresh's provider request is bounded by the client's request timeout (30 s by default).
        var leaseLifetime: Duration = .seconds(120)

        func credential(for key: StorageKey) async throws -> Credential? {
            let raw = key.rawValue
            let rows = try await query("SELECT sealed FROM auth_credentials WHERE storage_key = \(raw)")
            for try await sealed in rows.decode(Data.self) {
                return try JSONDecoder().decode(Credential.self, from: try sealer.open(sealed, context: "credential:" + raw))
            }
            return nil
        }

        func store(_ credential: Credential, for key: StorageKey) async throws {
            let raw = key.rawValue
            let sealed = try sealer.seal(try JSONEncoder().encode(credential), context: "credential:" + raw)
            try await run(
                """
                INSERT INTO auth_credentials (storage_key, provider, issuer, client_id, account, sealed, updated_at)
                VALUES (\(raw), \(key.providerID.rawValue), \(key.issuer), \(key.clientID), \(key.account), \(sealed), \(credential.updatedAt))
                ON CONFLICT (storage_key) DO UPDATE SET sealed = EXCLUDED.sealed, updated_at = EXCLUDED.updated_at
                """
            )
        }

        func removeCredential(for key: StorageKey) async throws {
            try await run("DELETE FROM auth_credentials WHERE storage_key = \(key.rawValue)")
        }

        func storedKeys() async throws -> [StorageKey] {
            let rows = try await query("SELECT provider, issuer, client_id, account FROM auth_credentials")
            var keys: [StorageKey] = []
            for try await (provider, issuer, clientID, account) in rows.decode((String, String, String, String).self) {
                keys.append(StorageKey(providerID: ProviderID(rawValue: provider), issuer: issuer, clientID: clientID, account: account))
            }
            return keys
        }

        /// Runs `body` holding the account's lease, so a refresh on one instance waits for a refresh of the same account
        /// on another, then sees its result.
        ///
        /// - Throws: `storage_unavailable` when another section keeps the lease for more than ``lockWait``, or when
        ///   PostgreSQL does not answer.
        func withExclusiveAccess<T: Sendable>(to key: StorageKey, _ body: @Sendable () async throws -> T) async throws -> T {
            // The full key, hashed: two accounts never share a lease (a 32-bit `hashtext` could collide).
            let lockKey = sha256Hex(key.rawValue)
            let holder = SecureRandom.token(byteCount: 16)
            try await acquire(lockKey, holder: holder)
            // Given back from a task of its own: a cancelled caller (its deadline passed) must still release the lease,
            // and the statement's bound would otherwise end at once with the caller's cancellation.
            let release = { @Sendable in await Task { try? await self.release(lockKey, holder: holder) }.value }
            do {
                let result = try await withThrowingTaskGroup(of: Void.self, returning: T.self) { group in
                    // While the section runs, the lease is extended every third of its lifetime: a slow section (retries,
                    // a slow provider) never outlives it and lets a second refresh run beside it.
                    group.addTask { await self.renew(lockKey, holder: holder) }
                    defer { group.cancelAll() }
                    return try await body()
                }
                await release()
                return result
            } catch {
                await release()
                throw error
            }
        }

        /// Extends the lease every third of ``leaseLifetime`` until cancelled; a failed extension is retried at the next.
        private func renew(_ lockKey: String, holder: String) async {
            let lifetime = Double(leaseLifetime.components.seconds)
            while !Task.isCancelled {
                do {
                    try await Task.sleep(for: leaseLifetime / 3)
                } catch {
                    return
                }
                try? await run(
                    "UPDATE auth_locks SET expires_at = now() + make_interval(secs => \(lifetime)) WHERE lock_key = \(lockKey) AND holder = \(holder)"
                )
            }
        }

        /// Takes the lease when it is free or has lapsed; otherwise waits (10 ms, doubling to 200 ms) up to ``lockWait``.
        private func acquire(_ lockKey: String, holder: String) async throws {
            let lifetime = Double(leaseLifetime.components.seconds)
            let deadline = ContinuousClock.now + lockWait
            var pause = Duration.milliseconds(10)
            while true {
                // One statement: insert, or take over a lapsed lease; a live lease of another holder returns no row.
                let rows = try await query(
                    """
                    INSERT INTO auth_locks (lock_key, holder, expires_at) VALUES (\(lockKey), \(holder), now() + make_interval(secs => \(lifetime)))
                    ON CONFLICT (lock_key) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
                    WHERE auth_locks.expires_at < now()
                    RETURNING holder
                    """
                )
                for try await taken in rows.decode(String.self) where taken == holder { return }
                guard ContinuousClock.now + pause < deadline else {
                    throw AuthError(
                        .storageUnavailable,
                        "Another request has held this account's lock for more than \(lockWait) (a refresh or sign-out on this or another instance); try again when it has finished."
                    )
                }
                try await Task.sleep(for: pause)
                pause = min(pause * 2, .milliseconds(200))
            }
        }

        private func release(_ lockKey: String, holder: String) async throws {
            try await run("DELETE FROM auth_locks WHERE lock_key = \(lockKey) AND holder = \(holder)")
        }

        private func run(_ statement: PostgresQuery) async throws { try await statements.run(statement) }
        private func query(_ statement: PostgresQuery) async throws -> PostgresRowSequence { try await statements.query(statement) }
    }
#endif
