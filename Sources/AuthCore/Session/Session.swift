import Foundation

/// A signed-in user of one provider.
///
/// ``validAccessToken()`` refreshes ahead of expiry **single-flight**: however many tasks ask at once, one
/// refresh request is sent, the rotated refresh token is stored, and only then do the callers resume.
public actor Session {
    /// The client this session belongs to.
    public nonisolated let client: AuthClient
    /// The current credential (updated by refreshes).
    public private(set) var credential: Credential
    /// The claims of the latest validated ID token.
    public private(set) var idTokenClaims: IDTokenClaims?
    /// The storage key of this account.
    public nonisolated let storageKey: StorageKey

    private var refreshTask: Task<Credential, any Error>?

    init(client: AuthClient, credential: Credential, idTokenClaims: IDTokenClaims?) {
        self.client = client
        self.credential = credential
        self.idTokenClaims = idTokenClaims
        self.storageKey = credential.storageKey
    }

    /// The provider's id.
    public nonisolated var providerID: ProviderID { storageKey.providerID }

    /// The user's subject, when the provider identified them with an ID token.
    public var subject: String? { credential.subject }

    /// An access token valid for at least the client's refresh margin, refreshing first when needed.
    ///
    /// - Throws: `invalid_grant` when the refresh token was rejected (the session is signed out);
    ///   a retryable error (`network_error`, `server_error`) when the refresh could not be done — tokens are kept.
    public func validAccessToken() async throws -> Secret {
        if !credential.isExpired(at: client.clock.now(), margin: client.options.refreshMargin) {
            return credential.accessToken
        }
        return try await refresh().accessToken
    }

    /// Refreshes now, sharing one request among concurrent callers.
    @discardableResult
    public func refresh() async throws -> Credential {
        if let refreshTask { return try await refreshTask.value }
        let current = credential
        let client = client
        let task = Task { () throws -> Credential in
            let (updated, claims) = try await client.refresh(current)
            self.apply(updated, claims: claims)
            return updated
        }
        refreshTask = task
        defer { refreshTask = nil }
        return try await task.value
    }

    private func apply(_ updated: Credential, claims: IDTokenClaims?) {
        credential = updated
        if let claims { idTokenClaims = claims }
    }

    /// Signs out locally: removes the stored credential.
    public func signOut() async throws {
        try await client.storage.removeCredential(for: storageKey)
        client.log(.info, "signout.completed", "Signed out.")
    }
}
