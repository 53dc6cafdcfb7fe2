public import AuthCore
public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// An `HTTPTransport` that hands requests to in-process handlers by host: no sockets, no network.
public struct InProcessTransport: HTTPTransport {
    /// Answers one request.
    public typealias Handler = @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)

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

    /// Routes the request to its host's handler.
    ///
    /// - Throws: `URLError(.cannotFindHost)` for an unknown host, as a real network would.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        guard let host = request.url?.host?.lowercased(), let handler = routes[host] else {
            throw URLError(.cannotFindHost)
        }
        return try await handler(request)
    }
}

extension HTTPURLResponse {
    /// A response for in-process handlers.
    public static func make(url: URL, status: Int, headers: [String: String] = [:]) -> HTTPURLResponse {
        // The initializer fails only for an invalid HTTP version, which this never passes.
        HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!
    }
}
