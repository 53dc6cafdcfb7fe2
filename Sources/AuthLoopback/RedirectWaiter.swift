import AuthCore
import Foundation

/// Hands the first matching redirect from the listener's event loop to the task waiting in `authorize`.
actor RedirectWaiter {
    private var result: Result<URL, any Error>?
    private var continuation: CheckedContinuation<URL, any Error>?
    private(set) var origin: URL?
    /// The first answer the listener refused without it naming the pending state: the reason a timeout gives.
    private(set) var refusal: AuthError?

    func setOrigin(_ origin: URL) { self.origin = origin }

    /// Delivers `url` if nothing was delivered yet; later redirects are ignored (exactly one is accepted).
    func deliver(_ url: URL) {
        finish(.success(url))
    }

    /// Keeps `error` as the reason a timeout gives; returns whether it is the first one kept.
    func noteRefusal(_ error: AuthError) -> Bool {
        guard refusal == nil else { return false }
        refusal = error
        return true
    }

    func fail(_ error: any Error) {
        finish(.failure(error))
    }

    private func finish(_ outcome: Result<URL, any Error>) {
        guard result == nil else { return }
        result = outcome
        continuation?.resume(with: outcome)
        continuation = nil
    }

    func wait() async throws -> URL {
        if let result { return try result.get() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if let result {
                    continuation.resume(with: result)
                } else {
                    self.continuation = continuation
                }
            }
        } onCancel: {
            Task { await self.fail(AuthError(.userCancelled, "The sign-in was cancelled while waiting for the browser.")) }
        }
    }
}
