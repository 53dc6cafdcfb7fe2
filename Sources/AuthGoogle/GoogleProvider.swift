public import AuthCore
public import Foundation

/// Sign in with Google: Google's OpenID Connect server with its documented quirks handled.
///
/// - Discovery at `https://accounts.google.com`; ID tokens whose `iss` is `https://accounts.google.com` **or**
///   `accounts.google.com` are both accepted, and nothing else
///   (https://developers.google.com/identity/openid-connect/openid-connect#validatinganidtoken,
///   https://developers.google.com/identity/openid-connect/reference#discovery-document).
/// - `hosted_domain`: sent as `hd`, **and** checked in the ID token's `hd` claim, because the parameter only
///   streamlines the account chooser; a token without `hd`, or with another, is refused with
///   `google_hosted_domain_mismatch` and nothing is stored
///   (https://developers.google.com/identity/openid-connect/openid-connect#hd-param).
/// - `offline`: `access_type=offline` and `prompt=consent`, so Google issues a refresh token (it issues one only on
///   the first consent otherwise) (https://developers.google.com/identity/protocols/oauth2/web-server#offline).
/// - Incremental authorization: `include_granted_scopes=true`, and a later sign-in asks for more scopes with
///   `SignInOptions(additionalScopes:)` (or ``addingScopes(_:)``); the new grant keeps the earlier scopes
///   (https://developers.google.com/identity/protocols/oauth2/web-server#incrementalAuth).
///
/// Configuration keys (a JSON file or a dictionary):
///
/// | key | required | meaning |
/// |---|---|---|
/// | `client_id` | yes | the OAuth client id from the Google Cloud console |
/// | `redirect_uri` | yes | the registered redirect URI |
/// | `client_secret` | no | a web application client's secret (never in an app) |
/// | `scope` | no | space-separated string or array; default `openid email profile` (`openid` added when missing) |
/// | `hosted_domain` | no | a Google Workspace domain (`example.com`), or `*` for any Workspace domain: sent as `hd` and required in the ID token's `hd` |
/// | `offline` | no | `true`: `access_type=offline` + `prompt=consent`, so a refresh token is issued |
/// | `include_granted_scopes` | no | default `true`: each grant includes the scopes granted before (incremental authorization) |
/// | `login_hint` | no | an email address or `sub` to preselect the account |
/// | `token_endpoint_auth_method` | no | `client_secret_basic` (default with a secret), `client_secret_post`, `none` |
/// | `parameters` | no | a dictionary of extra authorization parameters |
/// | `ephemeral_session` | no | prefer an ephemeral browser session |
/// | `issuer` | no | default `https://accounts.google.com`; another only for an emulator |
public struct GoogleProvider: AuthProvider {
    /// `google`.
    public static let id: ProviderID = "google"
    /// `Google`.
    public static let displayName = "Google"
    /// `https://accounts.google.com`.
    public static let defaultIssuer = URL(string: "https://accounts.google.com")!

    /// The issuer whose discovery document gives the endpoints.
    public let issuer: URL
    /// The client registration.
    public let client: ClientRegistration
    /// The Workspace domain every signed-in user must belong to (`*`: any Workspace domain); `nil` accepts every
    /// Google account.
    public let hostedDomain: String?
    /// Whether a refresh token is asked for (`access_type=offline` and `prompt=consent`).
    public let offline: Bool
    /// Whether `include_granted_scopes=true` is sent.
    public let includeGrantedScopes: Bool
    /// A `login_hint` sent with every request.
    public let loginHint: String?
    /// Extra authorization parameters sent with every request.
    public let additionalParameters: [String: String]
    /// Whether to prefer an ephemeral browser session.
    public let prefersEphemeralWebSession: Bool

    /// Creates a provider in code.
    public init(
        client: ClientRegistration,
        hostedDomain: String? = nil,
        offline: Bool = false,
        includeGrantedScopes: Bool = true,
        loginHint: String? = nil,
        additionalParameters: [String: String] = [:],
        prefersEphemeralWebSession: Bool = false,
        issuer: URL = GoogleProvider.defaultIssuer
    ) {
        self.issuer = issuer
        self.client = client
        self.hostedDomain = hostedDomain?.lowercased()
        self.offline = offline
        self.includeGrantedScopes = includeGrantedScopes
        self.loginHint = loginHint
        self.additionalParameters = additionalParameters
        self.prefersEphemeralWebSession = prefersEphemeralWebSession
    }

