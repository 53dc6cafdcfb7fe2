public import AuthCore

/// The user a request comes from, and their access token on demand (never shown to the browser).
public struct SignedInUser: Sendable {
    /// The session record (provider, subject, name, CSRF token).
    public let record: WebSessionRecord
    let client: AuthClient

    /// The provider's name in the routes.
    public var providerName: String { record.providerName }
    /// The user's subject at the provider.
    public var subject: String { record.subject }
    /// A name to greet the user with.
    public var displayName: String { record.displayName }

    /// The engine's session for this user: `Session/send(_:body:)` calls an API with the token (refreshed
    /// single-flight when it is about to expire, bound to its DPoP key where the provider uses DPoP).
    ///
    /// - Throws: `not_signed_in` when the credential is gone (signed out elsewhere, or rejected at refresh).
    public func session() async throws -> Session {
        guard let session = try await client.restoreSession(key: record.account) else {
            throw AuthError(.notSignedIn, "The signed-in user's tokens are gone (signed out elsewhere); sign in again.", providerID: client.providerID)
        }
        return session
    }

    /// A valid access token, refreshed first when it is about to expire.
    public func accessToken() async throws -> Secret {
        try await session().validAccessToken()
    }
}
