public import AuthCore
public import Foundation

/// A ``WebSessionStore`` in this process's memory: one instance, nothing to set up, nothing survives a restart.
public actor InMemoryWebSessionStore: WebSessionStore {
    private var sessions: [String: WebSessionRecord] = [:]
    /// The users' credentials, in memory.
    public nonisolated let tokenStorage: any TokenStorage

    /// Creates an empty store.
    public init(tokenStorage: any TokenStorage = InMemoryTokenStorage()) {
        self.tokenStorage = tokenStorage
    }

    /// Keeps `session` under `key` (the SHA-256 of the browser's session id).
    public func saveSession(_ session: WebSessionRecord, key: String) {
        sessions[key] = session
    }

    /// The unexpired session under `key`.
    public func session(key: String, now: Date) -> WebSessionRecord? {
        guard let session = sessions[key], session.expiresAt > now else { return nil }
        return session
    }

    /// Forgets the session under `key`.
    public func removeSession(key: String) {
        sessions[key] = nil
    }

    /// Forgets every session whose credential is `account`.
    public func removeSessions(account: StorageKey) {
        sessions = sessions.filter { $0.value.account != account }
    }

    /// Deletes expired sessions and their credentials.
    public func removeExpired(now: Date) async {
        let expired = sessions.filter { $0.value.expiresAt <= now }
        sessions = sessions.filter { $0.value.expiresAt > now }
        for record in expired.values { try? await tokenStorage.removeCredential(for: record.account) }
    }

    /// How many sessions exist, expired ones not yet removed included (for tests and health pages).
    public var sessionCount: Int { sessions.count }
}
