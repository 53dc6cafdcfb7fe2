public import Foundation

/// What the app registered with the provider: its client id, redirect URI and scopes.
public struct ClientRegistration: Sendable, Hashable {
    /// How the client authenticates at the token endpoint.
    public enum AuthenticationMethod: String, Sendable, Hashable {
        /// A public client (mobile, desktop): `client_id` in the body, PKCE proves possession.
        case none
        /// `Authorization: Basic` with the client id and secret (RFC 6749 §2.3.1).
        case clientSecretBasic = "client_secret_basic"
        /// `client_id` and `client_secret` in the form body.
        case clientSecretPost = "client_secret_post"
        /// A JWT signed with the client's private key (RFC 7523 §2.2): ``ClientRegistration/signingKey``.
        case privateKeyJWT = "private_key_jwt"
        /// Mutual TLS with a certificate from a certificate authority the provider trusts (RFC 8705 §2.1): `client_id`
        /// in the body, the certificate presented by the transport (its TLS client identity), and the provider's
        /// `mtls_endpoint_aliases` used. The tokens issued are bound to the certificate (RFC 8705 §3).
        case tlsClientAuth = "tls_client_auth"
        /// Mutual TLS with a self-signed certificate registered with the provider (RFC 8705 §2.2); otherwise as
        /// ``tlsClientAuth``.
        case selfSignedTLSClientAuth = "self_signed_tls_client_auth"
    }

    /// The OAuth client identifier.
    public var clientID: String
    /// The client secret, for confidential clients only (never ship one in an app).
    public var clientSecret: Secret?
    /// The registered redirect URI; responses are matched against it exactly.
    public var redirectURI: URL
    /// The scopes requested by default.
    public var scopes: [String]
    /// How the client authenticates at the token endpoint.
    public var authenticationMethod: AuthenticationMethod
    /// The private key for `private_key_jwt` (never logged or described).
    public var signingKey: ClientSigningKey?
    /// Whether tokens are bound to a DPoP key (RFC 9449): by default when the provider advertises it.
    public var dpop: DPoPUsage
    /// The registered post-logout redirect URI (OpenID Connect RP-Initiated Logout 1.0 §3), sent as
    /// `post_logout_redirect_uri` with a fresh `state` at sign-out; `nil` when none is registered (the provider then
    /// shows its own signed-out page). Set it after `init` (which keeps its signature for compatibility).
    public var postLogoutRedirectURI: URL? = nil
    /// The client's private keys for encrypted ID tokens and user info (JWE), whose public halves it registered in
    /// its `jwks`; empty when it registered for no encryption or only for `A128KW` / `A256KW`.
    public var decryptionKeys: [ClientDecryptionKey] = []
    /// The registered `id_token_encrypted_response_alg` / `_enc`: every ID token must then be a JWE so encrypted.
    public var idTokenEncryption: ResponseEncryption? = nil
    /// The registered `userinfo_encrypted_response_alg` / `_enc`: every user info answer must then be so encrypted.
    public var userInfoEncryption: ResponseEncryption? = nil
    /// The registered `userinfo_signed_response_alg`: every user info answer must then be a JWT signed with it by the
    /// issuer's keys (OpenID Connect Core §5.3.2); never `none`.
    public var userInfoSigningAlgorithm: JWSAlgorithm? = nil
    /// Whether authorization requests are pushed first (RFC 9126): by default when the provider advertises it.
    public var pushedAuthorization: PushedAuthorizationUsage
    /// Authorization parameters repeated in the browser's URL beside `client_id` and `request_uri` when a request is
    /// pushed: none by default, as RFC 9126 §4 describes. Some OpenID providers apply OpenID Connect Core §6.1 (the
    /// parameters OAuth requires also passed as query parameters) to pushed requests and refuse a URL without them:
    /// idpyoidc wants `response_type`, `scope` and `redirect_uri`. Only those three may be named (the configuration
    /// key `par_repeat`); the values repeated are the pushed ones. Set it after `init`.
    public var pushedRequestRepeatedParameters: [String] = []
    /// The security profile the client holds itself to: ``ClientProfile/standard`` by default.
    public var profile: ClientProfile

    /// Creates a registration; with a signing key the method defaults to `private_key_jwt`, with a secret to
    /// `client_secret_basic`, else `none`.
    public init(
        clientID: String,
        clientSecret: Secret? = nil,
        redirectURI: URL,
        scopes: [String] = ["openid"],
        authenticationMethod: AuthenticationMethod? = nil,
        signingKey: ClientSigningKey? = nil,
        dpop: DPoPUsage = .whenAdvertised,
        pushedAuthorization: PushedAuthorizationUsage = .whenAdvertised,
        profile: ClientProfile = .standard
    ) {
        self.dpop = dpop
        self.pushedAuthorization = pushedAuthorization
        self.profile = profile
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.redirectURI = redirectURI
        self.scopes = scopes
        self.signingKey = signingKey
        self.authenticationMethod =
            authenticationMethod
            ?? (signingKey != nil ? .privateKeyJWT : clientSecret == nil ? .none : .clientSecretBasic)
    }

    /// The audience of the client's `private_key_jwt` assertions (the configuration key `client_assertion_audience`).
    package var clientAssertionAudience: ClientAssertionAudience = .tokenEndpoint

    /// Whether the client authenticates with its TLS certificate (RFC 8705), which also binds its tokens to it.
    package var usesMutualTLS: Bool { authenticationMethod == .tlsClientAuth || authenticationMethod == .selfSignedTLSClientAuth }

    /// Whether `openid` is among the scopes, which makes an ID token (and a nonce) mandatory.
    package var requestsOpenID: Bool { scopes.contains("openid") }
}
