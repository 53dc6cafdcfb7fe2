public import AuthCore
public import Foundation

/// A token a token exchange issued (RFC 8693 §2.2.1), kept apart from the session's own credential: it never
/// replaces the session's tokens, and is asked for again when it expires (``ExchangedTokenSource``).
///
/// Its `description` is redacted like every `Secret`.
public struct ExchangedToken: Sendable, CustomStringConvertible {
    /// The issued token (RFC 8693's `access_token` member, whatever its type).
    public let token: Secret
    /// Its type URI (`issued_token_type`).
    public let issuedTokenType: TokenExchangeTokenType
    /// How it is presented: `Bearer`, `DPoP` for a token bound to a key (RFC 9449), or `N_A` for a token that is not
    /// an access token (RFC 8693 §2.2.1).
    public let tokenType: String
    /// When it expires, when the answer said (`expires_in`).
    public let expiresAt: Date?
    /// The granted scopes, when the answer named them; else the ones asked for.
    public let scopes: [String]?
    /// What was asked for.
    public let request: TokenExchangeRequest

    /// The key a `DPoP` token is bound to.
    package let dpopKey: DPoPKey?

    package init(
        token: Secret, issuedTokenType: TokenExchangeTokenType, tokenType: String, expiresAt: Date?, scopes: [String]?, request: TokenExchangeRequest,
        dpopKey: DPoPKey?
    ) {
        self.token = token
        self.issuedTokenType = issuedTokenType
        self.tokenType = tokenType
        self.expiresAt = expiresAt
        self.scopes = scopes
        self.request = request
        self.dpopKey = dpopKey
    }

    /// Whether it is bound to a DPoP key (RFC 9449): every request with it carries a proof.
    public var isDPoPBound: Bool { dpopKey != nil }

    /// `ExchangedToken(<type>, <token type>, expires …)` — never the token.
    public var description: String {
        "ExchangedToken(\(issuedTokenType.rawValue), \(tokenType), expires \(expiresAt.map { "\($0)" } ?? "unknown"), token <redacted>)"
    }
}
