/// Keeps credentials in memory only; nothing survives the process. The default storage, and the one for tests.
public actor InMemoryTokenStorage: TokenStorage {
    private var credentials: [StorageKey: Credential] = [:]

    /// Creates an empty storage.
    public init() {}

    /// The credential under `key`.
    public func credential(for key: StorageKey) -> Credential? { credentials[key] }
    /// Stores `credential` under `key`.
    public func store(_ credential: Credential, for key: StorageKey) { credentials[key] = credential }
    /// Removes the credential under `key`.
    public func removeCredential(for key: StorageKey) { credentials[key] = nil }
    /// Every key with a credential.
    public func storedKeys() -> [StorageKey] { Array(credentials.keys) }
    /// Whether nothing is stored.
    package var isEmpty: Bool { credentials.isEmpty }
}
