public import Foundation

/// The source of the current time for expiry checks; inject a manual clock in tests.
public protocol WallClock: Sendable {
    /// The current date.
    func now() -> Date
}

/// The system's wall clock.
public struct SystemWallClock: WallClock {
    /// Creates the system clock.
    public init() {}
    /// `Date()`.
    public func now() -> Date { Date() }
}
