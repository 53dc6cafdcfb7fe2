import AuthCore
package import Foundation

#if canImport(Glibc)
    import Glibc
    private let systemWrite = Glibc.write
#elseif canImport(Musl)
    import Musl
    private let systemWrite = Musl.write
#elseif canImport(Darwin)
    import Darwin
    private let systemWrite = Darwin.write
#endif

/// Crash-safe writes of small secret files: readable by the owner only, never half-written.
package enum AtomicFile {
    /// Writes `data` to a fresh temporary file beside `url` created with `permissions` (0600 by default), flushes
    /// it with `fsync`, and renames it over `url`, so readers see the old content or the new, never a mix.
    ///
    /// - Throws: `storage_failed` with the errno when any step fails; the temporary file is removed.
    package static func write(_ data: Data, to url: URL, permissions: mode_t = 0o600) throws {
        let temporary = url.path + ".tmp-" + SecureRandom.token(byteCount: 8)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, permissions)
        guard descriptor >= 0 else {
            throw AuthError(.storageFailed, "A temporary file beside \(url.lastPathComponent) could not be created (errno \(errno)).")
        }
        var failure: Int32 = 0
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        guard failure == 0, rename(temporary, url.path) == 0 else {
            let code = failure != 0 ? failure : errno
            unlink(temporary)
            throw AuthError(.storageFailed, "\(url.lastPathComponent) could not be written (errno \(code)).")
        }
    }

    /// Removes `url`; a missing file is not an error.
    package static func remove(_ url: URL) throws {
        guard unlink(url.path) == 0 || errno == ENOENT else {
            throw AuthError(.storageFailed, "\(url.lastPathComponent) could not be removed (errno \(errno)).")
        }
    }
}
