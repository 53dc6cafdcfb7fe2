import AuthCore
import AuthWebSignIn
import Foundation

/// An in-memory session store that keeps its own used-nonce marks, so that a test sees exactly what was marked
/// (the default marks live in one table shared by the whole process) and when the timer swept them.
actor MarkCountingStore: WebSessionStore {
    private let sessions = InMemoryWebSessionStore()
    private var marks: [String: Date] = [:]
    /// How many times `removeExpiredMarks(now:)` ran.
    private(set) var markSweeps = 0

    nonisolated var tokenStorage: any TokenStorage { sessions.tokenStorage }

    func saveSession(_ session: WebSessionRecord, key: String) async throws { await sessions.saveSession(session, key: key) }
    func session(key: String, now: Date) async throws -> WebSessionRecord? { await sessions.session(key: key, now: now) }
    func removeSession(key: String) async throws { await sessions.removeSession(key: key) }
    func removeSessions(account: StorageKey) async throws { await sessions.removeSessions(account: account) }
    func removeSessions(subjectIndex: String?, providerSessionIndex: String?) async throws -> [WebSessionRecord] {
        await sessions.removeSessions(subjectIndex: subjectIndex, providerSessionIndex: providerSessionIndex)
    }
    func removeSessions(subjectIndex: String, keepingNewest limit: Int) async throws -> [WebSessionRecord] {
        await sessions.removeSessions(subjectIndex: subjectIndex, keepingNewest: limit)
    }
    func removeExpired(now: Date) async throws { await sessions.removeExpired(now: now) }

    func markUsed(digest: String, until expiresAt: Date, now: Date) async throws -> Bool {
        if let earlier = marks[digest], earlier > now { return false }
        marks[digest] = expiresAt
        return true
    }

    func removeExpiredMarks(now: Date) async throws {
        marks = marks.filter { $0.value > now }
        markSweeps += 1
    }

    /// Sessions kept, expired ones not yet removed included.
    var sessionCount: Int { get async { await sessions.sessionCount } }
    /// Used-nonce marks kept, expired ones not yet swept included.
    var markCount: Int { marks.count }
}
