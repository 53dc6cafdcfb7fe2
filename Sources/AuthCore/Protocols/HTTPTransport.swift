public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// How an HTTP request is sent: URLSession by default, in-process in tests, or your own client.
///
/// A transport sends exactly one request and returns the response as received. It must not follow redirects
/// (the engine refuses them for back-channel calls) and must not log bodies or the `Authorization` header.
///
/// The engine always calls ``send(_:limits:)``. Its default implementation calls ``send(_:)`` under the overall
/// deadline and checks the size once the body is complete, which bounds time but not memory; a transport that
/// can stream (``URLSessionTransport`` does) implements it and stops reading as soon as the cap is passed.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the body and the response.
    ///
    /// - Throws: only for transport failures (no response); HTTP error statuses are returned, not thrown.
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)

    /// Sends `request` under `limits`: the body is capped while it arrives and the whole exchange has one deadline.
    ///
    /// - Throws: `response_too_large` past the size cap, `timed_out` past the deadline, `CancellationError` when
    ///   the calling task is cancelled, or a transport failure.
    func send(_ request: URLRequest, limits: HTTPRequestLimits) async throws -> (Data, HTTPURLResponse)
}

extension HTTPTransport {
    /// The default: ``send(_:)`` raced against the deadline (the wait ends on time even if this transport ignores
    /// cancellation), then the size checked on the complete body.
    public func send(_ request: URLRequest, limits: HTTPRequestLimits) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await withDeadline(limits.timeout, onTimeout: { AuthError.requestTimedOut(request, limits) }) {
            try await self.send(request)
        }
        guard data.count <= limits.maximumResponseSize else { throw AuthError.responseTooLarge(request, limits) }
        return (data, response)
    }
}

extension AuthError {
    /// `timed_out` for a request that did not complete within `limits.timeout`.
    package static func requestTimedOut(_ request: URLRequest, _ limits: HTTPRequestLimits) -> AuthError {
        AuthError(
            .timedOut,
            "\(request.httpMethod ?? "GET") \(request.url?.host ?? "?")\(request.url?.path ?? "") did not complete within \(limits.timeout); the provider may be down or deliberately slow."
        )
    }

    /// `response_too_large` for a body over `limits.maximumResponseSize`.
    package static func responseTooLarge(_ request: URLRequest, _ limits: HTTPRequestLimits) -> AuthError {
        AuthError(
            .responseTooLarge,
            "\(request.httpMethod ?? "GET") \(request.url?.host ?? "?")\(request.url?.path ?? "") sent more than \(limits.maximumResponseSize) bytes; the response was abandoned."
        )
    }
}
