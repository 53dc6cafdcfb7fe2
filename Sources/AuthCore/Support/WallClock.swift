public import Foundation

/// The source of the current time for expiry checks and deadlines; inject a manual clock in tests.
public protocol WallClock: Sendable {
    /// The current date.
    func now() -> Date

    /// Suspends until this clock reads `deadline` or later (a deadline in the past returns at once).
    ///
    /// Deadlines the engine and its callers wait on (how long a native app may take to call back) go through the clock, so a test's
    /// manual clock decides when they pass and no test sleeps in real time. The default waits in real time.
    ///
    /// - Throws: `CancellationError` when the waiting task is cancelled.
    func sleep(until deadline: Date) async throws
}

extension WallClock {
    /// Waits in real time, re-reading ``now()`` after each wake-up until `deadline` has passed.
    public func sleep(until deadline: Date) async throws {
        while true {
            let remaining = deadline.timeIntervalSince(now())
            guard remaining > 0 else { return }
            try await Task.sleep(for: .milliseconds(Int64((remaining * 1000).rounded(.up))))
        }
    }
}

/// The system's wall clock.
public struct SystemWallClock: WallClock {
    /// Creates the system clock.
    public init() {}
    /// `Date()`.
    public func now() -> Date { Date() }
}
