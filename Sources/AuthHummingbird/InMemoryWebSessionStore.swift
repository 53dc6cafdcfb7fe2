#if WebSignIn
public import AuthCore
public import Foundation

/// A ``WebSessionStore`` in this process's memory: one instance, nothing to set up, nothing survives a restart.
public actor InMemoryWebSessionStore: WebSessionStore {
    private var pending: [String: PendingWebSignIn] = [:]
    private var sessions: [String: WebSessionRecord] = [:]
    /// The users' credentials, in memory.
    public nonisolated let tokenStorage: any TokenStorage

    /// Creates an empty store.
    public init(tokenStorage: any TokenStorage = InMemoryTokenStorage()) {
        self.tokenStorage = tokenStorage
    }

    public func savePendingSignIn(_ signIn: PendingWebSignIn) {
        pending[signIn.state] = signIn
    }

    public func takePendingSignIn(state: String, now: Date) -> PendingWebSignIn? {
        guard let entry = pending.removeValue(forKey: state), entry.expiresAt > now else { return nil }
        return entry
    }

    public func saveSession(_ session: WebSessionRecord, key: String) {
        sessions[key] = session
    }

    public func session(key: String, now: Date) -> WebSessionRecord? {
        guard let session = sessions[key], session.expiresAt > now else { return nil }
        return session
    }

    public func removeSession(key: String) {
        sessions[key] = nil
    }

    public func removeExpired(now: Date) {
        pending = pending.filter { $0.value.expiresAt > now }
        sessions = sessions.filter { $0.value.expiresAt > now }
    }

    /// How many sign-ins are waiting and how many sessions exist (for tests and health pages).
    public var counts: (pendingSignIns: Int, sessions: Int) { (pending.count, sessions.count) }
}
#endif
