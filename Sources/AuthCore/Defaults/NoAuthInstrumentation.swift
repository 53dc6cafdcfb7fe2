/// No tracing, no metrics: each operation runs as is. The default of ``AuthClient``.
public struct NoAuthInstrumentation: AuthInstrumentation {
    /// Creates the instrumentation.
    public init() {}

    /// Runs `body`.
    @inlinable
    public func withOperation<Result: Sendable>(
        _ operation: AuthOperation,
        _ body: @Sendable (AuthOperationOutcome) async throws -> Result
    ) async throws -> Result {
        try await body(AuthOperationOutcome())
    }

    /// Does nothing.
    @inlinable
    public func record(_ event: AuthInstrumentationEvent) {}
}
