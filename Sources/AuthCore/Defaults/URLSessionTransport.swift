public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// The default ``HTTPTransport``: URLSession (FoundationNetworking on Linux), with redirects refused.
///
/// Uses an ephemeral configuration by default, so no cookie or cache entry of an auth exchange is persisted.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession

    /// Creates a transport with its own session.
    ///
    /// - Parameter configuration: the session configuration; `.ephemeral` with a 30 s request timeout by default.
    public init(configuration: URLSessionConfiguration? = nil) {
        let configuration = configuration ?? {
            let ephemeral = URLSessionConfiguration.ephemeral
            ephemeral.timeoutIntervalForRequest = 30
            return ephemeral
        }()
        session = URLSession(configuration: configuration, delegate: RedirectRefusingDelegate(), delegateQueue: nil)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Sends the request; HTTP error statuses are returned, redirects come back as the 3xx response itself.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return (data, http)
    }
}

/// Answers every redirect with "don't follow", so the 3xx reaches the engine, which refuses it.
private final class RedirectRefusingDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
