public import AuthCore
public import Foundation

/// What a session asks the token endpoint for in an OAuth 2.0 Token Exchange (RFC 8693 §2.1): a token for another
/// audience, resource or scope, in exchange for one of the session's own tokens.
///
/// ```swift
/// let request = TokenExchangeRequest(audience: ["https://api.example.com"], scopes: ["orders:read"])
/// let token = try await session.exchangeToken(request)
/// ```
public struct TokenExchangeRequest: Sendable, Hashable {
    /// Which of the session's tokens is the `subject_token` (RFC 8693 §2.1).
    public enum Subject: Sendable, Hashable {
        /// The session's access token (refreshed first when it is about to expire).
        case accessToken
        /// The session's ID token.
        case idToken
    }

    /// The `audience` values: the logical names of the services the token is for (RFC 8693 §2.1).
    public var audience: [String]
    /// The `resource` values: the URIs of the resource servers the token is for (RFC 8693 §2.1, RFC 8707).
    public var resources: [URL]
    /// The `scope` to ask for; `nil` leaves it to the server.
    public var scopes: [String]?
    /// The `requested_token_type`; the answer's `issued_token_type` must be this one. An access token by default.
    public var requestedTokenType: TokenExchangeTokenType?
    /// Which of the session's tokens is exchanged: the access token by default.
    public var subject: Subject
    /// The `actor_token` of a delegation (RFC 8693 §1.1, §2.1), with ``actorTokenType``.
    public var actorToken: Secret?
    /// The `actor_token_type`, required with ``actorToken``.
    public var actorTokenType: TokenExchangeTokenType?

    /// A request for a token for `audience` and `resources`, with `scopes`.
    ///
    /// - Parameters:
    ///   - audience: the `audience` values (RFC 8693 §2.1).
    ///   - resources: the `resource` URIs (RFC 8707).
    ///   - scopes: the scopes to ask for; `nil` leaves them to the server.
    ///   - requestedTokenType: the token type to ask for; an access token by default, `nil` to send none.
    ///   - subject: which of the session's tokens to present.
    ///   - actorToken: the actor's token, for a delegation.
    ///   - actorTokenType: its type (RFC 8693 §3), required with `actorToken`.
    public init(
        audience: [String] = [],
        resources: [URL] = [],
        scopes: [String]? = nil,
        requestedTokenType: TokenExchangeTokenType? = .accessToken,
        subject: Subject = .accessToken,
        actorToken: Secret? = nil,
        actorTokenType: TokenExchangeTokenType? = nil
    ) {
        self.audience = audience
        self.resources = resources
        self.scopes = scopes
        self.requestedTokenType = requestedTokenType
        self.subject = subject
        self.actorToken = actorToken
        self.actorTokenType = actorTokenType
    }
}
