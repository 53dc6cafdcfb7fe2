public import Foundation

/// Shows the authorization page and returns the redirect: a system browser with a loopback listener,
/// ASWebAuthenticationSession, a hand-off to a native app, or a headless agent in tests.
public protocol UserAgent: Sendable {
    /// Presents `request` to the user and returns the URL the provider redirected to.
    ///
    /// - Throws: ``AuthError`` with `user_cancelled` when the user closes the page.
    func authorize(_ request: AuthorizationRequest) async throws -> URL
}

/// A prepared authorization request, ready for a user agent.
public struct AuthorizationRequest: Sendable {
    /// The provider.
    public let providerID: ProviderID
    /// The full authorization URL to open.
    public let url: URL
    /// The redirect URI the response must come back to.
    public let redirectURI: URL
    /// The `state` value, which identifies this request's response.
    public let state: String
    /// Whether the browser session should be ephemeral (no shared cookies).
    public let prefersEphemeralSession: Bool
    /// When the request stops being accepted.
    public let expiresAt: Date
    /// When the pushed request behind ``url`` expires (RFC 9126 §2.2: the push's `expires_in`, often a minute or
    /// two), or `nil` when the parameters travel in the URL. Open ``url`` before then: after it, the provider refuses
    /// the `request_uri` (`invalid_request_uri`) and a new request has to be prepared. Once the provider has shown
    /// its page, the sign-in may take until ``expiresAt``.
    public package(set) var pushedRequestExpiresAt: Date?

    /// Creates a request (the engine does this; user agents and tests read it).
    package init(
        providerID: ProviderID,
        url: URL,
        redirectURI: URL,
        state: String,
        prefersEphemeralSession: Bool,
        expiresAt: Date
    ) {
        self.providerID = providerID
        self.url = url
        self.redirectURI = redirectURI
        self.state = state
        self.prefersEphemeralSession = prefersEphemeralSession
        self.expiresAt = expiresAt
    }
}
