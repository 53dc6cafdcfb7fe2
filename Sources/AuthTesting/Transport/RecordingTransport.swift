public import AuthCore
public import Foundation

/// Wraps a transport and records every request and its status, to assert what was actually sent.
public actor RecordingTransport: HTTPTransport {
    /// One request and what came of it.
    public struct Exchange: Sendable {
        /// The request as sent.
        public let request: CapturedRequest
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
    public func send(_ request: HTTPRequest, body: Data?, limits: HTTPRequestLimits) async throws -> (Data, HTTPResponse) {
        let captured = CapturedRequest(request, body: body)
        do {
            let (data, response) = try await base.send(request, body: body, limits: limits)
            exchanges.append(Exchange(request: captured, status: response.status.code, responseBody: data))
            return (data, response)
        } catch {
            exchanges.append(Exchange(request: captured, status: nil, responseBody: Data()))
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
