public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// How an HTTP request is sent: URLSession by default, in-process in tests, or your own client.
///
/// A transport sends exactly one request and returns the response as received. It must not follow redirects
/// (the engine refuses them for back-channel calls) and must not log bodies or the `Authorization` header.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the body and the response.
    ///
    /// - Throws: only for transport failures (no response); HTTP error statuses are returned, not thrown.
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}
