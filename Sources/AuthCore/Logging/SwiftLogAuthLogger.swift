public import Logging

/// The default ``AuthLogger``: forwards records to a swift-log `Logger`.
public struct SwiftLogAuthLogger: AuthLogger {
    /// The swift-log logger records go to.
    package let logger: Logger

    /// Creates a logger; by default labelled `swift-auth-providers`.
    public init(logger: Logger = Logger(label: "swift-auth-providers")) {
        self.logger = logger
    }

    /// Forwards `record` with its event, provider and metadata as swift-log metadata.
    public func log(_ record: AuthLogRecord) {
        var metadata: Logger.Metadata = ["event": .string(record.event)]
        if let providerID = record.providerID { metadata["provider"] = .string(providerID.rawValue) }
        for (key, value) in record.metadata { metadata[key] = .string(value) }
        logger.log(level: Self.level(record.level), "\(record.message)", metadata: metadata)
    }

    /// Whether the swift-log logger's level lets `level` through.
    public func isEnabled(_ level: AuthLogRecord.Level) -> Bool {
        Self.level(level) >= logger.logLevel
    }

    static func level(_ level: AuthLogRecord.Level) -> Logger.Level {
        switch level {
        case .trace: .trace
        case .debug: .debug
        case .info: .info
        case .notice: .notice
        case .warning: .warning
        case .error: .error
        }
    }
}
