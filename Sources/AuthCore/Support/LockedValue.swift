import Foundation

/// A value behind a lock, for the few places that must be synchronous (a URLSession delegate, a logger, a test
/// clock) and so cannot be actors. The lock is held only for the duration of a closure that never awaits.
///
/// Keep a function value in a struct, never bare (`LockedValue<Route>`, not `LockedValue<(X) -> Y>`): the `inout`
/// of ``withLock(_:)`` crosses the generic boundary, so a bare function is wrapped in two more reabstraction thunks
/// on every call, and calling it gets slower with every read (the HTTP emulators did, request after request).
package final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
