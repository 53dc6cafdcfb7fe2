package import AuthCore
import Crypto
package import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension StorageKey {
    /// The hex SHA-256 of the key: a file name that reveals nothing about the account (credential and lock files).
    package var hashedFileName: String {
        SHA256.hash(data: Data(rawValue.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}

/// An advisory, exclusive lock on a file (`flock`), shared by every process that uses the same path.
///
/// The operating system releases it when the holder exits, even on SIGKILL, so a crashed holder never wedges the
/// others. Taking it never blocks a thread: a busy lock is retried with `Task.sleep` until the wait runs out.
package struct FileLock: Sendable {
    /// The lock file (created with mode 0600 when missing).
    package let url: URL

    package init(url: URL) {
        self.url = url
    }

    /// The lock for one account in `directory`: named by the SHA-256 of its storage key, so the name reveals
    /// nothing about the account.
    package static func forAccount(_ key: StorageKey, in directory: URL) -> FileLock {
        FileLock(url: directory.appendingPathComponent(key.hashedFileName + ".lock"))
    }

    /// Creates `directory` (mode 0700) when missing: the directory of credential files and of their lock files.
    package static func createDirectory(_ directory: URL) throws {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw AuthError(.storageFailed, "The directory \(directory.path) could not be created.", underlying: error)
        }
    }

    /// Runs `body` while holding the lock.
    ///
    /// - Throws: `storage_unavailable` when the lock cannot be taken within `wait` (another process holds it);
    ///   `storage_failed` when the lock file cannot be opened; whatever `body` throws.
    package func withLock<T>(
        wait: Duration = .seconds(10),
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> T
    ) async throws -> T {
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw AuthError(.storageFailed, "The lock file \(url.path) could not be opened (errno \(errno)).")
        }
        defer { close(descriptor) }
        let deadline = ContinuousClock.now + wait
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw AuthError(.storageFailed, "The lock file \(url.path) could not be locked (errno \(errno)).")
            }
            guard ContinuousClock.now < deadline else {
                throw AuthError(
                    .storageUnavailable,
                    "Another process has held the lock \(url.path) for more than \(wait) (a refresh or sign-out in another window or process); try again when it has finished."
                )
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        defer { flock(descriptor, LOCK_UN) }
        return try await body()
    }
}
