#if PostgresStorage
    import AuthCore
    import Logging
    import PostgresNIO

    /// Runs the stores' SQL, each statement within ``timeout``, and turns a database failure into `storage_unavailable`
    /// naming what was being done.
    ///
    /// The bound covers waiting for a pooled connection as well as the statement: a database that is down, restarting
    /// or out of connections fails the request in seconds (a 503 page) instead of holding it, and everything waiting
    /// behind it, until the database returns.
    struct PostgresStatements: Sendable {
        let client: PostgresClient
        let logger: Logger
        /// What the statements are for, in the error message ("session-store", "credential").
        let purpose: String
        /// The longest a statement may wait for a connection and run.
        var timeout: Duration = .seconds(5)

        func run(_ statement: PostgresQuery) async throws {
            _ = try await query(statement)
        }

        func query(_ statement: PostgresQuery) async throws -> PostgresRowSequence {
            let client = self.client
            let logger = self.logger
            let timeout = self.timeout
            let purpose = self.purpose
            do {
                // The engine's own deadline race (as the transports' request deadline): a lease request still waiting is
                // cancelled when it loses.
                return try await withDeadline(
                    timeout,
                    onTimeout: {
                        AuthError(.storageUnavailable, "PostgreSQL did not answer a \(purpose) query within \(timeout); check the database and its connection pool.")
                    }
                ) {
                    try await client.query(statement, logger: logger)
                }
            } catch let error as AuthError {
                throw error
            } catch {
                throw AuthError(.storageUnavailable, "PostgreSQL refused or could not run a \(purpose) query; check the database.", underlying: error)
            }
        }
    }
#endif
