public import AuthCore
public import Foundation

extension TestIdentityProvider {
    /// Endpoint paths, relative to the issuer. Emulators change them to match a provider's real layout.
    public struct Paths: Sendable {
        /// The discovery document (`nil`: the provider has no discovery).
        public var discovery: String? = "/.well-known/openid-configuration"
        /// The JWKS.
        public var jwks = "/jwks"
        /// The authorization endpoint.
        public var authorize = "/authorize"
        /// Further paths that also serve authorization requests (a provider's per-app endpoints).
        public var authorizeAliases: [String] = []
        /// The token endpoint.
        public var token = "/token"
        /// The user info endpoint (`nil`: the provider has none, as GOV.UK's secure token service).
        public var userinfo: String? = "/userinfo"
        /// The RFC 7009 revocation endpoint.
        public var revoke = "/revoke"
        /// The RFC 7662 introspection endpoint.
        public var introspect = "/introspect"
        /// The end-session endpoint.
        public var endSession = "/logout"
        /// A protected API that accepts the issued access tokens.
        public var resource = "/api/resource"
        /// The RFC 9126 pushed authorization request endpoint (served when `Configuration/pushedAuthorization` is set).
        public var pushedAuthorization = "/par"
        /// The RFC 8628 device authorization endpoint (`nil`: no device flow).
        public var deviceAuthorization: String? = "/device_authorization"
        /// The device flow's verification page, where the user enters the code and signs in.
        public var deviceVerification = "/device"
        /// Where an app deletes its grant for a user with its own API, `{client_id}` standing for its client id
        /// (GitHub's `/applications/{client_id}/grant`); `nil`: no such endpoint.
        public var grantDeletion: String?
        /// The RFC 7591 client registration endpoint, its RFC 7592 client configuration URIs beneath (`nil`: none).
        public var registration: String?

        /// The default layout.
        public init() {}
    }

    /// A provider's peculiarities: what its server insists on, and what it adds.
    ///
    /// A strict emulator rejects requests that lack the provider's quirks, so a test that passes against it
    /// proves the client sends them.
    public struct Quirks: Sendable {
        /// Checks an authorization request's parameters (and the path it was sent to); a returned text rejects
        /// it with `invalid_request` and that description.
        public var validateAuthorization: (@Sendable (_ query: [String: String], _ path: String) -> String?)?
        /// Checks an authorization request before the standard checks, as the provider's server does, with the
        /// provider's own error code: a returned pair is redirected back as `error` and `error_description`.
        /// The `aud` a signed request object must carry: the issuer (RFC 9101) by default; GOV.UK One Login requires its
        /// authorization endpoint.
        public var requestObjectAudience: RequestObjectAudience = .issuer
        /// How a request object with another `aud` is answered when set: a redirect with this error (and the object's
        /// `state`), as GOV.UK's simulator answers; `nil`: an error page.
        public var requestObjectAudienceError: (error: String, description: String)?
        /// Refuses an authorization request before its `state` is read: the error is redirected without `state` (GOV.UK's
        /// simulator does so for requests it cannot parse, and for a missing `state`). Checked before
        /// ``rejectAuthorization``.
        /// How a protected request with a missing or bad access token is answered (401): the body and the
        /// `WWW-Authenticate` value, by whether a token was presented; `nil`: a JSON `invalid_token` body. GOV.UK's
        /// user info sends an empty body.
        public var unauthorizedAnswer: (@Sendable (_ tokenPresented: Bool) -> (body: Data, wwwAuthenticate: String))?
        public var rejectAuthorizationWithoutState: (@Sendable (_ query: [String: String]) -> (error: String, description: String)?)?
        public var rejectAuthorization: (@Sendable (_ query: [String: String], _ path: String) -> (error: String, description: String)?)?
        /// Whether an authorization request may come without PKCE (Uber: its SDK's backend-exchange mode sends none);
        /// a code issued so is then redeemed without `code_verifier`.
        public var pkceOptional = false
        /// Whether the token endpoint also reads its parameters from the URL query when the body has none (GrabID:
        /// its partner SDK sends them there).
        public var tokenParametersInQuery = false
        /// Checks a token request (headers and form); a returned text rejects it with HTTP 400 `invalid_request`.
        public var validateTokenRequest: (@Sendable (CapturedRequest, [String: String]) -> String?)?
        /// Checks a token request's form before the client is authenticated, as a provider that parses the request
        /// first does (GOV.UK: `grant_type`, then `redirect_uri`, then `code`); a returned answer refuses it.
        public var checkTokenFormBeforeClientAuthentication: (@Sendable ([String: String]) -> (status: Int, error: String, description: String)?)?
        /// Whether a code exchange comes with a refresh token, from its authorization request's parameters (Google:
        /// only with `access_type=offline`); `nil`: as `Configuration/refreshTokenRequiresScope` says. Called once per
        /// redeemed code.
        public var issuesRefreshToken: (@Sendable (_ authorization: [String: String]) -> Bool)?
        /// Extra ID token claims, from the authorization request's parameters (for example `amr` for an
        /// requested `acr_values`).
        public var idTokenClaims: (@Sendable ([String: String]) -> [String: JSONValue])?
        /// Shapes the user info response from the subject, the user's claims, and the parameters of the
        /// authorization request the access token descends from (what scopes and claims were asked for).
        public var userInfo: (@Sendable (_ subject: String, _ claims: [String: JSONValue], _ authorization: [String: String]) -> [String: JSONValue])?
        /// Where the end-session endpoint sends a user without a valid registered post-logout redirect (default
        /// `<issuer>/signed-out`; GOV.UK's is `https://gov.uk`).
        public var defaultLogoutURL: URL?
        /// Whether ID tokens carry the user's claims (`email`, `name`, …); GOV.UK One Login's carry none of them.
        public var idTokenIncludesUserClaims = true
        /// Members added to the discovery document (a provider's own endpoints).
        public var discoveryExtras: [String: JSONValue] = [:]
        /// Members removed from the discovery document (endpoints the provider does not have).
        public var discoveryRemovals: Set<String> = []
        /// Headers on the discovery response (for example `Cache-Control: max-age=86400`).
        public var discoveryHeaders: [String: String] = [:]
        /// Fixed JSON documents served with `GET` on their path (a DID document, a trust mark list), with headers.
        public var documents: [String: (body: [String: JSONValue], headers: [String: String])] = [:]
        /// The client authentication methods the token endpoint accepts (`nil`: all); another method fails with
        /// ``ClientAuthenticationFailure/unsupportedMethod``, none at all with ``ClientAuthenticationFailure/noAuthentication``.
        public var acceptedClientAuthenticationMethods: Set<ClientRegistration.AuthenticationMethod>?
        /// The client assertion algorithms accepted (`nil`: all this package verifies).
        public var acceptedAssertionAlgorithms: Set<JWSAlgorithm>?
        /// Whether a client assertion may name the issuer as its audience, besides the token endpoint.
        public var acceptsIssuerAsAssertionAudience = false
        /// The provider's answer to a failed client authentication: status, OAuth error and description (`nil`:
        /// 401 `invalid_client` for every failure).
        public var clientAuthenticationError: (@Sendable (ClientAuthenticationFailure) -> (status: Int, error: String, description: String?))?
        /// Serves a provider-specific API on any other path: given the request and the subject of its valid
        /// bearer token (`nil` without one), returns a status and a JSON body, or `nil` for 404.
        public var api: (@Sendable (CapturedRequest, String?) -> (status: Int, body: JSONValue)?)?
        /// Reshapes every answer of the token and device authorization endpoints (given the request and the endpoint's
        /// path) before it is sent: GitHub answers form-encoded unless the request accepts JSON, and reports errors with
        /// HTTP 200 under its own codes. `nil`: sent as made.
        public var reshapeTokenEndpointAnswer: (@Sendable (_ request: CapturedRequest, _ path: String, _ answer: (Data, HTTPResponse)) -> (Data, HTTPResponse))?

