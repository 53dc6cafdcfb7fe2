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

    /// Whether `openid` is among the scopes, which makes an ID token (and a nonce) mandatory.
    package var requestsOpenID: Bool { scopes.contains("openid") }
}
