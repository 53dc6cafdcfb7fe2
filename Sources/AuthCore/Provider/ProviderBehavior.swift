/// How a provider departs from standard OAuth 2.0 / OpenID Connect behaviour: one value with standard defaults, so
/// a provider states only its quirks and a new quirk adds a field here, not a requirement to ``AuthProvider``.
///
/// ```swift
/// public var behavior: ProviderBehavior { ProviderBehavior(tokenRequestRetries: 1, tokenTypeWhenAbsent: "Bearer") }
/// ```
public struct ProviderBehavior: Sendable, Hashable {
    /// How many times a token request is retried after a 5xx or a transport failure (a vendor that documents
    /// retries). Standard: 0.
    public var tokenRequestRetries: Int
    /// Whether an authorization response without `state` is accepted when exactly one PKCE-protected login is pending
    /// for its redirect (RFC 9700 §2.1: PKCE is the CSRF protection then). For providers whose native apps never echo
    /// `state` (Uber's). Standard: `false`, `state` is required. A response with a different `state` is always refused.
    public var acceptsResponsesWithoutState: Bool
    /// The token type assumed when a token response has no `token_type` (Uber's and Schibsted's SDKs accept such
    /// responses). Standard: `nil`, such responses are refused, as RFC 6749 §5.1 requires the member.
    public var tokenTypeWhenAbsent: String?
    /// Whether authorization requests travel as a signed request object (RFC 9101 `request=`, signed with the
    /// client's ``ClientRegistration/signingKey``). Standard: `false`, plain query parameters.
    public var usesSignedRequestObject: Bool
    /// The `aud` of a signed request object. Standard: ``RequestObjectAudience/issuer`` (RFC 9101 §4).
    public var requestObjectAudience: RequestObjectAudience
    /// Whether token requests carry their parameters in the URL query of a bodiless `POST` — where a vendor's own SDK
    /// sends them and its server is known to read them (Grab's). Standard: `false`, a form body (RFC 6749 §4.1.3),
    /// which keeps codes and tokens out of URLs and server logs.
    public var sendsTokenParametersInQuery: Bool
    /// Whether the web session should avoid shared cookies (an ephemeral browser session). Standard: `false`, shared
    /// browser cookies (single sign-on).
    public var prefersEphemeralWebSession: Bool

    /// Standard OAuth 2.0 / OpenID Connect behaviour: every field at its standard value.
    public static let standard = ProviderBehavior()

    /// A behaviour that differs from the standard in the fields given.
    public init(
        tokenRequestRetries: Int = 0,
        acceptsResponsesWithoutState: Bool = false,
        tokenTypeWhenAbsent: String? = nil,
        usesSignedRequestObject: Bool = false,
        requestObjectAudience: RequestObjectAudience = .issuer,
        sendsTokenParametersInQuery: Bool = false,
        prefersEphemeralWebSession: Bool = false
    ) {
        self.tokenRequestRetries = tokenRequestRetries
        self.acceptsResponsesWithoutState = acceptsResponsesWithoutState
        self.tokenTypeWhenAbsent = tokenTypeWhenAbsent
        self.usesSignedRequestObject = usesSignedRequestObject
        self.requestObjectAudience = requestObjectAudience
        self.sendsTokenParametersInQuery = sendsTokenParametersInQuery
        self.prefersEphemeralWebSession = prefersEphemeralWebSession
    }
}

/// Whom a signed request object (RFC 9101) is addressed to.
public enum RequestObjectAudience: Sendable, Hashable {
    /// The issuer identifier, as RFC 9101 §4 recommends.
    case issuer
    /// The authorization endpoint's URL: what GOV.UK One Login requires (its documentation's `aud` row, and its
    /// simulator refuses anything else with `access_denied`).
    case authorizationEndpoint
}
