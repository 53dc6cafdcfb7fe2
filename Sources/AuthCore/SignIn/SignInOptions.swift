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
    /// no PKCE in that mode). Only the backend exchange (AuthAppSupport's `completeAuthorization(redirect:)`) accepts
    /// such a response; ``AuthClient/completeSignIn(redirect:)`` refuses it. The code is then protected by `state`
    /// and the exact redirect alone.
    ///
    /// Package-only: an app cannot turn PKCE off. UberCompat sets it where Uber's SDK sent no PKCE, for backends
    /// written for that SDK. Default `false`.
    package var omitsPKCEForBackendExchange = false
    /// A `state` the app chose instead of the engine's random one (Schibsted's SDK 5 offers this, for apps that
    /// carry their own correlation value through the login). It protects against CSRF only if it is unguessable,
    /// so it must be at least 22 URL-safe characters (`A–Z a–z 0–9 - . _ ~`) and new:
    /// a value this client already used is refused. It is consumed once like any state. Default `nil` (random).
    public var state: String?
    /// The account the credential is stored under, instead of the ID token's subject (``Credential/accountName``).
    ///
    /// A server that keeps one credential per browser session gives each sign-in its own name, so two sessions of
    /// one user never share tokens: signing out in one leaves the other's intact, and neither picks up the other's
    /// next tokens. It also names the credential when the provider does not say who signed in (no ID token, so no
    /// subject — Uber's login). Default `nil`: the subject, or `default` without one (an app with one user per
    /// provider).
    public var accountName: String?

    /// The resource server's requirement this sign-in steps up to (RFC 9470 §4), set by ``Session`` and the web
    /// module: the ID token must then name ``expectedSubject`` (when set), and an `acr` or `auth_time` short of
    /// `acrValues`/`maxAge` fails as `step_up_not_satisfied`, before anything is stored. `nil` for an ordinary sign-in.
    package var stepUp: StepUpRequirement?
    /// The user a step-up sign-in must authenticate again: the signed-in session's subject; another fails as
    /// `subject_mismatch`, nothing stored.
    package var expectedSubject: String?

    /// The shortest caller-chosen ``state`` accepted: 22 characters, the length of 128 random bits in base64url.
    package static let minimumCallerStateLength = 22

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

extension SignInOptions {
    /// The options of a step-up sign-in for `requirement` (RFC 9470 §4): its `acr_values` as essential (OpenID Connect
    /// Core §5.5.1.1, so the ID token's `acr` must be one of them) and its `max_age`; `prompt=login` when the
    /// challenge named neither, so the user authenticates again all the same.
    package static func stepUp(to requirement: StepUpRequirement, subject: String?, accountName: String?) -> SignInOptions {
        var options = SignInOptions(
            prompt: requirement.acrValues.isEmpty && requirement.maxAge == nil ? ["login"] : [],
            maxAge: requirement.maxAge,
            acrValues: requirement.acrValues,
            requiresACR: !requirement.acrValues.isEmpty
        )
        options.stepUp = requirement
        options.expectedSubject = subject
        options.accountName = accountName
        return options
    }
}
