// Run with the trait: `swift test --traits Observability --filter Observability` (Scripts/test.sh does).
#if Observability
    import AuthCore
    import AuthObservability
    import AuthOIDC
    import AuthTesting
    import Foundation
    import InMemoryTracing
    import MetricsTestKit
    import Testing
    import Tracing
    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    @Suite("Tracing and metrics (AuthObservability)")
    struct ObservabilityInstrumentationTests {
        private static let clientSecret = "obs-client-secret-6f1d0c9e2b"

        private struct Harness {
            let idp: TestIdentityProvider
            let tracer: InMemoryTracer
            let metrics: TestMetrics
            let recorder: RecordingTransport
            let client: AuthClient
        }

        /// A confidential client (so a secret is sent) whose refresh requests wait until a second refresh has joined
        /// them, so coalescing is observed without timing luck.
        private func harness() -> Harness {
            let redirect = TestIdentityProvider.defaultRedirectURI
            let idp = TestIdentityProvider(configuration: .init(clients: [.init(id: "obs-client", secret: Self.clientSecret, redirectURIs: [redirect])]))
            let tracer = InMemoryTracer()
            let metrics = TestMetrics()
            let host = TestIdentityProvider.defaultIssuer.host ?? ""
            let gated = InProcessTransport().adding(host: host) { request in
                let body = String(decoding: request.httpBody ?? Data(), as: UTF8.self)
                if request.url?.path == "/token", body.contains("grant_type=refresh_token") {
                    for _ in 0..<2000 where metrics.counterTotal(label: "auth_refresh_coalesced_total") == 0 {
                        try await Task.sleep(for: .milliseconds(1))
                    }
                }
                return try await idp.transport.send(request)
            }
            let recorder = RecordingTransport(gated)
            let provider = OpenIDProvider(
                issuer: TestIdentityProvider.defaultIssuer,
                client: ClientRegistration(clientID: "obs-client", clientSecret: Secret(Self.clientSecret), redirectURI: redirect)
            )
            let client = AuthClient(
                provider: provider, transport: recorder, clock: idp.clock,
                instrumentation: .observability(tracer: tracer, metricsFactory: metrics)
            )
            return Harness(idp: idp, tracer: tracer, metrics: metrics, recorder: recorder, client: client)
        }

        @Test("a span per sign-in, exchange, refresh, revocation and back-channel request, nested; counters and timers; no secret in any attribute")
        func spansAndMetrics() async throws {
            let harness = harness()
            let session = try await harness.client.signIn(with: HeadlessUserAgent(transport: harness.idp.transport))

            // Two sessions of the same account refresh at once: one request, one joiner.
            let first = try #require(try await harness.client.restoreSession())
            let second = try #require(try await harness.client.restoreSession())
            async let a = first.refresh()
            async let b = second.refresh()
            let (refreshedA, refreshedB) = try await (a, b)
            #expect(refreshedA.accessToken == refreshedB.accessToken)

            let refreshToken = try #require(refreshedA.refreshToken)
            try await harness.client.revoke(refreshToken, hint: .refreshToken)
            await harness.idp.update { $0.tokenResponseReplacement = (400, Data(#"{"error":"invalid_grant"}"#.utf8), [:]) }
            await #expect(throws: AuthError.self) { _ = try await first.refresh() }

            let spans = harness.tracer.finishedSpans
            let names = spans.map(\.operationName)
            #expect(names.filter { $0 == "auth.sign_in" }.count == 1)
            #expect(names.filter { $0 == "auth.code_exchange" }.count == 1)
            #expect(names.filter { $0 == "auth.refresh" }.count == 2, "one for the coalesced pair, one that failed")
            #expect(names.filter { $0 == "auth.revocation" }.count == 1)
            let sentRequests = await harness.recorder.exchanges.count
            #expect(names.filter { $0 == "auth.http_request" }.count == sentRequests)

            // Nesting: the token request inside the exchange inside the sign-in.
            let signIn = try #require(spans.first { $0.operationName == "auth.sign_in" })
            let exchange = try #require(spans.first { $0.operationName == "auth.code_exchange" })
            #expect(exchange.parentSpanID == signIn.spanID && exchange.traceID == signIn.traceID)
            let tokenRequest = try #require(
                spans.first {
                    $0.operationName == "auth.http_request" && $0.parentSpanID == exchange.spanID && attribute($0, "auth.endpoint") == "token_endpoint"
                })
            #expect(tokenRequest.kind == .client)
            #expect(attribute(tokenRequest, "http.request.method") == "POST")
            #expect(attribute(tokenRequest, "http.response.status_code") == "200")
            #expect(attribute(signIn, "auth.provider_id") == "oidc")
            let failed = try #require(spans.last { $0.operationName == "auth.refresh" })
            #expect(attribute(failed, "auth.error_code") == "invalid_grant")
            #expect(failed.status?.code == .error)
            #expect(failed.errors.isEmpty, "no error object (and its message) is handed to the exporter")

            // No secret, token, code, user or URL in any attribute or status.
            let tokenForms = await harness.recorder.exchanges(pathSuffix: "/token").map(\.formParameters)
            let code = try #require(tokenForms.compactMap { $0["code"] }.first)
            let credential = await session.credential
            var forbidden = [
                Self.clientSecret, code, credential.accessToken.reveal(), refreshedA.accessToken.reveal(), refreshToken.reveal(),
                "user-1234", TestIdentityProvider.defaultIssuer.host ?? "idp.example.test"
            ]
            if let idToken = credential.idToken { forbidden.append(idToken.reveal()) }
            for span in spans {
                var texts = [span.operationName, span.status?.message ?? ""]
                span.attributes.forEach { key, value in texts.append("\(key)=\(value)") }
                for text in texts {
                    for secret in forbidden { #expect(!text.contains(secret), "\(span.operationName): \(text)") }
                }
            }

            // Metrics.
            let metrics = harness.metrics
            #expect(metrics.counterTotal(label: "auth_operations_total", dimensions: [("provider", "oidc"), ("operation", "sign_in"), ("outcome", "success")]) == 1)
            #expect(metrics.counterTotal(label: "auth_operations_total", dimensions: [("provider", "oidc"), ("operation", "refresh"), ("outcome", "success")]) == 1)
            #expect(metrics.counterTotal(label: "auth_refresh_coalesced_total") == 1)
            #expect(metrics.counterTotal(label: "auth_failures_total", dimensions: [("provider", "oidc"), ("operation", "refresh"), ("code", "invalid_grant")]) == 1)
            #expect(metrics.counterTotal(label: "auth_jwks_fetches_total") >= 1)
            let signInTimer = try metrics.expectTimer("auth_operation_duration", [("provider", "oidc"), ("operation", "sign_in")])
            #expect(signInTimer.values.count == 1 && (signInTimer.lastValue ?? -1) >= 0)
        }

        @Test("Without instrumentation the engine runs as before: NoAuthInstrumentation runs each operation once")
        func noInstrumentationIsTransparent() async throws {
            let idp = TestIdentityProvider()
            let client = AuthClient(
                provider: OpenIDProvider(
                    issuer: TestIdentityProvider.defaultIssuer,
                    client: ClientRegistration(clientID: TestIdentityProvider.defaultClientID, redirectURI: TestIdentityProvider.defaultRedirectURI)),
                transport: idp.transport, clock: idp.clock)
            #expect(client.instrumentation is NoAuthInstrumentation)
            let session = try await client.signIn(with: HeadlessUserAgent(transport: idp.transport))
            _ = try await session.refresh()
            #expect(await idp.tokenRequestsByGrant == ["authorization_code": 1, "refresh_token": 1])
        }

        private func attribute(_ span: FinishedInMemorySpan, _ key: String) -> String? {
            var found: String?
            span.attributes.forEach { name, value in
                if name == key { found = Self.text(value) }
            }
            return found
        }

        private static func text(_ value: SpanAttribute) -> String {
            switch value {
            case .string(let text): text
            case .int64(let number): String(number)
            case .int32(let number): String(number)
            default: "\(value)"
            }
        }
    }
#endif
