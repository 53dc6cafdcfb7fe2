public import AuthCore
public import Foundation

/// Any ``TokenStorage`` with a cross-process exclusive section: an advisory file lock per account in a directory
/// every sharing process can reach.
///
/// Use it where the storage itself has no lock — the Keychain shared by an app and its extensions, with the lock
/// directory in the app-group container (`FileManager.containerURL(forSecurityApplicationGroupIdentifier:)`):
///
/// ```swift
/// let keychain = KeychainTokenStorage(description: KeychainItemDescription(accessGroup: group))
/// let storage = LockingTokenStorage(keychain, lockDirectory: container)
/// ```
///
/// The operating system releases a lock when its process ends, even on a crash, so a killed process never wedges
/// the others.
public struct LockingTokenStorage: TokenStorage {
    /// The storage that keeps the credentials.
    package let base: any TokenStorage
    /// Where the lock files live (created on first use, mode 0700).
    package let lockDirectory: URL
    /// How long to wait for another process's section to end.
    package let lockTimeout: Duration

    /// Wraps `base`.
    ///
    /// - Parameters:
    ///   - base: the storage that keeps the credentials.
    ///   - lockDirectory: a directory every process sharing `base` can reach.
    ///   - lockTimeout: how long to wait for another process (10 s by default).
    public init(_ base: any TokenStorage, lockDirectory: URL, lockTimeout: Duration = .seconds(10)) {
        self.base = base
        self.lockDirectory = lockDirectory
        self.lockTimeout = lockTimeout
    }

    /// The base storage's credential.
    public func credential(for key: StorageKey) async throws -> Credential? { try await base.credential(for: key) }
    /// Stores in the base storage.
    public func store(_ credential: Credential, for key: StorageKey) async throws { try await base.store(credential, for: key) }
    /// Removes from the base storage.
    public func removeCredential(for key: StorageKey) async throws { try await base.removeCredential(for: key) }
    /// The base storage's keys.
    public func storedKeys() async throws -> [StorageKey] { try await base.storedKeys() }

    /// Runs `body` holding the account's lock file in the lock directory.
    public func withExclusiveAccess<T: Sendable>(to key: StorageKey, _ body: @Sendable () async throws -> T) async throws -> T {
        try FileLock.createDirectory(lockDirectory)
        return try await FileLock.forAccount(key, in: lockDirectory).withLock(wait: lockTimeout, body)
    }
}
