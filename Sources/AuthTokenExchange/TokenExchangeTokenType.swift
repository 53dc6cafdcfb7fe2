/// A token type identifier of OAuth 2.0 Token Exchange (RFC 8693 §3), as `subject_token_type`, `actor_token_type`,
/// `requested_token_type` and `issued_token_type` carry it.
public struct TokenExchangeTokenType: RawRepresentable, Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The URI, such as `urn:ietf:params:oauth:token-type:access_token`.
    public let rawValue: String

    /// A token type by its URI.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A token type by its URI, written as a string literal.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// An OAuth 2.0 access token (RFC 8693 §3).
    public static let accessToken: Self = "urn:ietf:params:oauth:token-type:access_token"
    /// An OAuth 2.0 refresh token (RFC 8693 §3).
    public static let refreshToken: Self = "urn:ietf:params:oauth:token-type:refresh_token"
    /// An OpenID Connect ID token (RFC 8693 §3).
    public static let idToken: Self = "urn:ietf:params:oauth:token-type:id_token"
    /// A JWT (RFC 8693 §3, RFC 7519).
    public static let jwt: Self = "urn:ietf:params:oauth:token-type:jwt"
    /// The `device_secret` of OpenID Connect Native SSO for Mobile Apps 1.0 (§4.1, the actor token of its exchange).
    public static let deviceSecret: Self = "urn:x-oath:params:oauth:token-type:device-secret"

    /// The URI.
    public var description: String { rawValue }
}
