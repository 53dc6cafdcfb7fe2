import AuthCore
import Foundation

/// Token storage in memory that counts what a full scan costs: `storedKeys()` and credential reads.
actor CountingTokenStorage: TokenStorage {
    private let base = InMemoryTokenStorage()
    private(set) var keyListings = 0
    private(set) var credentialReads = 0

    func credential(for key: StorageKey) async throws -> Credential? {
        credentialReads += 1
        return await base.credential(for: key)
    }

    func store(_ credential: Credential, for key: StorageKey) async throws { await base.store(credential, for: key) }
    func removeCredential(for key: StorageKey) async throws { await base.removeCredential(for: key) }

    func storedKeys() async throws -> [StorageKey] {
        keyListings += 1
        return await base.storedKeys()
    }

    /// Starts counting again.
    func reset() {
        keyListings = 0
        credentialReads = 0
    }
}
