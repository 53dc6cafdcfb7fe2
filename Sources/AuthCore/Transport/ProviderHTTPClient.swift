import Foundation
import HTTPTypes

/// The engine's HTTP client for the provider's own endpoints (discovery, JWKS, token, device authorization,
/// revocation, introspection, user info): sends each request and turns every failure into a precise ``AuthError``.
///
/// Redirects are refused, bodies are capped, 5xx is retryable, a `Retry-After` on 429 or 503 is honoured (one short
/// wait shared by concurrent requests, ``RetryAfterGate``), OAuth error bodies are decoded, and nothing
/// secret reaches the log: only the method, the endpoint's host and path, and the status. (Not called "back
/// channel": that name belongs to OpenID Connect Back-Channel Logout, which is the provider calling the app.)
struct ProviderHTTPClient: Sendable {
    let transport: any HTTPTransport
    let logger: any AuthLogger
    let providerID: ProviderID
    let limits: HTTPRequestLimits
    /// The time `Retry-After` deadlines are measured and waited on.
    let clock: any WallClock
    /// The servers' `Retry-After` deadlines, shared by every copy of this client.
    let retryGate: RetryAfterGate
    var instrumentation: any AuthInstrumentation = NoAuthInstrumentation()

    /// A GET whose 2xx body is the answer; anything else throws.
    ///
    /// - Parameter endpoint: the endpoint's kind for instrumentation (`jwks_uri`, `discovery`, …), never its URL.
    func get(_ url: URL, endpoint: String, accept: String = "application/json", bearer: Secret? = nil) async throws -> Data {
        try await getResponse(url, endpoint: endpoint, accept: accept, bearer: bearer).0
    }

    /// A GET whose response headers the caller needs (the JWKS's `Cache-Control`).
    func getResponse(_ url: URL, endpoint: String, accept: String = "application/json", bearer: Secret? = nil) async throws -> (Data, HTTPResponse) {
        var request = HTTPRequest(method: .get, url: url)
        request.headerFields[.accept] = accept
        if let bearer { request.headerFields[.authorization] = "Bearer \(bearer.reveal())" }
        let (data, response) = try await send(request, endpoint: endpoint)
        guard response.status.kind == .successful else { throw error(for: response, body: data) }
        return (data, response)
    }

    /// A form POST whose 2xx body is the answer; anything else throws (the OAuth error when the body has one).
    func postForm(
        _ url: URL,
        endpoint: String,
        parameters: [(String, String)],
        headers: [String: String] = [:]
    ) async throws -> Data {
        let request = try formRequest(url, headers: headers)
        return try await sendExpectingSuccess(request, body: Data(FormEncoding.encode(parameters).utf8), endpoint: endpoint)
    }

    /// A form POST to `url` that accepts JSON, with `headers` added.
    ///
    /// - Throws: `invalid_configuration` for a header name HTTP does not allow.
    func formRequest(_ url: URL, headers: [String: String]) throws -> HTTPRequest {
        var request = HTTPRequest(method: .post, url: url)
        request.headerFields[.contentType] = "application/x-www-form-urlencoded"
        request.headerFields[.accept] = "application/json"
        for (name, value) in headers {
            guard let field = HTTPField.Name(name) else {
                throw AuthError(.invalidConfiguration, "'\(name)' is not a valid HTTP header name.", providerID: providerID)
            }
            request.headerFields[field] = value
        }
        return request
    }

    /// Sends `request`; returns the body of a 2xx response, throws a typed error for anything else.
    func sendExpectingSuccess(_ request: HTTPRequest, body: Data? = nil, endpoint: String) async throws -> Data {
        let (data, response) = try await send(request, body: body, endpoint: endpoint)
        if response.status.kind == .successful { return data }
        throw error(for: response, body: data)
    }

    /// Sends `request` as one instrumented `http_request` operation.
    func send(_ request: HTTPRequest, body: Data? = nil, endpoint kind: String) async throws -> (Data, HTTPResponse) {
        let operation = AuthOperation(kind: .httpRequest, providerID: providerID, endpoint: kind, method: request.method.rawValue)
        return try await instrumentation.withOperation(operation) { outcome in
            let (data, response) = try await send(request, body: body)
            outcome.record(httpStatus: response.status.code)
            return (data, response)
        }
    }

    /// Logs through the logger when it keeps `level`, attributed to the provider; the record is built only then.
    /// The token endpoint and the ID token verifier log through it too, so they need no logger of their own.
    func log(_ level: AuthLogRecord.Level, _ event: String, _ message: @autoclosure () -> String, _ metadata: @autoclosure () -> [String: String] = [:]) {
        guard logger.isEnabled(level) else { return }
        logger.log(AuthLogRecord(level: level, event: event, message: message(), metadata: metadata(), providerID: providerID))
    }

