/// Where the engine reports what it does, for distributed tracing and metrics — a tiny protocol in the spirit of
/// swift-log's `LogHandler`: the engine calls it, a backend implements it.
///
/// `AuthObservability` implements it with swift-distributed-tracing (a span per operation) and swift-metrics
/// (counters and timers); that module, and those packages, stay out of apps that do not use them. Without an
/// instrumentation (``NoAuthInstrumentation``, the default) the engine calls the operation directly.
///
/// Everything the engine passes is safe to export: ``AuthOperation`` names no URL, token, code, secret or user.
package protocol AuthInstrumentation: Sendable {
    /// Runs `body` as `operation`: trace it, time it, count its outcome. Must call `body` exactly once and return
    /// or rethrow what it does; errors are `AuthError`s whose `code` is safe to record.
    func withOperation<Result: Sendable>(
        _ operation: AuthOperation,
        _ body: @Sendable (AuthOperationOutcome) async throws -> Result
    ) async throws -> Result

    /// Counts `event`.
    func record(_ event: AuthInstrumentationEvent)
}
