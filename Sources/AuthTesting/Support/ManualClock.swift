public import AuthCore
public import Foundation

/// A wall clock that moves only when told to, for testing expiry.
public final class ManualClock: WallClock {
    private let current: LockedValue<Date>

    /// The default start: 2026-01-01T00:00:00Z, as seconds since 1970.
    public static let defaultEpoch: Double = 1_767_225_600

    /// Creates a clock at `date` (by default `defaultEpoch`).
    public init(_ date: Date = Date(timeIntervalSince1970: ManualClock.defaultEpoch)) {
        current = LockedValue(date)
    }

    /// The clock's current date.
    public func now() -> Date { current.withLock { $0 } }

    /// Moves the clock forward by `interval` seconds.
    public func advance(by interval: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(interval) }
    }

    /// Sets the clock to `date`.
    public func set(_ date: Date) {
        current.withLock { $0 = date }
    }
}
