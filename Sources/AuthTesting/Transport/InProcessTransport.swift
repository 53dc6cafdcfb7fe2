public import AuthCore
public import Foundation

/// An `HTTPTransport` that hands requests to in-process handlers by host: no sockets, no network.
public struct InProcessTransport: HTTPTransport {
    /// Answers one request.
    public typealias Handler = @Sendable (CapturedRequest) async throws -> (Data, HTTPResponse)

    private let routes: [String: Handler]

    /// Creates a transport with handlers keyed by host (lowercase, without port).
    public init(routes: [String: Handler] = [:]) {
        self.routes = Dictionary(uniqueKeysWithValues: routes.map { ($0.key.lowercased(), $0.value) })
    }

    /// A copy that also routes `host` to `handler`.
    public func adding(host: String, handler: @escaping Handler) -> InProcessTransport {
        var routes = self.routes
        routes[host.lowercased()] = handler
        return InProcessTransport(routes: routes)
    }

    /// Routes the request to its host's handler; the size cap is checked on the complete body.
    ///
    /// - Throws: `URLError(.cannotFindHost)` for an unknown host, as a real network would; `response_too_large`.
    public func send(_ request: HTTPRequest, body: Data?, limits: HTTPRequestLimits) async throws -> (Data, HTTPResponse) {
        guard let host = request.url?.host?.lowercased(), let handler = routes[host] else {
            throw URLError(.cannotFindHost)
        }
        let (data, response) = try await handler(CapturedRequest(request, body: body))
        guard data.count <= limits.maximumResponseSize else { throw AuthError.responseTooLarge(request, limits) }
        return (data, response)
    }
}
