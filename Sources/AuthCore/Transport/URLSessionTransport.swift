public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// The default ``HTTPTransport``: URLSession (FoundationNetworking on Linux), with redirects refused.
///
/// Uses an ephemeral configuration by default, so no cookie or cache entry of an auth exchange is persisted.
/// ``send(_:limits:)`` streams the body through a delegate: it abandons a response as soon as its
/// `Content-Length` or the bytes received pass the cap, and cancels the request at the overall deadline.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let delegate: StreamingDelegate

    /// Creates a transport with its own session.
    ///
    /// - Parameter configuration: the session configuration; `.ephemeral` with a 30 s request timeout by default.
    public init(configuration: URLSessionConfiguration? = nil) {
        let configuration = configuration ?? {
            let ephemeral = URLSessionConfiguration.ephemeral
            ephemeral.timeoutIntervalForRequest = 30
            return ephemeral
        }()
        delegate = StreamingDelegate()
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Sends the request with the default limits (1 MiB, 30 s); HTTP error statuses are returned, redirects come
    /// back as the 3xx response itself.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await send(request, limits: HTTPRequestLimits())
    }

    /// Sends the request, reading at most `limits.maximumResponseSize` bytes and giving up at `limits.timeout`.
    public func send(_ request: URLRequest, limits: HTTPRequestLimits) async throws -> (Data, HTTPURLResponse) {
        let session = session
        let delegate = delegate
        return try await withDeadline(limits.timeout, onTimeout: { AuthError.requestTimedOut(request, limits) }) {
            let task = session.dataTask(with: request)
            let outcome = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    delegate.register(task, limit: limits.maximumResponseSize, continuation: continuation)
                    task.resume()
                }
            } onCancel: {
                task.cancel()
            }
            switch outcome {
            case .complete(let data, let response): return (data, response)
            case .tooLarge: throw AuthError.responseTooLarge(request, limits)
            }
        }
    }
}

/// What one data task ended with.
private enum StreamOutcome: Sendable {
    case complete(Data, HTTPURLResponse)
    case tooLarge
}

/// Collects each task's body up to its cap and refuses every redirect, so the 3xx reaches the engine.
private final class StreamingDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private struct Pending: Sendable {
        var continuation: CheckedContinuation<StreamOutcome, any Error>
        var limit: Int
        var data = Data()
        var response: HTTPURLResponse?
        var tooLarge = false
    }

    private let pending = LockedValue([Int: Pending]())

    func register(_ task: URLSessionTask, limit: Int, continuation: CheckedContinuation<StreamOutcome, any Error>) {
        pending.withLock { $0[task.taskIdentifier] = Pending(continuation: continuation, limit: limit) }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let proceed = pending.withLock { all -> Bool in
            guard var entry = all[dataTask.taskIdentifier] else { return false }
            entry.response = response as? HTTPURLResponse
            // A declared length over the cap is refused before a single body byte is read.
            if response.expectedContentLength > Int64(entry.limit) { entry.tooLarge = true }
            all[dataTask.taskIdentifier] = entry
            return !entry.tooLarge
        }
        completionHandler(proceed ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overLimit = pending.withLock { all -> Bool in
            guard var entry = all[dataTask.taskIdentifier], !entry.tooLarge else { return false }
            if entry.data.count + data.count > entry.limit {
                entry.tooLarge = true
                entry.data = Data()
            } else {
                entry.data.append(data)
            }
            all[dataTask.taskIdentifier] = entry
            return entry.tooLarge
        }
        if overLimit { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = pending.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if entry.tooLarge {
            entry.continuation.resume(returning: .tooLarge)
        } else if let error {
            entry.continuation.resume(throwing: error)
        } else if let response = entry.response ?? task.response as? HTTPURLResponse {
            entry.continuation.resume(returning: .complete(entry.data, response))
        } else {
            entry.continuation.resume(throwing: URLError(.badServerResponse))
        }
    }
}
