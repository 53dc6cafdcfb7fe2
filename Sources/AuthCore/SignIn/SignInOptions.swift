public import Foundation

/// Per-sign-in choices an app makes: hints, prompts, extra scopes and parameters.
public struct SignInOptions: Sendable, Hashable, Codable {
    /// `login_hint`: the user's e-mail or phone, to pre-fill the login page.
    public var loginHint: String?
    /// `id_token_hint`: a previous ID token, for re-authentication.
    public var idTokenHint: Secret?
    /// `prompt` values (`login`, `consent`, `select_account`, `none`), space-joined on the wire.
    public var prompt: [String]
    /// `max_age` in seconds. When set, the ID token must carry an `auth_time` no older than this (plus the clock
    /// skew), or sign-in fails with `missing_claim` / `authentication_too_old`.
    public var maxAge: Int?
    /// `acr_values`, space-joined on the wire (voluntary: the provider may satisfy another class).
    public var acrValues: [String]
    /// Whether `acrValues` are essential: they are then also requested through the `claims` parameter, and an ID
    /// token whose `acr` is not one of them fails with `acr_not_satisfied` (OpenID Connect Core §5.5.1.1).
    public var requiresACR: Bool
    /// `ui_locales`, space-joined on the wire.
    public var uiLocales: [String]
    /// Scopes added to the provider's default scopes.
    public var additionalScopes: [String]
    /// Any other parameters for the authorization request.
    public var additionalParameters: [String: String]
    /// Overrides the provider's ephemeral-session preference for this sign-in.
    public var prefersEphemeralSession: Bool?
    /// Overrides the redirect URI (a loopback agent that listens on an ephemeral port sets the real port here).
    public var redirectURI: URL?
    /// Omits PKCE, for a code a backend redeems without `code_verifier` (a backend written for Uber's SDK, which sent
    /// no PKCE in that mode). Only ``AuthClient/completeAuthorization(redirect:)`` accepts such a response;
    /// ``AuthClient/completeSignIn(redirect:)`` refuses it. The code is then protected by `state` and the exact
    /// redirect alone: prefer a backend that sends the verifier. Default `false`.
    public var omitsPKCEForBackendExchange = false
    /// A `state` the app chose instead of the engine's random one (Schibsted's SDK 5 offers this, for apps that
    /// carry their own correlation value through the login). It protects against CSRF only if it is unguessable,
    /// so it must be at least ``minimumCallerStateLength`` URL-safe characters (`A–Z a–z 0–9 - . _ ~`) and new:
    /// a value this client already used is refused. It is consumed once like any state. Default `nil` (random).
    public var state: String?
    /// Where the credential is stored when the provider does not say who signed in (no ID token, so no subject —
    /// Uber's login): a server that signs many users in with such a provider gives each sign-in its own name, so
    /// their tokens never share one stored credential (``Credential/accountName``). Ignored when the ID token names a
    /// subject. Default `nil` (one account, `default`, as an app with one user needs).
    public var accountName: String?

    /// The shortest caller-chosen ``state`` accepted: 22 characters, the length of 128 random bits in base64url.
    public static let minimumCallerStateLength = 22

    /// Creates options; everything is optional.
    public init(
        loginHint: String? = nil,
        idTokenHint: Secret? = nil,
        prompt: [String] = [],
        maxAge: Int? = nil,
        acrValues: [String] = [],
        requiresACR: Bool = false,
        uiLocales: [String] = [],
        additionalScopes: [String] = [],
        additionalParameters: [String: String] = [:],
        prefersEphemeralSession: Bool? = nil,
        redirectURI: URL? = nil
    ) {
        self.loginHint = loginHint
        self.idTokenHint = idTokenHint
        self.prompt = prompt
        self.maxAge = maxAge
        self.acrValues = acrValues
        self.requiresACR = requiresACR
        self.uiLocales = uiLocales
        self.additionalScopes = additionalScopes
        self.additionalParameters = additionalParameters
        self.prefersEphemeralSession = prefersEphemeralSession
        self.redirectURI = redirectURI
    }
}

/// What a provider sees when it shapes an authorization request or checks its result.
public struct SignInRequest: Sendable {
    /// The app's options for this sign-in.
    public let options: SignInOptions
    /// The provider's endpoints.
    public let metadata: ProviderMetadata
    /// The scopes requested (the provider's defaults plus the options' additions).
    public let scopes: [String]
    /// The redirect URI used.
    public let redirectURI: URL

    /// Creates a request description.
    public init(options: SignInOptions, metadata: ProviderMetadata, scopes: [String], redirectURI: URL) {
        self.options = options
        self.metadata = metadata
        self.scopes = scopes
        self.redirectURI = redirectURI
    }
}

/// The grant of a token request, shown to providers that add headers or parameters.
public enum TokenGrant: Sendable {
    /// Exchanging an authorization code.
    case authorizationCode(code: Secret, codeVerifier: Secret, redirectURI: URL)
    /// Refreshing with a refresh token.
    case refreshToken(Secret)
    /// Polling for a device sign-in's tokens with its device code (RFC 8628 §3.4).
    case deviceCode(Secret)

    /// The `grant_type` value.
    public var grantType: String {
        switch self {
        case .authorizationCode: "authorization_code"
        case .refreshToken: "refresh_token"
        case .deviceCode: "urn:ietf:params:oauth:grant-type:device_code"
        }
    }
}

/// A successful sign-in before it is stored: the tokens and the validated ID token claims.
public struct SignInResult: Sendable {
    /// The token response.
    public let tokens: TokenResponse
    /// The validated ID token claims, when an ID token was issued.
    public let idTokenClaims: IDTokenClaims?

    /// Creates a result.
    public init(tokens: TokenResponse, idTokenClaims: IDTokenClaims?) {
        self.tokens = tokens
        self.idTokenClaims = idTokenClaims
    }
}