        /// No quirks: plain OpenID Connect.
        public init() {}
    }
}

extension TestIdentityProvider {
    /// `answer` as ``Quirks/reshapeTokenEndpointAnswer`` reshapes it (unchanged without that quirk).
    func reshapedTokenEndpointAnswer(_ request: CapturedRequest, _ path: String, _ answer: (Data, HTTPResponse)) -> (Data, HTTPResponse) {
        configuration.quirks.reshapeTokenEndpointAnswer?(request, path, answer) ?? answer
    }
}

/// Why the in-process identity provider refused a client's authentication (recorded in
/// `TestIdentityProvider/clientAuthenticationFailures` by raw value, and mapped to a response by
/// `TestIdentityProvider/Quirks/clientAuthenticationError`).
public enum ClientAuthenticationFailure: String, Error, Sendable, CaseIterable {
    /// The request carried no client authentication, and the provider requires some.
    case noAuthentication = "no client authentication"
    /// The request used a method the provider does not accept (for example `client_secret_basic`).
    case unsupportedMethod = "unsupported authentication method"
    /// No registered client has that id (`client_id`, or the Basic credentials' user).
    case unknownClient = "unknown client"
    /// A client assertion's `iss`/`sub` names no registered key-based client.
    case unknownAssertionClient = "unknown client in assertion"
    /// The client secret is wrong.
    case wrongSecret = "wrong secret"
    /// A `private_key_jwt` client sent no assertion.
    case keyClientWithoutAssertion = "a private_key_jwt client sent no assertion"
    /// `client_assertion_type` is not the JWT bearer type.
    case wrongAssertionType = "wrong client_assertion_type"
    /// The assertion is not a JWS with `iss`, `sub` and `exp`, or names another client than `client_id`.
    case malformedAssertion = "malformed assertion"
    /// The assertion is signed with an algorithm the provider does not accept.
    case unsupportedAssertionAlgorithm = "unsupported assertion algorithm"
    /// The assertion expired, or lives longer than five minutes.
    case expiredAssertion = "expired or too long-lived"
    /// The assertion's `aud` is not the token endpoint (or another accepted audience).
    case wrongAudience = "wrong audience"
    /// The assertion's `iss` differs from its `sub`.
    case issuerIsNotSubject = "iss is not sub"
    /// The assertion's signature does not verify with the client's registered key.
    case badSignature = "bad signature"
    /// The assertion's `jti` was seen before.
    case replayedAssertion = "replayed jti"
}
