public import AuthCore
public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Wraps a transport and records every request and its status, to assert what was actually sent.
public actor RecordingTransport: HTTPTransport {
    /// One request and what came of it.
    public struct Exchange: Sendable {
        /// The request as sent.
        public let request: URLRequest
        /// The response status, or `nil` when the transport threw.
        public let status: Int?
        /// The response body (empty when the transport threw).
        public let responseBody: Data

        /// The request's form body parameters.
        public var formParameters: [String: String] {
            let body = request.httpBody.flatMap { String(data: $0, encoding: .utf8) } ?? ""
            return Dictionary(FormEncoding.decode(body), uniquingKeysWith: { first, _ in first })
        }
    }

    private let base: any HTTPTransport
    /// Every exchange so far, in order.
    public private(set) var exchanges: [Exchange] = []

    /// Wraps `base`.
    public init(_ base: any HTTPTransport) {
        self.base = base
    }

    /// Sends through the wrapped transport and records the exchange.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        do {
            let (data, response) = try await base.send(request)
            exchanges.append(Exchange(request: request, status: response.statusCode, responseBody: data))
            return (data, response)
        } catch {
            exchanges.append(Exchange(request: request, status: nil, responseBody: Data()))
            throw error
        }
    }

    /// The exchanges whose URL path ends with `suffix`.
    public func exchanges(pathSuffix suffix: String) -> [Exchange] {
        exchanges.filter { $0.request.url?.path.hasSuffix(suffix) ?? false }
    }

    /// Forgets the recorded exchanges.
    public func reset() { exchanges.removeAll() }
}
