#if WebSignIn
public import AuthCore
public import Foundation

/// Where a web app keeps what outlives one request: sign-ins waiting for their callback, signed-in browser
/// sessions, and (through ``tokenStorage``) the users' credentials.
///
/// ``InMemoryWebSessionStore`` serves one instance with nothing to set up; ``PostgresWebSessionStore`` lets several
/// instances share everything, so a sign-in started on one completes on another. Session ids reach a store only as
/// their SHA-256 (a leaked table does not hand out sessions), and tokens only encrypted where the store is shared.
public protocol WebSessionStore: Sendable {
    /// Keeps `signIn` until its ``PendingWebSignIn/expiresAt``.
    func savePendingSignIn(_ signIn: PendingWebSignIn) async throws
    /// Removes and returns the unexpired pending sign-in whose `state` is `state`. Each is returned at most once,
    /// whichever instance asks first: a replayed callback finds nothing.
    func takePendingSignIn(state: String, now: Date) async throws -> PendingWebSignIn?
    /// Keeps `session` under `key` (the SHA-256 of the browser's session id).
    func saveSession(_ session: WebSessionRecord, key: String) async throws
    /// The unexpired session under `key`.
    func session(key: String, now: Date) async throws -> WebSessionRecord?
    /// Forgets the session under `key` (sign-out, or a new sign-in in the same browser).
    func removeSession(key: String) async throws
    /// Deletes expired pending sign-ins and sessions.
    func removeExpired(now: Date) async throws
    /// Where the signed-in users' credentials are kept (every instance must see the same).
    var tokenStorage: any TokenStorage { get }
}

/// A sign-in waiting for its callback: the engine's ``PendingSignIn`` and the browser it belongs to.
public struct PendingWebSignIn: Sendable, Codable {
    /// The `state` of the authorization request.
    public var state: String { pending.state }
    /// The provider's name in the routes (`grab`, `oidc`, …).
    public let providerName: String
    /// What the callback is checked against (PKCE verifier, nonce, …).
    public let pending: PendingSignIn
    /// The SHA-256 (hex) of the random value in the browser's sign-in cookie: only that browser can complete it.
    public let browserBinding: String
    /// When it stops being accepted.
    public var expiresAt: Date { pending.expiresAt }

    /// Creates an entry.
    public init(providerName: String, pending: PendingSignIn, browserBinding: String) {
        self.providerName = providerName
        self.pending = pending
        self.browserBinding = browserBinding
    }
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