    /// Sends `request` once the server's `Retry-After` deadline (if any) has passed, and once more after a 429 or 503
    /// whose `Retry-After` is at most ``RetryAfterGate/maximumWait``; otherwise as ``sendOnce(_:body:)``.
    ///
    /// A 429 that is still there (or asks for a longer wait) is `rate_limited`, retryable, with the wait in
    /// ``AuthError/retryAfter``; a 503 is returned to the caller (`server_error` there). Retrying is safe: both
    /// statuses say the server did not carry the request out.
    ///
    /// - Throws: `rate_limited` without sending, while the server's deadline is further than the longest wait; the
    ///   errors of ``sendOnce(_:body:)``; `user_cancelled` when the task is cancelled during a wait.
    func send(_ request: HTTPRequest, body: Data?) async throws -> (Data, HTTPResponse) {
        let origin = request.url.map { "\($0.scheme ?? "")://\($0.host ?? ""):\($0.port ?? 0)" } ?? ""
        var waited = false
        while true {
            try await waitForRetryAfter(origin, request: request)
            let (data, response) = try await sendOnce(request, body: body)
            let status = response.status.code
            guard status == 429 || status == 503 else { return (data, response) }
            let now = clock.now()
            let delay = RetryAfterGate.delay(response.headerFields[.retryAfter], now: now)
            if let delay { await retryGate.hold(origin, until: now.addingTimeInterval(delay), now: now) }
            if !waited, let delay, delay <= RetryAfterGate.maximumWait {
                waited = true
                log(.notice, "http.retry_after", "\(request.summary) answered \(status); waiting as it asked.", ["seconds": String(Int(delay.rounded(.up)))])
                continue
            }
            guard status == 429 else { return (data, response) }
            throw AuthError(
                .rateLimited,
                "The provider is limiting requests (HTTP 429)" + (delay.map { "; try again in \(Int($0.rounded(.up))) s." } ?? "; try again later."),
                providerID: providerID,
                httpStatus: 429
            ).retrying(after: delay.map { min($0, RetryAfterGate.maximumHold) })
        }
    }

    /// Waits until `origin`'s `Retry-After` deadline, when one is held and near; refuses without sending when it is
    /// further than the engine waits on its own.
    private func waitForRetryAfter(_ origin: String, request: HTTPRequest) async throws {
        let now = clock.now()
        guard let deadline = await retryGate.deadline(for: origin, now: now) else { return }
        let remaining = deadline.timeIntervalSince(now)
        guard remaining <= RetryAfterGate.maximumWait else {
            throw AuthError(
                .rateLimited, "The provider asked for no requests for another \(Int(remaining.rounded(.up))) s (Retry-After); try again then.",
                providerID: providerID, httpStatus: 429
            ).retrying(after: remaining)
        }
        do {
            try await clock.sleep(until: deadline)
        } catch {
            throw AuthError(.userCancelled, "\(request.summary) was cancelled while waiting for the provider's Retry-After.", providerID: providerID)
        }
    }

    /// Sends `request` through the guarded transport: transport failures become `network` (or the transport's own
    /// error), a redirect `unexpected_redirect`, an oversized body `response_too_large`; any status is returned.
    func sendOnce(_ request: HTTPRequest, body: Data?) async throws -> (Data, HTTPResponse) {
        var endpoint: String { request.summary }
        log(.trace, "http.request", endpoint)
        let data: Data
        let response: HTTPResponse
        do {
            (data, response) = try await transport.send(request, body: body, limits: limits)
        } catch let error as AuthError {
            log(.warning, "http.failed", endpoint, ["code": error.code.rawValue])
            throw error.attributed(to: providerID)
        } catch is CancellationError {
            throw AuthError(.userCancelled, "\(endpoint) was cancelled.", providerID: providerID)
        } catch {
            log(.warning, "http.failed", endpoint)
            throw AuthError(
                .network,
                "The request to \(request.url?.host ?? "the provider") failed; check the network connection.",
                providerID: providerID,
                underlying: error
            )
        }
        let status = response.status.code
        log(.trace, "http.response", endpoint, ["status": String(status), "bytes": String(data.count)])
        if response.status.kind == .redirection {
            throw AuthError(
                .unexpectedRedirect,
                "\(endpoint) answered with a redirect (\(status)); back-channel redirects are never followed.",
                providerID: providerID,
                httpStatus: status
            )
        }
        guard data.count <= limits.maximumResponseSize else {
            throw AuthError(
                .responseTooLarge,
                "\(endpoint) returned \(data.count) bytes; the limit is \(limits.maximumResponseSize).",
                providerID: providerID,
                httpStatus: status
            )
        }
        return (data, response)
    }

    /// The error for a non-2xx `response`: read by ``OAuthErrorResponse`` (an OAuth error body, JSON or form-encoded,
    /// when there is one; RFC 6749 §5.2).
    func error(for response: HTTPResponse, body: Data) -> AuthError {
        let oauthError = OAuthErrorResponse(body: body, contentType: response.headerFields[.contentType])
        return OAuthErrorResponse.error(forStatus: response.status.code, response: oauthError, providerID: providerID)
    }

    /// `data` as a JSON object, or `invalid_response` naming `what` was expected.
    func decodeObject(_ data: Data, what: String) throws -> [String: JSONValue] {
        do {
            return try JSONValue.parseObject(data)
        } catch {
            throw AuthError(.invalidResponse, "The \(what) is not a JSON object.", providerID: providerID)
        }
    }
}
