import AuthCore
import Foundation

/// Remembers that the session store just failed to answer, so that the requests behind the one that waited out the
/// store's bound (PostgreSQL's 5 s) are answered 503 at once instead of each waiting as long: a database outage under
/// load costs a browser at most one slow answer, not one per request.
///
/// Once ``window`` has passed since the last failure, one request — the probe — asks the store again while the others
/// keep getting 503 at once; when it answers, every request goes to the store again. So the app recovers by itself
/// within about a second of the database's return. Sessions already in the session cache are answered meanwhile.
final class StoreOutage: Sendable {
    /// How long after a failure the store is not asked at all.
    static let window: TimeInterval = 1

    private struct State {
        var failedAt: Date?
        var probing = false
    }

    // AuthCore's lock, not Synchronization's `Mutex`: that needs macOS 15 and iOS 18, and this module builds for every
    // platform the package supports (macOS 13, iOS 16), trait or none.
    private let state = LockedValue(State())

    /// Runs `read` against the store unless it failed less than ``window`` before `now` or a probe is already asking
    /// it (then throws `storage_unavailable` at once); remembers a `storage_unavailable` failure at `clock`'s time and
    /// forgets it on success.
    func guarding<Value>(now: Date, clock: any WallClock, _ read: () async throws -> Value) async throws -> Value {
        let isProbe = try state.withLock { state -> Bool in
            guard let failed = state.failedAt else { return false }
            if state.probing || (now >= failed && now.timeIntervalSince(failed) < Self.window) {
                throw AuthError(.storageUnavailable, "The session store failed to answer moments ago; it is asked again shortly.")
            }
            state.probing = true
            return true
        }
        do {
            let value = try await read()
            state.withLock { state in
                state.failedAt = nil
                if isProbe { state.probing = false }
            }
            return value
        } catch {
            let unavailable = (error as? AuthError)?.code == .storageUnavailable
            let failedAt = clock.now()
            state.withLock { state in
                if unavailable { state.failedAt = failedAt }
                if isProbe { state.probing = false }
            }
            throw error
        }
    }
}
