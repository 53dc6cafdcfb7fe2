import Foundation

/// One operation in flight per key, shared by every concurrent caller: the refresh of an account, the metadata of an
/// issuer, the key set of a JWKS URL, a session's refresh. The first caller starts the operation; callers that arrive
/// while it runs wait for the same result (or error) instead of sending a second request; the next caller after it
/// ends starts a new one.
///
/// A class behind a lock rather than an actor of its own: the table is read and written synchronously under the lock
/// (held only to look up or record the task, never across an `await`), so joining needs no actor of its own to
/// serialise it, whichever actor (a ``Session``, a cache) owns the table.
package final class SingleFlight<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let inFlight = LockedValue<[Key: Task<Value, any Error>]>([:])

    /// An empty table.
    package init() {}

    /// The result of the operation in flight for `key`, after calling `joined`; or, when none is, of `operation`,
    /// started now as the one in flight for `key` until it ends.
    ///
    /// Cancelling a caller does not cancel the shared operation: other callers may still be waiting for it.
    package func run(
        _ key: Key,
        joined: () -> Void = {},
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let (task, started) = inFlight.withLock { tasks -> (Task<Value, any Error>, Bool) in
            if let running = tasks[key] { return (running, false) }
            let task = Task { try await operation() }
            tasks[key] = task
            return (task, true)
        }
        guard started else {
            joined()
            return try await task.value
        }
        defer { inFlight.withLock { tasks in tasks[key] = nil } }
        return try await task.value
    }

    /// The operation in flight for `key`, if any, to wait for without starting one.
    package func running(_ key: Key) -> Task<Value, any Error>? {
        inFlight.withLock { $0[key] }
    }
}
