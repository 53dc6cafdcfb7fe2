import Foundation

/// One refresh at a time per account within a process, whichever ``Session`` value asks: two sessions restored
/// for the same storage key (or a session and a direct engine call) share one request instead of racing each
/// other with the same rotating refresh token.
actor RefreshCoordinator {
    private var inFlight: [StorageKey: Task<(Credential, IDTokenClaims?), any Error>] = [:]

    /// Joins the refresh in flight for `key` (calling `joined` first), or starts `operation` as that refresh.
    func refresh(
        _ key: StorageKey,
        joined: @Sendable () -> Void = {},
        _ operation: @escaping @Sendable () async throws -> (Credential, IDTokenClaims?)
    ) async throws -> (Credential, IDTokenClaims?) {
        if let running = inFlight[key] {
            joined()
            return try await running.value
        }
        let task = Task { try await operation() }
        inFlight[key] = task
        defer { inFlight[key] = nil }
        return try await task.value
    }
}
