public import AuthCore
public import Foundation
public import HTTPTypes

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// An `HTTPTransport` on URLSession, with redirects refused: the default in apps on Apple platforms
/// (on Linux it is FoundationNetworking over libcurl; servers use AuthAsyncHTTPClient instead).
///
/// Uses an ephemeral configuration by default, so no cookie or cache entry of an auth exchange is persisted.
/// ``send(_:body:limits:)`` streams the body through a delegate: it abandons a response as soon as its
/// `Content-Length` or the bytes received pass the cap, and cancels the request at the overall deadline.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let delegate: StreamingDelegate

    /// Creates a transport with its own session.
    ///
    /// - Parameter configuration: the session configuration; `.ephemeral` with a 30 s request timeout by default.
    public convenience init(configuration: URLSessionConfiguration? = nil) {
        self.init(configuration: configuration, clientCredential: nil)
    }

    /// A transport whose session answers a server's client certificate challenge with the credential
    /// `clientCredential` makes (mutual TLS, `URLSessionTransport+ClientCertificate.swift`), or lets URLSession handle
    /// it when `nil`. A closure, so the delegate holds only what is `Sendable` on every platform.
    init(configuration: URLSessionConfiguration?, clientCredential: (@Sendable () -> URLCredential)?) {
        let configuration =
            configuration
            ?? {
                let ephemeral = URLSessionConfiguration.ephemeral
                ephemeral.timeoutIntervalForRequest = 30
                return ephemeral
            }()
        delegate = StreamingDelegate(clientCredential: clientCredential)
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Sends the request, reading at most `limits.maximumResponseSize` bytes and giving up at `limits.timeout`;
    /// HTTP error statuses are returned, and a redirect comes back as the 3xx response itself.
    public func send(_ request: HTTPRequest, body: Data?, limits: HTTPRequestLimits) async throws -> (Data, HTTPResponse) {
        var urlRequest = try URLRequest(request, body: body)
        // Back-channel calls carry their credentials explicitly; no cookie of another exchange rides along.
        urlRequest.httpShouldHandleCookies = false
        let prepared = urlRequest
        let session = session
        let delegate = delegate
        return try await withDeadline(limits.timeout, onTimeout: { AuthError.requestTimedOut(request, limits) }) {
            let task = session.dataTask(with: prepared)
            let outcome = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    delegate.register(task, limit: limits.maximumResponseSize, continuation: continuation)
                    task.resume()
                }
            } onCancel: {
                task.cancel()
            }
            switch outcome {
            case .complete(let data, let response): return (data, try response.converted(answering: request))
            case .tooLarge: throw AuthError.responseTooLarge(request, limits)
            }
        }
    }
}

#if canImport(FoundationNetworking)
    // FoundationNetworking marks the constant unavailable (libcurl's sessions never ask for a client certificate);
    // this is its value on Apple platforms, where the constant itself is used.
    let clientCertificateAuthenticationMethod = "NSURLAuthenticationMethodClientCertificate"
#else
    let clientCertificateAuthenticationMethod = NSURLAuthenticationMethodClientCertificate
#endif

/// What one data task ended with.
enum StreamOutcome: Sendable {
    case complete(Data, HTTPURLResponse)
    case tooLarge
}

/// Collects each task's body up to its cap, refuses every redirect, so the 3xx reaches the engine, and presents the
/// client certificate, if any, when a server asks for one.
final class StreamingDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private struct Pending: Sendable {
        var continuation: CheckedContinuation<StreamOutcome, any Error>
        var limit: Int
        var data = Data()
        var response: HTTPURLResponse?
    }

    private let pending = LockedValue([Int: Pending]())
    private let clientCredential: (@Sendable () -> URLCredential)?

    init(clientCredential: (@Sendable () -> URLCredential)?) {
        self.clientCredential = clientCredential
    }

    /// How a challenge is answered: the client certificate, only to a server's request for one; anything else —
    /// the server's trust, a password realm — URLSession's default handling (the system's trust evaluation; no
    /// password, as the ephemeral session stores none).
    static func answer(
        _ protectionSpace: URLProtectionSpace, clientCredential: (@Sendable () -> URLCredential)?
    ) -> (URLSession.AuthChallengeDisposition, URLCredential?) {
        guard let clientCredential, protectionSpace.authenticationMethod == clientCertificateAuthenticationMethod else {
            return (.performDefaultHandling, nil)
        }
        return (.useCredential, clientCredential())
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        let (disposition, credential) = Self.answer(challenge.protectionSpace, clientCredential: clientCredential)
        completionHandler(disposition, credential)
    }

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
        // A declared length over the cap is refused before a single body byte is read.
        let refused = pending.withLock { all -> Pending? in
            guard var entry = all[dataTask.taskIdentifier] else { return nil }
            guard response.expectedContentLength <= Int64(entry.limit) else { return all.removeValue(forKey: dataTask.taskIdentifier) }
            entry.response = response as? HTTPURLResponse
            all[dataTask.taskIdentifier] = entry
            return nil
        }
        completionHandler(refused == nil ? .allow : .cancel)
        refused?.continuation.resume(returning: .tooLarge)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        // Past the cap the caller is answered at once and the entry dropped, so nothing more is kept; later chunks
        // (until the cancellation takes effect) find no entry and are discarded.
        let abandoned = pending.withLock { all -> Pending? in
            guard var entry = all[dataTask.taskIdentifier] else { return nil }
            guard entry.data.count + data.count <= entry.limit else { return all.removeValue(forKey: dataTask.taskIdentifier) }
            entry.data.append(data)
            all[dataTask.taskIdentifier] = entry
            return nil
        }
        guard let abandoned else { return }
        abandoned.continuation.resume(returning: .tooLarge)
        // Cancelling from inside the delegate callback is not honoured by FoundationNetworking (libcurl keeps
        // reading), so the cancellation is requested from outside the delegate queue.
        DispatchQueue.global().async { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = pending.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let error {
            entry.continuation.resume(throwing: error)
        } else if let response = entry.response ?? task.response as? HTTPURLResponse {
            entry.continuation.resume(returning: .complete(entry.data, response))
        } else {
            entry.continuation.resume(throwing: URLError(.badServerResponse))
        }
    }
}
