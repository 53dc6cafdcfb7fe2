#if PostgresStorage
import AuthCore
import AuthHummingbird
import Foundation
import Logging
import PostgresNIO

/// Credentials in PostgreSQL, sealed (see ``PostgresWebSessionStore``); one refresh per account across every instance
/// through a PostgreSQL advisory lock held for the exclusive section.
struct PostgresTokenStorage: TokenStorage {
    let sealer: Sealer
    let statements: PostgresStatements

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

    /// Holds a session-level advisory lock on one pooled connection while `body` runs (its queries use others), so
    /// a refresh on one instance waits for a refresh of the same account on another, then sees its result.
    func withExclusiveAccess<T: Sendable>(to key: StorageKey, _ body: @Sendable () async throws -> T) async throws -> T {
        let raw = key.rawValue
        do {
            let logger = statements.logger
            return try await statements.client.withConnection { connection in
                try await connection.query("SELECT pg_advisory_lock(hashtext(\(raw)))", logger: logger)
                do {
                    let result = try await body()
                    try await connection.query("SELECT pg_advisory_unlock(hashtext(\(raw)))", logger: logger)
                    return result
                } catch {
                    _ = try? await connection.query("SELECT pg_advisory_unlock(hashtext(\(raw)))", logger: logger)
                    throw error
                }
            }
        } catch let error as AuthError {
            throw error
        } catch {
            throw AuthError(.storageUnavailable, "PostgreSQL could not lock the account for a refresh; check the database.", underlying: error)
        }
    }

    private func run(_ statement: PostgresQuery) async throws { try await statements.run(statement) }
    private func query(_ statement: PostgresQuery) async throws -> PostgresRowSequence { try await statements.query(statement) }
}
#endif
