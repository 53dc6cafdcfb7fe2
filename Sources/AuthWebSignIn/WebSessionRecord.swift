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
    /// The provider's session (the ID token's `sid`), when it named one: a back-channel logout naming it ends this
    /// session.
    public let providerSessionID: String?
    /// How the user authenticated (the ID token's `acr`), when the provider said: what a route's
    /// ``WebAuthenticationRequirement`` checks, stronger after a step-up sign-in.
    public let authenticationClass: String?
    /// When the user authenticated (the ID token's `auth_time`), when the provider said: what a route's
    /// ``WebAuthenticationRequirement/maxAge`` checks.
    public let authenticatedAt: Date?

    /// Creates a record.
    public init(
        providerName: String, account: StorageKey, subject: String, displayName: String, csrfToken: String, createdAt: Date, expiresAt: Date,
        providerSessionID: String? = nil, authenticationClass: String? = nil, authenticatedAt: Date? = nil
    ) {
        self.providerName = providerName
        self.account = account
        self.subject = subject
        self.displayName = displayName
        self.csrfToken = csrfToken
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.providerSessionID = providerSessionID
        self.authenticationClass = authenticationClass
        self.authenticatedAt = authenticatedAt
    }

    /// What a store indexes the session's user by: the SHA-256 of the provider's route name and the subject.
    public var subjectIndex: String { Self.subjectIndex(providerName: providerName, subject: subject) }

    /// What a store indexes the provider's session by: the SHA-256 of the route name and `sid`; `nil` without one.
    public var providerSessionIndex: String? { providerSessionID.map { Self.providerSessionIndex(providerName: providerName, sessionID: $0) } }

    /// The index of the user `subject` of the provider named `providerName` (see ``subjectIndex``).
    public static func subjectIndex(providerName: String, subject: String) -> String { sha256Hex(providerName + "\u{0}" + subject) }

    /// The index of the provider session `sessionID` of the provider named `providerName` (see ``providerSessionIndex``).
    public static func providerSessionIndex(providerName: String, sessionID: String) -> String { sha256Hex(providerName + "\u{0}" + sessionID) }
}
