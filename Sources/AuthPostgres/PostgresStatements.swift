#if PostgresStorage
import AuthCore
import Logging
import PostgresNIO

/// Runs the stores' SQL and turns a database failure into `storage_unavailable` naming what was being done.
struct PostgresStatements: Sendable {
    let client: PostgresClient
    let logger: Logger
    /// What the statements are for, in the error message ("session-store", "credential").
    let purpose: String

    func run(_ statement: PostgresQuery) async throws {
        _ = try await query(statement)
    }

    func query(_ statement: PostgresQuery) async throws -> PostgresRowSequence {
        do {
            return try await client.query(statement, logger: logger)
        } catch {
            throw AuthError(.storageUnavailable, "PostgreSQL refused or could not run a \(purpose) query; check the database.", underlying: error)
        }
    }
}
#endif
