public import AuthCore
public import Foundation

/// Where a web app keeps what outlives one request: signed-in browser sessions and (through ``tokenStorage``) the
/// users' credentials. A sign-in still waiting for its callback is kept by the browser, sealed in its sign-in cookie,
/// so starting sign-ins writes nothing here.
///
/// ``InMemoryWebSessionStore`` serves one instance with nothing to set up; `PostgresWebSessionStore` (AuthPostgres) lets several
/// instances share everything. Session ids reach a store only as their SHA-256 (a leaked table does not hand out
/// sessions), and tokens only encrypted where the store is shared.
public protocol WebSessionStore: Sendable {
    /// Keeps `session` under `key` (the SHA-256 of the browser's session id).
    func saveSession(_ session: WebSessionRecord, key: String) async throws
    /// The unexpired session under `key`.
    func session(key: String, now: Date) async throws -> WebSessionRecord?
    /// Forgets the session under `key` (sign-out, or a new sign-in in the same browser).
    func removeSession(key: String) async throws
    /// Forgets every session whose credential is `account` (the provider's back-channel logout ended it).
    func removeSessions(account: StorageKey) async throws
    /// Removes and returns the sessions a back-channel logout names, found by index — never by reading every session
    /// or credential: the user's (``WebSessionRecord/subjectIndex``) when `subjectIndex` is given, in the provider's
    /// session (``WebSessionRecord/providerSessionIndex``) when `providerSessionIndex` is given, both when both are.
    func removeSessions(subjectIndex: String?, providerSessionIndex: String?) async throws -> [WebSessionRecord]
    /// Removes and returns the user's (`subjectIndex`) oldest sessions beyond the newest `limit`: how many sessions one
    /// user may hold at once is capped (``WebSignInConfiguration/maximumSessionsPerSubject``).
    func removeSessions(subjectIndex: String, keepingNewest limit: Int) async throws -> [WebSessionRecord]
    /// Deletes expired sessions and their credentials, and credentials whose session is gone (a sign-out whose removal
    /// failed, a replaced session) once they have been so for a while (a sign-in stores its credential just before
    /// its session).
    func removeExpired(now: Date) async throws
    /// Where the signed-in users' credentials are kept (every instance must see the same).
    var tokenStorage: any TokenStorage { get }
    /// Whether several instances of the app share this store (then they must share the sign-in cookie key too).
    var isSharedAcrossInstances: Bool { get }
    /// Records that a single-use value (its SHA-256, hex) was used, until `expiresAt` (after which it is refused
    /// anyway): `true` the first time, `false` every later time — on every instance that shares this store. The
    /// native sign-in routes use it so that a nonce one instance issued is accepted by any instance, once.
    func markUsed(digest: String, until expiresAt: Date, now: Date) async throws -> Bool
    /// Forgets the marks of ``markUsed(digest:until:now:)`` that expired by `now` (an expired value is refused
    /// anyway). ``WebSignInCore`` calls it on a timer, once a minute by its clock, while it serves native routes.
    func removeExpiredMarks(now: Date) async throws
    /// Keeps `name` as the name of the user `subjectIndex` (``WebSessionRecord/subjectIndex``): what a provider says
    /// once only (Sign in with Apple's `user` JSON on the first authorization), for every later session of that user
    /// — in another browser, after a sign-out, on another instance.
    func rememberDisplayName(_ name: String, subjectIndex: String) async throws
    /// The name kept for the user `subjectIndex` by ``rememberDisplayName(_:subjectIndex:)``, or `nil`.
    func rememberedDisplayName(subjectIndex: String) async throws -> String?
    /// Forgets the name kept for the user `subjectIndex`: the user deleted their account or stopped using the
    /// provider with this app (Sign in with Apple's `account-delete` and `consent-revoked`), and a later first
    /// authorization says the name again.
    func forgetDisplayName(subjectIndex: String) async throws
    /// The unexpired sessions of the user `subjectIndex` (``WebSessionRecord/subjectIndex``), found by index, left in
    /// place: the sessions whose credentials a Sign in with Apple email notification updates.
    func sessions(subjectIndex: String, now: Date) async throws -> [WebSessionRecord]
}

extension WebSessionStore {
    /// `false`: a store is one process's unless it says otherwise.
    public var isSharedAcrossInstances: Bool { false }

    /// None: a store that cannot list a user's sessions lets Sign in with Apple's email notifications update no
    /// credential (they are answered all the same). ``InMemoryWebSessionStore`` and `PostgresWebSessionStore` list them.
    public func sessions(subjectIndex: String, now: Date) async throws -> [WebSessionRecord] { [] }

    /// Records in this process's memory: right for a store that one instance uses. A store that several instances
    /// share (``isSharedAcrossInstances``) implements it on what they share, atomically — `PostgresWebSessionStore`
    /// with one `INSERT … ON CONFLICT` statement — or a nonce used on one instance would be accepted again on
    /// another (its authorization code would still be refused: the provider redeems a code once).
    public func markUsed(digest: String, until expiresAt: Date, now: Date) async throws -> Bool {
        await UsedDigests.process.markUsed(digest, until: expiresAt, now: now)
    }

    /// Keeps nothing: a store without a place for names greets a returning Apple user by email.
    public func rememberDisplayName(_ name: String, subjectIndex: String) async throws {}

    /// `nil`: see ``rememberDisplayName(_:subjectIndex:)``.
    public func rememberedDisplayName(subjectIndex: String) async throws -> String? { nil }

    /// Nothing to forget: the default ``rememberDisplayName(_:subjectIndex:)`` keeps nothing. A store that keeps names
    /// must implement it, or a deleted Apple account's name would outlive the account.
    public func forgetDisplayName(subjectIndex: String) async throws {}

    /// Forgets the expired marks in this process's memory (the default ``markUsed(digest:until:now:)``'s).
    public func removeExpiredMarks(now: Date) async throws {
        await UsedDigests.process.removeExpired(now: now)
    }
}
