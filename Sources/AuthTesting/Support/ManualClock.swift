public import AuthCore
public import Foundation

/// A wall clock that moves only when told to, for testing expiry and deadlines.
///
/// ``sleep(until:)`` suspends until ``advance(by:)`` or ``set(_:)`` moves the clock to the deadline, so a test
/// decides when a timeout passes instead of waiting for it.
public final class ManualClock: WallClock {
    private struct Sleeper {
        let deadline: Date
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Date
        var sleepers: [UInt64: Sleeper] = [:]
        /// Sleeps that have begun but not ended (suspended or about to be).
        var unsettled: Set<UInt64> = []
        /// Sleeps cancelled before they suspended.
        var cancelled: Set<UInt64> = []
        var nextID: UInt64 = 0
    }

    private let state: LockedValue<State>

    /// The default start: 2026-01-01T00:00:00Z, as seconds since 1970.
    public static let defaultEpoch: Double = 1_767_225_600

    /// Creates a clock at `date` (by default `defaultEpoch`).
    public init(_ date: Date = Date(timeIntervalSince1970: ManualClock.defaultEpoch)) {
        state = LockedValue(State(now: date))
    }

    /// The clock's current date.
    public func now() -> Date { state.withLock { $0.now } }

    /// How many tasks are suspended in ``sleep(until:)``.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Moves the clock forward by `interval` seconds, waking the sleepers whose deadline has come.
    public func advance(by interval: TimeInterval) {
        wake { $0.now = $0.now.addingTimeInterval(interval) }
    }

    /// Sets the clock to `date`, waking the sleepers whose deadline has come.
    public func set(_ date: Date) {
        wake { $0.now = date }
    }

    /// Suspends until the clock is moved to `deadline` or later.
    public func sleep(until deadline: Date) async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            state.unsettled.insert(state.nextID)
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    if state.cancelled.remove(id) != nil {
                        state.unsettled.remove(id)
                        return .failure(CancellationError())
                    }
                    if state.now >= deadline {
                        state.unsettled.remove(id)
                        return .success(())
                    }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                if let sleeper = state.sleepers.removeValue(forKey: id) {
                    state.unsettled.remove(id)
                    return sleeper
                }
                if state.unsettled.contains(id) { state.cancelled.insert(id) }  // cancelled before it suspended
                return nil
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    private func wake(_ move: (inout State) -> Void) {
        let due = state.withLock { state -> [Sleeper] in
            move(&state)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys {
                state.sleepers[id] = nil
                state.unsettled.remove(id)
            }
            return Array(due.values)
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}
