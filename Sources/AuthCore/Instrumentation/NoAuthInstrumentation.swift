/// No tracing, no metrics: each operation runs as is. The default of ``AuthClient``.
package struct NoAuthInstrumentation: AuthInstrumentation {
    /// Creates the instrumentation.
    package init() {}

    /// Runs `body` (with an outcome nobody reads, shared so that no request allocates one).
    package func withOperation<Result: Sendable>(
        _ operation: AuthOperation,
        _ body: @Sendable (AuthOperationOutcome) async throws -> Result
    ) async throws -> Result {
        try await body(Self.unread)
    }

    private static let unread = AuthOperationOutcome()

    /// Does nothing.
    package func record(_ event: AuthInstrumentationEvent) {}
}
