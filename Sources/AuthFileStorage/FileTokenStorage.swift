public import AuthCore
import Crypto
public import Foundation

/// Keeps credentials in files, one per account, readable by the owner only.
///
/// Each write goes to a temporary file created with mode `0600`, is flushed with `fsync`, and then renamed over
/// the old file, so a crash mid-write leaves the previous credential intact. The directory is created with mode
/// `0700`. A file that cannot be decoded is reported as `storage_corrupted` for its key alone.
///
/// Processes sharing the directory share refreshes safely: ``withExclusiveAccess(to:_:)`` holds an advisory lock
/// file per account (`<name>.lock`) around the engine's read-refresh-write, released by the operating system even
/// when a process is killed.
///
/// With an encryption key, each file is sealed with AES-GCM (swift-crypto) with its file name — derived from
/// the account's storage key — as associated data, so a file copied over another account's fails to open
/// instead of impersonating it.
public actor FileTokenStorage: TokenStorage {
    /// The directory holding the credential files.
    package nonisolated let directory: URL
    /// How long ``withExclusiveAccess(to:_:)`` waits for another process to leave an account's section.
    package nonisolated let lockTimeout: Duration
    private let encryptionKey: SymmetricKey?

    /// Creates a storage in `directory` (created on first write).
    ///
    /// - Parameters:
    ///   - directory: the directory for the credential files (created with mode 0700 on first write).
    ///   - encryptionKey: 32 bytes to encrypt files at rest with AES-256-GCM (keep it in the platform's secure
    ///     storage, not beside the files); `nil` stores plain JSON protected by file permissions only.
    ///   - lockTimeout: how long a refresh waits for another process's refresh of the same account (10 s).
    /// - Throws: `invalid_configuration` when the key is not 32 bytes.
    public init(directory: URL, encryptionKey: Data? = nil, lockTimeout: Duration = .seconds(10)) throws {
        if let encryptionKey, encryptionKey.count != 32 {
            throw AuthError(.invalidConfiguration, "The FileTokenStorage encryption key must be 32 bytes (AES-256); it has \(encryptionKey.count).")
        }
        self.directory = directory
        self.lockTimeout = lockTimeout
        self.encryptionKey = encryptionKey.map { SymmetricKey(data: $0) }
    }

    /// Creates an unencrypted storage in `directory` (created on first write).
    public init(directory: URL) {
        self.directory = directory
        self.lockTimeout = .seconds(10)
        self.encryptionKey = nil
    }

    private struct Record: Codable {
        var key: StorageKey
        var credential: Credential
    }

    /// The file for `key`: the SHA-256 of the key, so file names reveal nothing about the account.
    package nonisolated func fileURL(for key: StorageKey) -> URL {
        directory.appendingPathComponent(key.hashedFileName + ".credential.json")
    }

    /// The credential under `key`.
    public func credential(for key: StorageKey) throws -> Credential? {
        let url = fileURL(for: key)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let record = try readRecord(at: url)
        guard record.key == key else {
            throw AuthError(.storageCorrupted, "The credential file \(url.lastPathComponent) belongs to another account.")
        }
        return try record.credential.validatedForUse()
    }

    /// Stores `credential` under `key` with an atomic replace.
    public func store(_ credential: Credential, for key: StorageKey) throws {
        try FileLock.createDirectory(directory)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        var data: Data
        do {
            data = try encoder.encode(Record(key: key, credential: credential))
            if let encryptionKey {
                // combined = nonce ‖ ciphertext ‖ tag; always present for the default 12-byte nonce.
                let url = fileURL(for: key)
                data = try AES.GCM.seal(data, using: encryptionKey, authenticating: Self.associatedData(for: url)).combined!
            }
        } catch {
            throw AuthError(.storageFailed, "The credential could not be encoded.", underlying: error)
        }
        let url = fileURL(for: key)
        try AtomicFile.write(data, to: url, observe: { step in writeObserver?(step) })
        // What a writer killed mid-write left: older than any write in progress can be.
        AtomicFile.removeStaleTemporaries(beside: url, olderThan: 600)
    }

    /// Called at each step of every write (tests copy the directory there, as a process killed at that step would
    /// leave it).
    package var writeObserver: (@Sendable (AtomicFile.Step) -> Void)?

    /// Sets ``writeObserver``.
    package func observeWrites(_ observer: (@Sendable (AtomicFile.Step) -> Void)?) {
        writeObserver = observer
    }

    /// Runs `body` holding this account's lock file, waiting up to the lock timeout for another process to finish.
    public nonisolated func withExclusiveAccess<T: Sendable>(to key: StorageKey, _ body: @Sendable () async throws -> T) async throws -> T {
        try FileLock.createDirectory(directory)
        return try await FileLock.forAccount(key, in: directory).withLock(wait: lockTimeout, body)
    }

    /// The lock file of `key`'s exclusive section (for tools that coordinate with this storage).
    package nonisolated func lockFileURL(for key: StorageKey) -> URL {
        FileLock.forAccount(key, in: directory).url
    }

    /// Removes the credential under `key`.
    public func removeCredential(for key: StorageKey) throws {
        try AtomicFile.remove(fileURL(for: key))
    }

    /// Every key with a readable credential file (corrupted files are skipped here and reported on read).
    public func storedKeys() throws -> [StorageKey] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            return []
        }
        return names.filter { $0.hasSuffix(".credential.json") }.compactMap {
            try? readRecord(at: directory.appendingPathComponent($0)).key
        }
    }

    private func readRecord(at url: URL) throws -> Record {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw AuthError(.storageFailed, "The credential file \(url.lastPathComponent) could not be read.", underlying: error)
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        do {
            guard let encryptionKey else { return try decoder.decode(Record.self, from: data) }
            let box = try AES.GCM.SealedBox(combined: data)
            let plaintext = try AES.GCM.open(box, using: encryptionKey, authenticating: Self.associatedData(for: url))
            return try decoder.decode(Record.self, from: plaintext)
        } catch {
            throw AuthError(
                .storageCorrupted,
                "The credential file \(url.lastPathComponent) is truncated or corrupted; sign in again to replace it."
            )
        }
    }

    private static func associatedData(for url: URL) -> Data {
        Data(url.lastPathComponent.utf8)
    }
}
