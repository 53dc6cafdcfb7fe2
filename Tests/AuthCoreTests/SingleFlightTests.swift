import Foundation
import Testing

@testable import AuthCore

@Suite("SingleFlight: one operation in flight per key")
struct SingleFlightTests {
    /// Counts starts, and holds every started operation until released, so callers provably overlap.
    private actor Gate {
        private(set) var starts = 0
        private var waiting: [CheckedContinuation<Void, Never>] = []
        private var open = false

        func enter() async {
            starts += 1
            if open { return }
            await withCheckedContinuation { waiting.append($0) }
        }

        func release() {
            open = true
            waiting.forEach { $0.resume() }
            waiting = []
        }
    }

    @Test("Concurrent callers of one key share one operation and its result; joiners are told they joined")
    func concurrentCallersShare() async throws {
        let flight = SingleFlight<String, Int>()
        let gate = Gate()
        let joins = LockedValue(0)
        let first = Task {
            try await flight.run("k") {
                await gate.enter()
                return 42
            }
        }
        while await gate.starts == 0 { await Task.yield() }
        let others = (0..<9).map { _ in
            Task {
                try await flight.run("k", joined: { joins.withLock { $0 += 1 } }) {
                    await gate.enter()
                    return -1
                }
            }
        }
        // Every other caller has joined before the operation ends.
        while joins.withLock({ $0 }) < 9 { await Task.yield() }
        await gate.release()
        #expect(try await first.value == 42)
        for other in others { #expect(try await other.value == 42) }
        #expect(await gate.starts == 1)
        #expect(flight.running("k") == nil)
    }

    @Test("Different keys run separately; a call after the operation ended starts a new one")
    func keysAndLaterCallsAreIndependent() async throws {
        let flight = SingleFlight<String, Int>()
        let counter = LockedValue(0)
        let count = { @Sendable () async throws -> Int in
            counter.withLock {
                $0 += 1
                return $0
            }
        }
        #expect(try await flight.run("a", count) == 1)
        #expect(try await flight.run("b", count) == 2)
        #expect(try await flight.run("a", count) == 3)
    }

    @Test("An error reaches every caller that shared the operation, and the next call tries again")
    func errorsAreSharedNotCached() async throws {
        struct Failed: Error {}
        let flight = SingleFlight<String, Int>()
        let gate = Gate()
        let first = Task {
            try await flight.run("k") {
                await gate.enter()
                throw Failed()
            }
        }
        while await gate.starts == 0 { await Task.yield() }
        let joined = LockedValue(false)
        let joiner = Task { try await flight.run("k", joined: { joined.withLock { $0 = true } }) { 7 } }
        while !joined.withLock({ $0 }) { await Task.yield() }
        await gate.release()
        await #expect(throws: Failed.self) { try await first.value }
        await #expect(throws: Failed.self) { try await joiner.value }
        #expect(try await flight.run("k") { 7 } == 7)
    }
}
