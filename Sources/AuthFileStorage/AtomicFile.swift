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
    /// The points of a write at which a process can be killed, in order: what is on disk at each is the old file plus
    /// a temporary file (empty, then written, then flushed), and after the rename the new file.
    package enum Step: CaseIterable, Sendable {
        case temporaryCreated, halfWritten, written, synced, renamed
    }

    /// The suffix of a write's temporary file, after the target's name.
    static let temporaryMarker = ".tmp-"

    /// Writes `data` to a fresh temporary file beside `url` created with `permissions` (0600 by default), flushes
    /// it with `fsync`, and renames it over `url`, so readers see the old content or the new, never a mix — also
    /// when the process is killed at any point (`rename` replaces the name in one step).
    ///
    /// - Parameter observe: called at each ``Step`` (tests look at the disk there, as a kill would leave it).
    /// - Throws: `storage_failed` with the errno when any step fails; the temporary file is removed.
    package static func write(_ data: Data, to url: URL, permissions: mode_t = 0o600, observe: (Step) -> Void = { _ in }) throws {
        let temporary = url.path + temporaryMarker + SecureRandom.token(byteCount: 8)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, permissions)
        guard descriptor >= 0 else {
            throw AuthError(.storageFailed, "A temporary file beside \(url.lastPathComponent) could not be created (errno \(errno)).")
        }
        observe(.temporaryCreated)
        var failure: Int32 = 0
        data.withUnsafeBytes { buffer in
            var offset = 0
            var observedHalf = false
            while offset < buffer.count {
                // In two halves, so the observer sees a half-written temporary file (what a kill mid-write leaves).
                let end = observedHalf ? buffer.count : max(1, buffer.count / 2)
                let written = systemWrite(descriptor, buffer.baseAddress! + offset, end - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
                if !observedHalf, offset >= end {
                    observedHalf = true
                    observe(.halfWritten)
                }
            }
        }
        if failure == 0 { observe(.written) }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        if failure == 0 { observe(.synced) }
        guard failure == 0, rename(temporary, url.path) == 0 else {
            let code = failure != 0 ? failure : errno
            unlink(temporary)
            throw AuthError(.storageFailed, "\(url.lastPathComponent) could not be written (errno \(code)).")
        }
        observe(.renamed)
    }

    /// Removes the temporary files a killed writer left beside `url` that are older than `age` seconds (a younger one
    /// may belong to a write in progress in another process). Failures are ignored: they cost only disk space.
    package static func removeStaleTemporaries(beside url: URL, olderThan age: TimeInterval, now: Date = Date()) {
        let directory = url.deletingLastPathComponent()
        let prefix = url.lastPathComponent + temporaryMarker
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            let path = directory.appendingPathComponent(name).path
            guard let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
                now.timeIntervalSince(modified) > age
            else { continue }
            unlink(path)
        }
    }

    /// Removes `url`; a missing file is not an error.
    package static func remove(_ url: URL) throws {
        guard unlink(url.path) == 0 || errno == ENOENT else {
            throw AuthError(.storageFailed, "\(url.lastPathComponent) could not be removed (errno \(errno)).")
        }
    }
}
