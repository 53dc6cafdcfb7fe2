import AuthCore
import Foundation

/// Sweeps a store's expired used-nonce marks (`WebSessionStore.removeExpiredMarks(now:)`) on a timer of the app's
/// clock, whether or not any sign-in completes: the marks a flood of native sign-ins leaves (each needs a valid ID
/// token) do not outlive their nonces by more than one interval. Stops when the last copy of the core that owns it
/// goes.
final class MarkSweeper: Sendable {
    private let task: Task<Void, Never>

    /// Starts sweeping `store` every `interval` seconds of `clock`.
    init(store: any WebSessionStore, clock: any WallClock, interval: TimeInterval = 60) {
        task = Task.detached(priority: .background) {
            while !Task.isCancelled {
                do {
                    try await clock.sleep(until: clock.now().addingTimeInterval(interval))
                } catch {
                    return
                }
                try? await store.removeExpiredMarks(now: clock.now())
            }
        }
    }

    deinit { task.cancel() }
}
