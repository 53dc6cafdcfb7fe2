public import AuthCore
public import Foundation

/// A ``WebSessionStore`` in this process's memory: one instance, nothing to set up, nothing survives a restart.
public actor InMemoryWebSessionStore: WebSessionStore {
    private var sessions: [String: WebSessionRecord] = [:]
    /// Session keys by ``WebSessionRecord/subjectIndex`` and by ``WebSessionRecord/providerSessionIndex``.
    private var bySubject: [String: Set<String>] = [:]
    private var byProviderSession: [String: Set<String>] = [:]
    /// Users' names by ``WebSessionRecord/subjectIndex`` (see ``rememberDisplayName(_:subjectIndex:)``).
    private var names: [String: String] = [:]
    /// Credentials without a session at the last sweep: removed if they still have none at the next.
    private var suspectedOrphans: Set<StorageKey> = []
    /// The users' credentials, in memory.
    public nonisolated let tokenStorage: any TokenStorage

    /// Creates an empty store.
    public init(tokenStorage: any TokenStorage = InMemoryTokenStorage()) {
        self.tokenStorage = tokenStorage
    }

    /// Keeps `session` under `key` (the SHA-256 of the browser's session id).
    public func saveSession(_ session: WebSessionRecord, key: String) {
        unindex(key)
        sessions[key] = session
        bySubject[session.subjectIndex, default: []].insert(key)
        if let index = session.providerSessionIndex { byProviderSession[index, default: []].insert(key) }
    }

    /// The unexpired session under `key`.
    public func session(key: String, now: Date) -> WebSessionRecord? {
        guard let session = sessions[key], session.expiresAt > now else { return nil }
        return session
    }

    /// Forgets the session under `key`.
    public func removeSession(key: String) {
        unindex(key)
        sessions[key] = nil
    }

    /// Forgets every session whose credential is `account`.
    public func removeSessions(account: StorageKey) {
        for (key, record) in sessions where record.account == account { removeSession(key: key) }
    }

    /// Removes and returns the sessions of `subjectIndex` and/or `providerSessionIndex`, by index.
    public func removeSessions(subjectIndex: String?, providerSessionIndex: String?) -> [WebSessionRecord] {
        let keys: Set<String>
        switch (subjectIndex, providerSessionIndex) {
        case (let subject?, let session?): keys = bySubject[subject, default: []].intersection(byProviderSession[session, default: []])
        case (let subject?, nil): keys = bySubject[subject, default: []]
        case (nil, let session?): keys = byProviderSession[session, default: []]
        case (nil, nil): keys = []
        }
        return keys.compactMap { key in
            defer { removeSession(key: key) }
            return sessions[key]
        }
    }

    /// The unexpired sessions of `subjectIndex`, left in place.
    public func sessions(subjectIndex: String, now: Date) -> [WebSessionRecord] {
        bySubject[subjectIndex, default: []].compactMap { session(key: $0, now: now) }
    }

    /// Removes and returns the oldest sessions of `subjectIndex` beyond the newest `limit`.
    public func removeSessions(subjectIndex: String, keepingNewest limit: Int) -> [WebSessionRecord] {
        let keys = bySubject[subjectIndex, default: []]
        guard keys.count > limit else { return [] }
        let oldest = keys.compactMap { key in sessions[key].map { (key, $0) } }
            .sorted { ($0.1.createdAt, $0.0) > ($1.1.createdAt, $1.0) }
            .dropFirst(max(0, limit))
        return oldest.map { key, record in
            removeSession(key: key)
            return record
        }
    }

    /// Deletes expired sessions and their credentials, and credentials without a session at two sweeps in a row.
    public func removeExpired(now: Date) async {
        let expired = sessions.filter { $0.value.expiresAt <= now }
        for key in expired.keys { removeSession(key: key) }
        for record in expired.values { try? await tokenStorage.removeCredential(for: record.account) }
        guard let stored = try? await tokenStorage.storedKeys() else { return }
        let referenced = Set(sessions.values.map(\.account))
        let orphans = Set(stored).subtracting(referenced)
        for key in orphans.intersection(suspectedOrphans) { try? await tokenStorage.removeCredential(for: key) }
        suspectedOrphans = orphans.subtracting(suspectedOrphans)
    }

    private func unindex(_ key: String) {
        guard let old = sessions[key] else { return }
        bySubject[old.subjectIndex]?.remove(key)
        if bySubject[old.subjectIndex]?.isEmpty == true { bySubject[old.subjectIndex] = nil }
        if let index = old.providerSessionIndex {
            byProviderSession[index]?.remove(key)
            if byProviderSession[index]?.isEmpty == true { byProviderSession[index] = nil }
        }
    }

    /// Keeps `name` for the user `subjectIndex`.
    public func rememberDisplayName(_ name: String, subjectIndex: String) {
        names[subjectIndex] = name
    }

    /// The name kept for the user `subjectIndex`.
    public func rememberedDisplayName(subjectIndex: String) -> String? {
        names[subjectIndex]
    }

    /// Forgets the name kept for the user `subjectIndex`.
    public func forgetDisplayName(subjectIndex: String) {
        names[subjectIndex] = nil
    }

    /// How many sessions exist, expired ones not yet removed included (for tests and health pages).
    public var sessionCount: Int { sessions.count }
}
