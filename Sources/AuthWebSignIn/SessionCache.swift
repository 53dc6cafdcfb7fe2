import AuthCore
import Foundation

/// The session records an instance read from a store shared by several instances, trusted for a short lifetime so
/// most requests of a signed-in browser are answered without a database round trip.
///
/// The bound it trades: a sign-out or back-channel logout carried out by *another* instance takes effect here within
/// the lifetime (``WebSignInConfiguration/sessionCacheLifetime``); on this instance, at once (the handlers remove
/// what they end). Only sessions that exist are kept — a forged cookie is never remembered — and at most
/// ``capacity`` of them.
actor SessionCache {
    private var entries: [String: (record: WebSessionRecord, readAt: Date)] = [:]
    private let lifetime: TimeInterval
    /// Beyond this many sessions the cache starts over (cheaper than tracking age, and rare).
    static let capacity = 10_000

    init(lifetime: TimeInterval) {
        self.lifetime = lifetime
    }

    /// The record of `key` read less than the lifetime ago and not expired at `now`.
    func record(_ key: String, now: Date) -> WebSessionRecord? {
        guard let entry = entries[key] else { return nil }
        guard now.timeIntervalSince(entry.readAt) < lifetime, entry.record.expiresAt > now else {
            entries[key] = nil
            return nil
        }
        return entry.record
    }

    /// Remembers `record` as read at `now`.
    func keep(_ record: WebSessionRecord, for key: String, now: Date) {
        if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
        entries[key] = (record, now)
    }

    /// Forgets the session of `key` (ended on this instance).
    func forget(_ key: String) {
        entries[key] = nil
    }

    /// Forgets every session whose credential is `account` (a back-channel logout on this instance).
    func forget(account: StorageKey) {
        entries = entries.filter { $0.value.record.account != account }
    }
}
