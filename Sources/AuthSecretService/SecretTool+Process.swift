import AuthCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What one `secret-tool` run produced.
struct ProcessResult: Sendable {
    var status: Int32
    var stdout: Data
    var stderr: String
    var timedOut: Bool
}

extension SecretTool {
    /// The largest secret handed over: it is written into the pipe before `secret-tool` starts, so it must fit in the
    /// pipe's buffer (64 KiB on Linux).
    static let largestSecret = 60_000

    /// Runs `secret-tool arguments` with `input` on its standard input, off the cooperative thread pool.
    func run(_ arguments: [String], input: Data?) async throws -> ProcessResult {
        let tool = try resolvedExecutable()
        if let input, input.count > Self.largestSecret {
            throw AuthError(.storageFailed, "A secret of \(input.count) bytes is larger than the Secret Service storage accepts (\(Self.largestSecret)).")
        }
        let limit = timeout
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try Self.runBlocking(tool, arguments, input: input, timeout: limit) })
            }
        }
    }

    /// `executable`, or `secret-tool` on `PATH`.
    private func resolvedExecutable() throws -> URL {
        if let executable { return executable }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("secret-tool")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw AuthError(
            .storageUnavailable,
            "secret-tool was not found on PATH: install libsecret's tools (Debian and Ubuntu: libsecret-tools; Fedora: libsecret) to keep credentials in the Secret Service."
        )
    }

    private static func runBlocking(_ tool: URL, _ arguments: [String], input: Data?, timeout: Duration) throws -> ProcessResult {
        let (process, output, errors) = try launch(tool, arguments, input: input)
        let watchdog = Watchdog(process)
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { watchdog.fire() }
        let errorReader = BackgroundRead(errors.fileHandleForReading)
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = errorReader.wait()
        process.waitUntilExit()
        return ProcessResult(
            status: process.terminationStatus,
            stdout: stdout,
            stderr: String(decoding: stderr, as: UTF8.self),
            timedOut: watchdog.fired
        )
    }
    /// Starts `tool` with a new `Process` and new pipes, and tries again (up to 20 times, 10 ms apart) when the start
    /// fails: "text file busy" (ETXTBSY) comes when another thread of this process starts a child at the same moment
    /// and that child still holds a descriptor of the tool's file open for writing (a tool just installed or written);
    /// it passes as soon as that child execs. A `Process` that failed to start is not started again. This thread is
    /// the run's own, not the cooperative pool's, so the short waits block nothing else.
    private static func launch(_ tool: URL, _ arguments: [String], input: Data?) throws -> (Process, Pipe, Pipe) {
        var attempts = 0
        while true {
            let process = Process()
            process.executableURL = tool
            process.arguments = arguments
            // English messages (they are matched), and no locale-dependent output.
            var environment = ProcessInfo.processInfo.environment
            environment["LC_ALL"] = "C"
            process.environment = environment
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            if let input {
                // Written before the tool starts and closed: the tool reads the secret to end of file, and this
                // process never writes to a pipe whose reader has gone (no SIGPIPE).
                let pipe = Pipe()
                pipe.fileHandleForWriting.write(input)
                try pipe.fileHandleForWriting.close()
                process.standardInput = pipe
            } else {
                process.standardInput = FileHandle.nullDevice
            }
            do {
                try process.run()
                return (process, output, errors)
            } catch  where attempts < 20 && FileManager.default.isExecutableFile(atPath: tool.path) {
                attempts += 1
                usleep(10_000)
            } catch {
                throw AuthError(.storageUnavailable, "secret-tool could not be started (\(tool.path)).", underlying: error)
            }
        }
    }
}

/// Ends a run that outlived its timeout, and remembers that it did.
private final class Watchdog: @unchecked Sendable {
    private let lock = NSLock()
    private let process: Process
    private var value = false

    init(_ process: Process) {
        self.process = process
    }

    var fired: Bool { lock.withLock { value } }

    func fire() {
        lock.withLock {
            guard process.isRunning else { return }
            value = true
            // SIGKILL, not `terminate()`'s SIGTERM: a child started from a thread that blocks signals inherits the
            // mask, and a blocked SIGTERM left the run waiting for the child's own end.
            kill(process.processIdentifier, SIGKILL)
        }
    }
}

/// Reads a pipe to its end on another thread (both of a child's pipes must drain, or a full one stalls it).
private final class BackgroundRead: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    init(_ handle: FileHandle) {
        Thread.detachNewThread {
            self.data = handle.readDataToEndOfFile()
            self.done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
