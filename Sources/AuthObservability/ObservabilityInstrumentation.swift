// Compiled with the "Observability" trait only (its packages stay out of apps that do not enable it):
// `.package(url: "https://github.com/…/swift-auth-providers", from: …, traits: ["Observability"])`.
#if Observability
    public import AuthCore
    public import CoreMetrics
    public import Tracing
    import Foundation

    extension AuthClient.Instrumentation {
        /// Traces the engine's operations with swift-distributed-tracing and counts and times them with swift-metrics.
        ///
        /// Pass it as `AuthClient(…, instrumentation: .observability())`; it uses the tracer and metrics
        /// backend the process bootstrapped (`InstrumentationSystem.bootstrap`, `MetricsSystem.bootstrap`) unless given
        /// others. Without a bootstrapped backend both are no-ops.
        ///
        /// **Spans** — one per sign-in (`auth.sign_in`), code exchange, refresh, revocation, introspection, back-channel
        /// logout, and one client span per server-to-server request (`auth.http_request`), nested under the operation
        /// that sent it. Attributes: `auth.provider_id`, `auth.operation`, `auth.endpoint` (the endpoint's kind, such as
        /// `token_endpoint`), `http.request.method`, `http.response.status_code`, `auth.error_code`. Never a URL, token,
        /// code, secret or user identifier; failures set the span's status to error with the `AuthError.Code` as message
        /// and record no error object (whose description an exporter would send).
        ///
        /// **Metrics** (labels prefixed with `labelPrefix`, `auth` by default):
        /// - `auth_operations_total` — dimensions `provider`, `operation`, `outcome` (`success` / `failure`), and for HTTP
        ///   requests `endpoint`: sign-ins, refreshes, exchanges, … and their failures;
        /// - `auth_failures_total` — `provider`, `operation`, `code` (the `AuthError.Code`);
        /// - `auth_operation_duration` (timer, nanoseconds) — `provider`, `operation`;
        /// - `auth_refresh_coalesced_total` — `provider`: refreshes that joined one already in flight;
        /// - `auth_jwks_fetches_total` — `provider`: key set fetches, refetches for unknown keys included.
        ///
        /// - Parameters:
        ///   - tracer: a tracer to use instead of the bootstrapped one (tests pass an in-memory tracer).
        ///   - metricsFactory: a metrics backend to use instead of the bootstrapped one.
        ///   - labelPrefix: the prefix of span names and metric labels.
        public static func observability(
            tracer: (any Tracer)? = nil,
            metricsFactory: (any MetricsFactory)? = nil,
            labelPrefix: String = "auth"
        ) -> Self {
            Self(ObservabilityInstrumentation(tracer: tracer, metricsFactory: metricsFactory, labelPrefix: labelPrefix))
        }
    }

    /// The backend of ``AuthClient/Instrumentation/observability(tracer:metricsFactory:labelPrefix:)``: a span per
    /// operation and the counters and timer it documents.
    package struct ObservabilityInstrumentation: AuthInstrumentation {
        /// The tracer, or `nil` for the bootstrapped one (`InstrumentationSystem.tracer`).
        package let tracer: (any Tracer)?
        /// The metrics backend, or `nil` for the bootstrapped one (`MetricsSystem.factory`).
        package let metricsFactory: (any MetricsFactory)?
        /// The prefix of span names and metric labels.
        package let labelPrefix: String

        /// Creates the instrumentation.
        ///
        /// - Parameters:
        ///   - tracer: a tracer to use instead of the bootstrapped one (tests pass an in-memory tracer).
        ///   - metricsFactory: a metrics backend to use instead of the bootstrapped one.
        ///   - labelPrefix: the prefix of span names and metric labels.
        package init(tracer: (any Tracer)? = nil, metricsFactory: (any MetricsFactory)? = nil, labelPrefix: String = "auth") {
            self.tracer = tracer
            self.metricsFactory = metricsFactory
            self.labelPrefix = labelPrefix
        }

        /// Runs `body` inside a span, then counts and times it.
        package func withOperation<Result: Sendable>(
            _ operation: AuthOperation,
            _ body: @Sendable (AuthOperationOutcome) async throws -> Result
        ) async throws -> Result {
            let chosen: any Tracer = tracer ?? InstrumentationSystem.tracer
            return try await traced(operation, tracer: chosen, body)
        }

        /// Counts `event`.
        package func record(_ event: AuthInstrumentationEvent) {
            let label: String
            switch event.kind {
            case .refreshCoalesced: label = "refresh_coalesced_total"
            case .keySetFetched: label = "jwks_fetches_total"
            default: label = "\(event.kind.rawValue)_total"
            }
            Counter(label: "\(labelPrefix)_\(label)", dimensions: [("provider", event.providerID.rawValue)], factory: factory).increment()
        }

        private var factory: any MetricsFactory { metricsFactory ?? MetricsSystem.factory }

        private func traced<T: Tracer, Result: Sendable>(
            _ operation: AuthOperation,
            tracer: T,
            _ body: @Sendable (AuthOperationOutcome) async throws -> Result
        ) async throws -> Result {
            let outcome = AuthOperationOutcome()
            let span = tracer.startSpan(
                "\(labelPrefix).\(operation.kind.rawValue)",
                context: InstrumentationContext.current ?? .topLevel,
                ofKind: operation.kind == .httpRequest ? .client : .internal
            )
            span.attributes["auth.provider_id"] = operation.providerID.rawValue
            span.attributes["auth.operation"] = operation.kind.rawValue
            if let endpoint = operation.endpoint { span.attributes["auth.endpoint"] = endpoint }
            if let method = operation.method { span.attributes["http.request.method"] = method }
            let started = ContinuousClock.now
            do {
                let result = try await InstrumentationContext.$current.withValue(span.context) {
                    try await body(outcome)
                }
                finish(operation, span: span, outcome: outcome, error: nil, started: started)
                return result
            } catch {
                finish(operation, span: span, outcome: outcome, error: error, started: started)
                throw error
            }
        }

        private func finish(_ operation: AuthOperation, span: some Span, outcome: AuthOperationOutcome, error: (any Error)?, started: ContinuousClock.Instant) {
            if let status = outcome.httpStatus { span.attributes["http.response.status_code"] = status }
            var dimensions = [("provider", operation.providerID.rawValue), ("operation", operation.kind.rawValue)]
            let elapsed = ContinuousClock.now - started
            Timer(label: "\(labelPrefix)_operation_duration", dimensions: dimensions, factory: factory)
                .recordNanoseconds(elapsed.nanoseconds)
            if let endpoint = operation.endpoint { dimensions.append(("endpoint", endpoint)) }
            if let error {
                // Only the stable code: an error's message or underlying error is never handed to the exporter.
                let code = (error as? AuthError)?.code.rawValue ?? (error is CancellationError ? "cancelled" : "other")
                span.attributes["auth.error_code"] = code
                span.setStatus(SpanStatus(code: .error, message: code))
                Counter(label: "\(labelPrefix)_operations_total", dimensions: dimensions + [("outcome", "failure")], factory: factory).increment()
                Counter(
                    label: "\(labelPrefix)_failures_total",
                    dimensions: [("provider", operation.providerID.rawValue), ("operation", operation.kind.rawValue), ("code", code)],
                    factory: factory
                ).increment()
            } else {
                // A client span for an HTTP error status is an error span (OpenTelemetry's HTTP conventions); the
                // operation that reads the answer decides whether it failed.
                if let status = outcome.httpStatus, status >= 400 { span.setStatus(SpanStatus(code: .error, message: "HTTP \(status)")) }
                Counter(label: "\(labelPrefix)_operations_total", dimensions: dimensions + [("outcome", "success")], factory: factory).increment()
            }
            span.end()
        }
    }
#endif
