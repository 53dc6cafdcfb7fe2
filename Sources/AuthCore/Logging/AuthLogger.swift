/// Receives structured events from the engine; the default forwards them to swift-log.
///
/// Records never carry a secret: tokens, codes, verifiers and client secrets are ``Secret`` values whose
/// description is redacted, and the engine puts only non-secret facts in metadata.
public protocol AuthLogger: Sendable {
    /// Handles one record. Called synchronously on the engine's task; keep it quick.
    func log(_ record: AuthLogRecord)

    /// Whether records at `level` would be kept. The engine builds (and sanitizes) only those, so a logger that
    /// drops debug records costs the sign-in path nothing for them. Default: every level.
    func isEnabled(_ level: AuthLogRecord.Level) -> Bool
}

extension AuthLogger {
    /// Every level is wanted unless the logger says otherwise.
    public func isEnabled(_ level: AuthLogRecord.Level) -> Bool { true }
}

/// One structured log event.
public struct AuthLogRecord: Sendable {
    /// Severity, ordered like swift-log's levels.
    public enum Level: Int, Sendable, Comparable, CustomStringConvertible {
        /// Step-by-step detail.
        case trace
        /// Diagnostic detail.
        case debug
        /// Normal milestones (signed in, refreshed).
        case info
        /// Notable but expected (a rejected response).
        case notice
        /// Something went wrong but was handled.
        case warning
        /// An operation failed.
        case error

        /// Orders levels by severity.
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

        /// The level's name.
        public var description: String {
            switch self {
            case .trace: "trace"
            case .debug: "debug"
            case .info: "info"
            case .notice: "notice"
            case .warning: "warning"
            case .error: "error"
            }
        }
    }

    /// Severity.
    public var level: Level
    /// A stable event name such as `signin.completed`.
    public var event: String
    /// A human-readable message.
    public var message: String
    /// Non-secret facts (endpoint hosts, error codes, durations).
    public var metadata: [String: String]
    /// The provider concerned.
    public var providerID: ProviderID?

    /// Creates a record.
    package init(
        level: Level,
        event: String,
        message: String,
        metadata: [String: String] = [:],
        providerID: ProviderID? = nil
    ) {
        self.level = level
        self.event = event
        // Messages and metadata may quote provider text (an issuer, an error description): no control or
        // escape character reaches a log sink or a terminal.
        self.message = ProviderText.sanitized(message, limit: 2000)
        self.metadata = metadata.mapValues { ProviderText.sanitized($0, limit: 500) }
        self.providerID = providerID
    }
}
