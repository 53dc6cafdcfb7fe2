/// Where credentials live between launches: memory, a file, the Keychain, or your own store.
///
/// Implementations must be safe to call from many tasks at once and must never log credential contents.
/// A corrupted entry is reported as `storage_corrupted` for that key only; other keys stay readable.
///
/// ## Sharing a signed-in user between processes
///
/// An app and its extension, two command-line invocations or two editor windows often read one stored session.
/// With rotating refresh tokens, two of them refreshing at once means one wins and the other presents a token the
/// provider already rotated — and the user is logged out. A storage that several processes share implements
/// ``withExclusiveAccess(to:_:)`` with a lock those processes all see (AuthFileStorage's `FileTokenStorage` uses an
/// advisory file lock; for the Keychain, wrap it in its `LockingTokenStorage` whose lock directory is the shared app-group
/// container). The engine refreshes under that section and first re-reads the credential, so a process that finds
/// a token another process just refreshed uses it and sends nothing.
public protocol TokenStorage: Sendable {
    /// The credential stored under `key`, or `nil` when there is none.
    func credential(for key: StorageKey) async throws -> Credential?
    /// Stores `credential` under `key`, replacing any previous one atomically.
    func store(_ credential: Credential, for key: StorageKey) async throws
    /// Removes the credential under `key`; removing a missing key is not an error.
    func removeCredential(for key: StorageKey) async throws
    /// Every key that has a credential.
    func storedKeys() async throws -> [StorageKey]

    /// Runs `body` while no other process (or task) sharing this storage is inside the same section for `key`.
    ///
    /// The engine wraps read-refresh-write in it. The default implementation takes no lock: it suits storage only
    /// one process uses (the engine already coalesces refreshes within a process).
    ///
    /// - Throws: `storage_unavailable` when the section cannot be entered in reasonable time (say what holds it),
    ///   or what `body` throws.
    func withExclusiveAccess<T: Sendable>(to key: StorageKey, _ body: @Sendable () async throws -> T) async throws -> T
}

extension TokenStorage {
    /// No lock: for storage that a single process uses.
    public func withExclusiveAccess<T: Sendable>(to key: StorageKey, _ body: @Sendable () async throws -> T) async throws -> T {
        try await body()
    }
}
