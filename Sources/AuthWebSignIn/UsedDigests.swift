import Foundation

/// Single-use values already used, in this process's memory, each until it expires: the default
/// `WebSessionStore.markUsed(digest:until:now:)`.
actor UsedDigests {
    /// The one every store without its own record uses: digests are SHA-256 of random values, so stores never
    /// collide in it.
    static let process = UsedDigests()

    private var expiries: [String: Date] = [:]
    /// The size at which expired entries are next swept: sweeping on every call would make a flood of nonces
    /// quadratic; sweeping when the table doubles keeps each call amortised constant.
    private var sweepAt = 1024

    /// `true` the first time `digest` is marked (until `expiresAt`), `false` while an earlier mark is unexpired.
    func markUsed(_ digest: String, until expiresAt: Date, now: Date) -> Bool {
        if expiries.count >= sweepAt {
            expiries = expiries.filter { $0.value > now }
            sweepAt = max(1024, expiries.count * 2)
        }
        if let earlier = expiries[digest], earlier > now { return false }
        expiries[digest] = expiresAt
        return true
    }

    /// Forgets the marks that expired by `now`.
    func removeExpired(now: Date) {
        expiries = expiries.filter { $0.value > now }
        sweepAt = max(1024, expiries.count * 2)
    }

    /// How many marks are kept, expired ones not yet swept included.
    var count: Int { expiries.count }
}
