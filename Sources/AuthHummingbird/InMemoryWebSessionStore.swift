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

    /// Keeps `signIn` until it expires.
    public func savePendingSignIn(_ signIn: PendingWebSignIn) {
        pending[signIn.state] = signIn
    }

    /// Removes and returns the unexpired pending sign-in with `state`, at most once.
    public func takePendingSignIn(state: String, now: Date) -> PendingWebSignIn? {
        guard let entry = pending.removeValue(forKey: state), entry.expiresAt > now else { return nil }
        return entry
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

    /// Deletes expired pending sign-ins and sessions.
    public func removeExpired(now: Date) {
        pending = pending.filter { $0.value.expiresAt > now }
        sessions = sessions.filter { $0.value.expiresAt > now }
    }

    /// How many sign-ins are waiting and how many sessions exist (for tests and health pages).
    public var counts: (pendingSignIns: Int, sessions: Int) { (pending.count, sessions.count) }
}
#endif