    /// Creates a provider from the keys in the table above.
    ///
    /// - Throws: `missing_configuration_key` naming `client_id` or `redirect_uri`; `invalid_configuration` for a value
    ///   of the wrong shape.
    public init(configuration: ProviderConfiguration) throws {
        let issuer = configuration["issuer"] == nil ? Self.defaultIssuer : try configuration.requiredURL("issuer", providerID: Self.id)
        let client = try configuration.openIDClient(providerID: Self.id, defaultScopes: ["openid", "email", "profile"])
        let domain = configuration.string("hosted_domain").flatMap { $0.isEmpty ? nil : $0 }
        if let domain, domain != "*", domain.contains(where: { $0 == "/" || $0 == "@" || $0.isWhitespace }) {
            throw AuthError(
                .invalidConfiguration, "The configuration key 'hosted_domain' must be a domain such as example.com, or *.",
                providerID: Self.id, configurationKey: "hosted_domain"
            )
        }
        self.init(
            client: client,
            hostedDomain: domain,
            offline: configuration.bool("offline") ?? false,
            includeGrantedScopes: configuration.bool("include_granted_scopes") ?? true,
            loginHint: configuration.string("login_hint"),
            additionalParameters: try configuration.authorizationParameters(providerID: Self.id),
            prefersEphemeralWebSession: configuration.bool("ephemeral_session") ?? false,
            issuer: issuer
        )
    }

    /// The same provider asking for `scopes` too on every sign-in (incremental authorization: with
    /// ``includeGrantedScopes`` the new grant also covers what was granted before). For one sign-in only, pass
    /// `SignInOptions(additionalScopes:)` instead.
    public func addingScopes(_ scopes: [String]) -> GoogleProvider {
        var client = client
        for scope in scopes where !client.scopes.contains(scope) { client.scopes.append(scope) }
        return GoogleProvider(
            client: client, hostedDomain: hostedDomain, offline: offline, includeGrantedScopes: includeGrantedScopes,
            loginHint: loginHint, additionalParameters: additionalParameters,
            prefersEphemeralWebSession: prefersEphemeralWebSession, issuer: issuer
        )
    }

    /// OpenID Connect discovery at the issuer (`https://accounts.google.com/.well-known/openid-configuration`).
    public var endpointSource: EndpointSource { .discovery(issuer: issuer) }

    /// The standard policy, also accepting the issuer without its scheme: Google's ID tokens carry
    /// `https://accounts.google.com` or `accounts.google.com`
    /// (https://developers.google.com/identity/openid-connect/openid-connect#validatinganidtoken). No other spelling.
    public var idTokenPolicy: IDTokenPolicy {
        IDTokenPolicy(alternativeIssuers: [Self.issuerWithoutScheme(issuer)])
    }

    /// An ephemeral web session when configured so; otherwise standard.
    public var behavior: ProviderBehavior { ProviderBehavior(prefersEphemeralWebSession: prefersEphemeralWebSession) }

    /// `hd`, `access_type=offline` with `prompt=consent`, `include_granted_scopes`, `login_hint` and the configured
    /// extra parameters.
    ///
    /// `prompt=consent` joins the app's own `prompt` values; it is not added to `prompt=none`, which Google refuses
    /// in combination with any other value.
    public func authorizationParameters(for request: SignInContext) -> [String: String] {
        var parameters = additionalParameters
        if let hostedDomain { parameters["hd"] = hostedDomain }
        if includeGrantedScopes { parameters["include_granted_scopes"] = "true" }
        if let loginHint, request.options.loginHint == nil { parameters["login_hint"] = loginHint }
        if offline {
            parameters["access_type"] = "offline"
            let prompt = request.options.prompt
            if !prompt.contains("none") { parameters["prompt"] = (prompt.contains("consent") ? prompt : prompt + ["consent"]).joined(separator: " ") }
        }
        return parameters
    }

    /// With ``hostedDomain``, the ID token's `hd` must be that domain (any domain for `*`): the `hd` request
    /// parameter is only a hint a user can edit, the claim is signed by Google
    /// (https://developers.google.com/identity/openid-connect/openid-connect#hd-param).
    ///
    /// The engine applies it to sign-ins, device sign-ins, imported tokens, native credentials, refreshed ID tokens (a
    /// refusal then signs the user out) and `verifyIDToken` alike; without an ID token there is no signed `hd`, so a
    /// restricted provider refuses.
    ///
    /// - Throws: `google_hosted_domain_mismatch`; nothing is stored then.
    public func validateIdentity(_ claims: IDTokenClaims?) throws {
        guard let hostedDomain else { return }
        let claimed = claims?["hd"]?.stringValue?.lowercased()
        guard let claimed, !claimed.isEmpty else {
            throw AuthError(
                .googleHostedDomainMismatch,
                "The Google account is not in the Workspace domain \(hostedDomain) (its ID token has no 'hd' claim).",
                providerID: Self.id
            )
        }
        guard hostedDomain == "*" || claimed == hostedDomain else {
            throw AuthError(
                .googleHostedDomainMismatch,
                "The Google account belongs to the Workspace domain \(claimed), not \(hostedDomain).",
                providerID: Self.id
            )
        }
    }

    /// `https://accounts.google.com` → `accounts.google.com`.
    static func issuerWithoutScheme(_ issuer: URL) -> String {
        let text = issuer.absoluteString
        guard let scheme = issuer.scheme, text.hasPrefix(scheme + "://") else { return text }
        return String(text.dropFirst(scheme.count + 3))
    }
}

extension AuthError.Code {
    /// Google: the signed-in account's ID token has no `hd` claim, or another than the configured `hosted_domain`.
    public static let googleHostedDomainMismatch: Self = "google_hosted_domain_mismatch"
}
