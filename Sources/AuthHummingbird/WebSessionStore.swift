#if WebSignIn
public import AuthCore
public import Foundation

/// Where a web app keeps what outlives one request: signed-in browser sessions and (through ``tokenStorage``) the
/// users' credentials. A sign-in still waiting for its callback is kept by the browser, sealed in its sign-in cookie,
/// so starting sign-ins writes nothing here.
///
/// ``InMemoryWebSessionStore`` serves one instance with nothing to set up; ``PostgresWebSessionStore`` lets several
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
    /// Deletes expired sessions and their credentials.
    func removeExpired(now: Date) async throws
    /// Where the signed-in users' credentials are kept (every instance must see the same).
    var tokenStorage: any TokenStorage { get }
    /// Whether several instances of the app share this store (then they must share the sign-in cookie key too).
    var isSharedAcrossInstances: Bool { get }
}

extension WebSessionStore {
    /// `false`: a store is one process's unless it says otherwise.
    public var isSharedAcrossInstances: Bool { false }
}

/// A signed-in browser: who, with which provider, and where the tokens are. No token is in here.
public struct WebSessionRecord: Sendable, Codable, Hashable {
    /// The provider's name in the routes.
    public let providerName: String
    /// Where the credential is in ``WebSessionStore/tokenStorage``.
    public let account: StorageKey
    /// The user's subject at the provider; for a provider without ID tokens (Uber), this sign-in's account name.
    public let subject: String
    /// A name to greet the user with (`name`, `email` or the subject).
    public let displayName: String
    /// The token a state-changing request (sign-out) must carry: the session's own, never in a cookie.
    public let csrfToken: String
    /// When the user signed in.
    public let createdAt: Date
    /// When the browser session ends, whatever the tokens' lifetime.
    public let expiresAt: Date

    /// Creates a record.
    public init(providerName: String, account: StorageKey, subject: String, displayName: String, csrfToken: String, createdAt: Date, expiresAt: Date) {
        self.providerName = providerName
        self.account = account
        self.subject = subject
        self.displayName = displayName
        self.csrfToken = csrfToken
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
#endif
