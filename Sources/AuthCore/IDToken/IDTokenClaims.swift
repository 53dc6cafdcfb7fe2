public import Foundation

/// The validated claims of an ID token.
public struct IDTokenClaims: Sendable, Hashable {
    /// `iss`: the issuer.
    public let issuer: String
    /// `sub`: the user's stable identifier at the issuer.
    public let subject: String
    /// `aud`: the audiences (a single string is returned as one element).
    public let audience: [String]
    /// `exp`: when the ID token expires.
    public let expiration: Date
    /// `iat`: when it was issued.
    public let issuedAt: Date
    /// `nonce`, echoed from the authorization request.
    public let nonce: String?
    /// `auth_time`: when the user authenticated.
    public let authenticationTime: Date?
    /// `acr`: the authentication context class achieved.
    public let authenticationContextClass: String?
    /// `amr`: the authentication methods used (for example `pwd`, `otp`, `eid`).
    public let authenticationMethods: [String]
    /// `azp`: the authorized party.
    public let authorizedParty: String?
    /// Every claim, including provider-specific ones such as Schibsted's `legacy_user_id`.
    public let all: [String: JSONValue]

    /// The claim named `name`.
    public subscript(name: String) -> JSONValue? { all[name] }

    /// Reads the registered claims from a claims object; callers validate them (see ``IDTokenValidator``).
    ///
    /// - Throws: `missing_claim` when `sub`, `exp` or `iat` is absent or not a valid value (dates must be
    ///   NumericDates between the epoch and the year 9999); `malformed_id_token` for such an `auth_time`;
    ///   `invalid_issuer` / `invalid_audience` when `iss` / `aud` are.
    package init(_ claims: [String: JSONValue]) throws {
        guard let issuer = claims["iss"]?.stringValue, !issuer.isEmpty else {
            throw AuthError(.invalidIssuer, "The ID token has no 'iss' claim.")
        }
        let audience: [String]
        switch claims["aud"] {
        case .string(let value): audience = [value]
        case .array(let values) where !values.isEmpty && values.allSatisfy({ $0.stringValue != nil }):
            audience = values.compactMap(\.stringValue)
        default:
            throw AuthError(.invalidAudience, "The ID token has no 'aud' claim (a string or an array of strings).")
        }
        guard let subject = claims["sub"]?.stringValue, !subject.isEmpty else {
            throw AuthError(.missingClaim, "The ID token has no 'sub' claim.")
        }
        guard let expiration = claims["exp"]?.timestampValue else {
            throw AuthError(.missingClaim, "The ID token has no 'exp' claim that is a valid NumericDate.")
        }
        guard let issuedAt = claims["iat"]?.timestampValue else {
            throw AuthError(.missingClaim, "The ID token has no 'iat' claim that is a valid NumericDate.")
        }
        let authTime = claims["auth_time"]
        if let authTime, authTime != .null, authTime.timestampValue == nil {
            throw AuthError(.malformedIDToken, "The ID token's 'auth_time' is not a valid NumericDate.")
        }
        self.issuer = issuer
        self.subject = subject
        self.audience = audience
        self.expiration = expiration
        self.issuedAt = issuedAt
        self.nonce = claims["nonce"]?.stringValue
        self.authenticationTime = authTime?.timestampValue
        self.authenticationContextClass = claims["acr"]?.stringValue
        self.authenticationMethods = claims["amr"]?.arrayValue?.compactMap(\.stringValue) ?? []
        self.authorizedParty = claims["azp"]?.stringValue
        self.all = claims
    }
}
