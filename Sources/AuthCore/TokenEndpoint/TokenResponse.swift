public import Foundation

/// A token endpoint's successful response (RFC 6749 §5.1).
public struct TokenResponse: Sendable {
    /// The access token.
    public let accessToken: Secret
    /// The token type, normalised to its canonical spelling (`Bearer`, or `DPoP` for a token bound to a key).
    public let tokenType: String
    /// Seconds until the access token expires, when stated.
    public let expiresIn: TimeInterval?
    /// A refresh token, when issued.
    public let refreshToken: Secret?
    /// The ID token, when issued.
    public let idToken: Secret?
    /// The granted scopes, when stated (they may differ from those requested).
    public let scope: String?
    /// The `device_secret` of OpenID Connect Native SSO for Mobile Apps 1.0 (§3.2), issued for the `device_sso` scope:
    /// what a second app of the same family presents, with the ID token, to sign in by token exchange. Never logged.
    package var deviceSecret: Secret?

    /// The token types this client can use; compared case-insensitively (RFC 6749 §7.1).
    static let supportedTokenTypes = ["bearer": "Bearer", "dpop": "DPoP"]

    /// Creates a response. A negative or non-finite `expiresIn` is treated as absent; one above
    /// ten years is clamped to it.
    public init(
        accessToken: Secret,
        tokenType: String = "Bearer",
        expiresIn: TimeInterval? = nil,
        refreshToken: Secret? = nil,
        idToken: Secret? = nil,
        scope: String? = nil
    ) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn.flatMap { JSONValue.number($0).lifetimeValue }
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.scope = scope
    }

    /// Parses a token response body.
    ///
    /// `scope` may be a space-separated string (RFC 6749) or an array of strings (Uber's SDK accepts both).
    ///
    /// - Parameters:
    ///   - data: the response body.
    ///   - tokenTypeWhenAbsent: the type assumed when `token_type` is missing (a provider whose vendor SDK accepts
    ///     that); `nil` makes a missing type an error, as RFC 6749 §5.1 requires it.
    /// - Throws: `invalid_response` for a body that is not a JSON object, lacks `access_token` / `token_type`, or
    ///   has an `expires_in` that is not a non-negative number of seconds (values above
    ///   ten years are clamped to it); `unsupported_token_type` for a token type other than `Bearer` or `DPoP` (in any case).
    package init(json data: Data, tokenTypeWhenAbsent: String? = nil) throws {
        let object: [String: JSONValue]
        do {
            object = try JSONValue.parseObject(data)
        } catch {
            throw AuthError(.invalidResponse, "The token response is not a JSON object.")
        }
        try self.init(members: object, tokenTypeWhenAbsent: tokenTypeWhenAbsent)
    }

    /// Parses a token response's members, however its body was encoded (see ``members(of:contentType:)``).
    ///
    /// - Throws: as ``init(json:tokenTypeWhenAbsent:)``.
    package init(members object: [String: JSONValue], tokenTypeWhenAbsent: String? = nil) throws {
        guard let accessToken = object["access_token"]?.stringValue, !accessToken.isEmpty else {
            throw AuthError(.invalidResponse, "The token response has no 'access_token'.")
        }
        guard let tokenType = object["token_type"]?.stringValue ?? tokenTypeWhenAbsent else {
            throw AuthError(.invalidResponse, "The token response has no 'token_type'.")
        }
        guard let canonical = Self.supportedTokenTypes[tokenType.lowercased()] else {
            throw AuthError(.unsupportedTokenType, "The token type '\(tokenType)' is not supported; expected Bearer (or DPoP).")
        }
        let expiresIn: TimeInterval?
        switch object["expires_in"] {
        case nil, .null?:
            expiresIn = nil
        case let value?:
            // A hostile or broken server must not make a later date or integer conversion trap: anything but a
            // non-negative number (or a quoted decimal) is refused before anything is stored.
            guard let seconds = value.lifetimeValue else {
                throw AuthError(.invalidResponse, "The token response's 'expires_in' is not a non-negative number of seconds.")
            }
            expiresIn = seconds
        }
        func secret(_ key: String) -> Secret? {
            object[key]?.stringValue.flatMap { $0.isEmpty ? nil : Secret($0) }
        }
        self.init(
            accessToken: Secret(accessToken),
            tokenType: canonical,
            expiresIn: expiresIn,
            refreshToken: secret("refresh_token"),
            idToken: secret("id_token"),
            scope: object["scope"]?.stringValue
                ?? object["scope"]?.arrayValue.map { $0.compactMap(\.stringValue).joined(separator: " ") }
        )
        deviceSecret = secret("device_secret")
    }
}
