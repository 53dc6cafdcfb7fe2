/// The limits every back-channel request runs under, passed to the transport so it can enforce them while the
/// response arrives: an endless or very slow body fails fast, with bounded memory.
public struct HTTPRequestLimits: Sendable, Hashable {
    /// The largest response body accepted, in bytes; a transport stops reading past it (`response_too_large`).
    public var maximumResponseSize: Int
    /// The overall deadline for the whole exchange — connect, send, headers and the complete body — not an idle
    /// timer that a server dribbling one byte at a time could keep resetting (`timed_out`).
    public var timeout: Duration

    /// Creates limits: 1 MiB and 30 seconds by default.
    public init(maximumResponseSize: Int = 1 << 20, timeout: Duration = .seconds(30)) {
        self.maximumResponseSize = maximumResponseSize
        self.timeout = timeout
    }
}
