public import AuthCore
public import Foundation
public import HTTPTypes

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A transport written against the earlier `URLRequest` seam, kept working with a one-word change.
///
/// Such a transport implemented `send(_: URLRequest) async throws -> (Data, HTTPURLResponse)`. Declare conformance
/// to `URLRequestTransport` instead of `HTTPTransport` and keep that method: this protocol provides
/// ``send(_:body:limits:)`` by converting the request and the response (swift-http-types' HTTPTypesFoundation),
/// racing the deadline and checking the size cap once the body is complete — which bounds time but not memory.
/// Implement ``send(_:body:limits:)`` itself to stream under the cap.
///
/// ```swift
/// struct CorporateProxyTransport: URLRequestTransport {        // was `: HTTPTransport`
///     func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) { … }
/// }
/// ```
public protocol URLRequestTransport: HTTPTransport {
    /// Sends `request` and returns the body and the response; HTTP error statuses are returned, not thrown, and
    /// redirects must not be followed.
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}

extension URLRequestTransport {
    /// ``send(_:)`` on the converted request, raced against the deadline (the wait ends on time even if the
    /// transport ignores cancellation), then the size checked on the complete body.
    public func send(_ request: HTTPRequest, body: Data?, limits: HTTPRequestLimits) async throws -> (Data, HTTPResponse) {
        let prepared = try URLRequest(request, body: body)
        let (data, response) = try await withDeadline(limits.timeout, onTimeout: { AuthError.requestTimedOut(request, limits) }) {
            try await self.send(prepared)
        }
        guard data.count <= limits.maximumResponseSize else { throw AuthError.responseTooLarge(request, limits) }
        return (data, try response.converted(answering: request))
    }
}
