#if WebSignIn
import AuthCore
import Foundation

/// Deletes expired pending sign-ins and sessions at most once a minute, on the back of sign-in requests: a browser
/// that starts sign-ins and never finishes them (or a script doing it on purpose) cannot fill the store.
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
#endif
