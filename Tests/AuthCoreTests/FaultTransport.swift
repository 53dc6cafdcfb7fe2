import AuthCore
import Foundation

/// A network between the client and the identity provider that breaks the next token requests the way real ones
/// break: the request never sent, sent with its answer lost, the answer cut short or garbled, or refused by a server
/// in trouble (5xx, 429 with `Retry-After`). Everything else passes through untouched.
actor FaultTransport: HTTPTransport {
    enum Fault: Sendable, CustomStringConvertible {
        /// The connection fails before the request is sent (refused, reset, TLS handshake failure).
        case notSent(URLError.Code)
        /// The server receives and carries the request out; the answer never arrives (a reset or timeout after sending).
        case answerLost(URLError.Code)
        /// The server carries the request out and its success answer arrives cut short.
        case truncated
        /// The server carries the request out and its success answer arrives garbled (not JSON).
        case garbled
        /// The server answers this status without carrying the request out, with a `Retry-After` when given.
        case status(Int, retryAfter: String?)
        /// The caller's task is cancelled while the request is in flight (after the server received it).
        case cancelledInFlight
        /// The server refuses with an OAuth error (HTTP 400), without carrying the request out.
        case refusal(String)

        var description: String {
            switch self {
            case .notSent(let code): "not sent (\(code.rawValue))"
            case .answerLost(let code): "answer lost (\(code.rawValue))"
            case .truncated: "truncated answer"
            case .garbled: "garbled answer"
            case .status(let status, let retryAfter): "HTTP \(status)" + (retryAfter.map { ", Retry-After: \($0)" } ?? "")
            case .cancelledInFlight: "cancelled in flight"
            case .refusal(let error): "refused with \(error)"
            }
        }
    }

    private let base: any HTTPTransport
    private var faults: [(path: String, fault: Fault)] = []
    /// Requests the server received (whatever the client then saw), by path.
    private var served: [String: Int] = [:]

    /// Runs once when the server receives the next request to its path, before it answers: what another process does
    /// meanwhile.
    private var meanwhile: [String: @Sendable () async -> Void] = [:]

    init(_ base: any HTTPTransport) { self.base = base }

    /// Runs `action` when the next request to `path` reaches the network, before any fault or answer.
    func whenNextSent(path: String = "/token", _ action: @escaping @Sendable () async -> Void) { meanwhile[path] = action }

    /// Breaks the next requests to `path` (the token endpoint by default), one fault each, in order.
    func inject(_ faults: Fault..., path: String = "/token") { self.faults += faults.map { (path, $0) } }

    /// How many requests to `path` the server received.
    func served(_ path: String = "/token") -> Int { served[path, default: 0] }

    nonisolated func send(_ request: HTTPRequest, body: Data?, limits: HTTPRequestLimits) async throws -> (Data, HTTPResponse) {
        if let action = await takeMeanwhile(for: request.url?.path ?? "") { await action() }
        guard let fault = await nextFault(for: request.url?.path ?? "") else {
            return try await forward(request, body: body, limits: limits)
        }
        switch fault {
        case .notSent(let code):
            throw URLError(code)
        case .answerLost(let code):
            _ = try await forward(request, body: body, limits: limits)
            throw URLError(code)
        case .truncated:
            let (data, response) = try await forward(request, body: body, limits: limits)
            return (data.prefix(data.count / 2), response)
        case .garbled:
            let (_, response) = try await forward(request, body: body, limits: limits)
            return (Data("<html>502 Bad Gateway</html>".utf8), response)
        case .status(let status, let retryAfter):
            var response = HTTPResponse(status: .init(code: status))
            response.headerFields[.contentType] = "application/json"
            if let retryAfter { response.headerFields[.retryAfter] = retryAfter }
            return (Data(#"{"error":"temporarily_unavailable"}"#.utf8), response)
        case .cancelledInFlight:
            _ = try await forward(request, body: body, limits: limits)
            throw CancellationError()
        case .refusal(let error):
            var response = HTTPResponse(status: .badRequest)
            response.headerFields[.contentType] = "application/json"
            return (Data(#"{"error":"\#(error)"}"#.utf8), response)
        }
    }

    private func takeMeanwhile(for path: String) -> (@Sendable () async -> Void)? { meanwhile.removeValue(forKey: path) }

    private func nextFault(for path: String) -> Fault? {
        guard let index = faults.firstIndex(where: { $0.path == path }) else { return nil }
        return faults.remove(at: index).fault
    }

    private func forward(_ request: HTTPRequest, body: Data?, limits: HTTPRequestLimits) async throws -> (Data, HTTPResponse) {
        served[request.url?.path ?? "", default: 0] += 1
        return try await base.send(request, body: body, limits: limits)
    }
}
