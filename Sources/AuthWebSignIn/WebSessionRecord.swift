public import AuthCore
public import Foundation

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
