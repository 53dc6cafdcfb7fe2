import Foundation

/// Runs `operation` with an overall deadline and returns as soon as either finishes — even when `operation`
/// ignores cancellation (a third-party transport), which is then cancelled and left to wind down on its own.
///
/// The caller's own cancellation ends the wait at once too (`CancellationError`).
///
/// - Throws: what `onTimeout` returns when the deadline passes first; otherwise what `operation` throws.
package func withDeadline<T: Sendable>(
    _ timeout: Duration,
    onTimeout: @escaping @Sendable () -> any Error,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let race = DeadlineRace<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let work = Task {
                do { race.finish(.success(try await operation())) } catch { race.finish(.failure(error)) }
            }
            let timer = Task {
                try? await Task.sleep(for: timeout)
                if !Task.isCancelled { race.finish(.failure(onTimeout())) }
            }
            race.start(continuation, cancelling: [work, timer])
        }
    } onCancel: {
        race.finish(.failure(CancellationError()))
    }
}

/// The shared state of one ``withDeadline(_:onTimeout:_:)`` call: the first outcome resumes the caller, later
/// ones are dropped, and both tasks are cancelled once it is decided.
private final class DeadlineRace<T: Sendable>: Sendable {
    private struct State: Sendable {
        var continuation: CheckedContinuation<T, any Error>?
        var outcome: Result<T, any Error>?
        var tasks: [Task<Void, Never>] = []
    }

    private let state = LockedValue(State())

    func start(_ continuation: CheckedContinuation<T, any Error>, cancelling tasks: [Task<Void, Never>]) {
        let decided: Result<T, any Error>? = state.withLock { state in
            state.tasks = tasks
            if let outcome = state.outcome { return outcome }
            state.continuation = continuation
            return nil
        }
        if let decided {
            tasks.forEach { $0.cancel() }
            continuation.resume(with: decided)
        }
    }

    func finish(_ outcome: Result<T, any Error>) {
        let (continuation, tasks): (CheckedContinuation<T, any Error>?, [Task<Void, Never>]) = state.withLock { state in
            guard state.outcome == nil else { return (nil, []) }
            state.outcome = outcome
            defer { state.continuation = nil }
            return (state.continuation, state.tasks)
        }
        tasks.forEach { $0.cancel() }
        continuation?.resume(with: outcome)
    }
}
