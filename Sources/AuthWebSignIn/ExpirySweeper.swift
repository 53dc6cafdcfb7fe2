import AuthCore
import Foundation

/// Deletes expired sessions at most once a minute, on the back of completed sign-ins (the only requests that add
/// any): abandoned sessions do not pile up, and no request pays for a sweep more than once a minute.
actor ExpirySweeper {
    private var lastSweep: Date?
    private let interval: TimeInterval

    init(interval: TimeInterval = 60) { self.interval = interval }

    /// Sweeps `store` when the last sweep is `interval` or more ago; a failure is left for the next one.
    func sweepIfDue(_ store: any WebSessionStore, now: Date) async {
        if let lastSweep, now.timeIntervalSince(lastSweep) < interval { return }
        lastSweep = now
        try? await store.removeExpired(now: now)
    }
}
