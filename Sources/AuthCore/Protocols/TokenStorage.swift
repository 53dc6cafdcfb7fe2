/// Where credentials live between launches: memory, a file, the Keychain, or your own store.
///
/// Implementations must be safe to call from many tasks at once and must never log credential contents.
/// A corrupted entry is reported as `storage_corrupted` for that key only; other keys stay readable.
public protocol TokenStorage: Sendable {
    /// The credential stored under `key`, or `nil` when there is none.
    func credential(for key: StorageKey) async throws -> Credential?
    /// Stores `credential` under `key`, replacing any previous one atomically.
    func store(_ credential: Credential, for key: StorageKey) async throws
    /// Removes the credential under `key`; removing a missing key is not an error.
    func removeCredential(for key: StorageKey) async throws
    /// Every key that has a credential.
    func storedKeys() async throws -> [StorageKey]
}
