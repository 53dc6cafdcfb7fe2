extension AuthClient {
    /// Where a client reports its operations for distributed tracing and metrics: ``none`` (the default), or
    /// AuthObservability's `.observability(tracer:metricsFactory:labelPrefix:)`.
    ///
    /// The backends are swift-distributed-tracing and swift-metrics, which are themselves the plug-in points (bootstrap
    /// your tracer and metrics factory there, as for AsyncHTTPClient and Hummingbird), so the engine's own reporting
    /// interface stays inside the package. Everything reported is safe to export: an operation's kind, provider and
    /// endpoint path, an HTTP status and an error code — never a URL query, token, code, secret or user.
    public struct Instrumentation: Sendable {
        /// The engine's reporting interface behind this value.
        package let backend: any AuthInstrumentation

        /// Wraps a backend (AuthObservability's, or a test's).
        package init(_ backend: any AuthInstrumentation) {
            self.backend = backend
        }

        /// No tracing, no metrics: each operation runs as is.
        public static let none = Instrumentation(NoAuthInstrumentation())
    }
}
