public import AuthCore

/// An `AuthLogger` that keeps every record, for asserting on logs (and proving they carry no secrets).
public final class RecordingLogger: AuthLogger {
    private let storage = LockedValue<[AuthLogRecord]>([])

    /// Creates an empty logger.
    public init() {}

    /// Keeps `record`.
    public func log(_ record: AuthLogRecord) {
        storage.withLock { $0.append(record) }
    }

    /// Every record so far.
    public var records: [AuthLogRecord] { storage.withLock { $0 } }

    /// Every record rendered as one line of text: level, event, provider, message and metadata.
    public var lines: [String] {
        records.map { record in
            let metadata = record.metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            return ([record.level.description, record.event, record.providerID?.rawValue ?? "-", record.message] + metadata)
                .joined(separator: " ")
        }
    }

    /// Whether any line contains `text`.
    public func contains(_ text: String) -> Bool {
        lines.contains { $0.contains(text) }
    }
}
