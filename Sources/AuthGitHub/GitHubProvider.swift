public import AuthCore
public import Foundation

/// Sign in with GitHub: GitHub's OAuth 2.0 server (OAuth apps and GitHub Apps), which is not an OpenID Connect
/// provider for users — no discovery, no ID token, no JWKS. Who signed in comes from GitHub's REST API.
///
/// - Fixed endpoints on the web host: `/login/oauth/authorize`, `/login/oauth/access_token`, `/login/device/code`
///   (https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps). `web_url` and `api_url`
///   point them at GitHub Enterprise Server (`https://HOSTNAME`, `https://HOSTNAME/api/v3`) or an emulator.
/// - PKCE S256 and `state` on every sign-in: GitHub accepts PKCE (S256 only) but does not require it, so this provider
///   always sends it (https://github.blog/changelog/2025-07-14-pkce-support-for-oauth-and-github-app-authentication/).
///   The redirect URI is sent and matched exactly.
/// - Token responses: GitHub answers form-encoded unless asked for JSON, and reports errors (`bad_verification_code`,
///   `incorrect_client_credentials`, the device flow's `authorization_pending` and `slow_down`) with HTTP 200 and an
///   `error` member
///   (https://docs.github.com/en/apps/oauth-apps/maintaining-oauth-apps/troubleshooting-oauth-app-access-token-request-errors).
///   The engine asks for JSON, reads either shape, and treats such an answer as the error it is.
/// - Expiring user tokens (GitHub Apps): `expires_in` (8 hours), `refresh_token` (and `refresh_token_expires_in`, six
///   months); a refresh returns a new pair and spends the old one
///   (https://docs.github.com/en/apps/creating-github-apps/authenticating-with-a-github-app/refreshing-user-access-tokens).
///   An OAuth app's tokens do not expire and come without a refresh token.
/// - The device flow as `gh auth login` uses it: a user code to type at `https://github.com/login/device`, polling that
///   adds 5 seconds after each `slow_down`
///   (https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps#device-flow).
/// - Identity (``resolveIdentity(_:)``): `GET /user` for the numeric `id` (the subject), `login` and `name`, and
///   `GET /user/emails` for the primary **verified** address; a user without one is refused with
///   `github_no_verified_email` and nothing is stored
///   (https://docs.github.com/en/rest/users/users#get-the-authenticated-user,
///   https://docs.github.com/en/rest/users/emails#list-email-addresses-for-the-authenticated-user).
///
/// Configuration keys (a JSON file or a dictionary):
///
/// | key | required | meaning |
/// |---|---|---|
/// | `client_id` | yes | the OAuth app's or GitHub App's client id |
/// | `redirect_uri` | yes | the registered callback URL (a loopback `http://127.0.0.1/…` for native apps) |
/// | `client_secret` | no | the client secret; GitHub requires it for the web flow's code exchange, not for the device flow |
/// | `scope` | no | space-separated string or array; default `read:user user:email` (an OAuth app's scopes; a GitHub App's permissions are set in its settings). `openid` is refused |
/// | `allow_signup` | no | `false`: the authorization page offers no sign-up to people without an account (sent as `allow_signup`) |
/// | `login` | no | a GitHub username to suggest on the authorization page (sent as `login`; `SignInOptions.loginHint` overrides it) |
/// | `web_url` | no | default `https://github.com`; `https://HOSTNAME` for GitHub Enterprise Server, or an emulator |
/// | `api_url` | no | default `https://api.github.com` (`<web_url>/api/v3` when `web_url` is another host) |
/// | `user_agent` | no | the `User-Agent` of API requests (GitHub refuses requests without one); default `swift-auth-providers` |
/// | `token_endpoint_auth_method` | no | `client_secret_post` (default with a secret: GitHub reads the secret from the form), `none` (device flow without a secret) |
/// | `parameters` | no | a dictionary of extra authorization parameters (`prompt=select_account` is the app's `SignInOptions.prompt`) |
/// | `ephemeral_session` | no | prefer an ephemeral browser session |
public struct GitHubProvider: AuthProvider {
    /// `github`.
    public static let id: ProviderID = "github"
    /// `GitHub`.
    public static let displayName = "GitHub"
    /// `https://github.com`.
    public static let defaultWebURL = URL(string: "https://github.com")!
    /// `https://api.github.com`.
    public static let defaultAPIURL = URL(string: "https://api.github.com")!
    /// The REST API version every API request names in `X-GitHub-Api-Version`
    /// (https://docs.github.com/en/rest/about-the-rest-api/api-versions).
    public static let apiVersion = "2022-11-28"
    /// The scopes asked for when the configuration names none: the profile (`read:user`) and the email addresses
    /// (`user:email`, which `GET /user/emails` needs) (https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/scopes-for-oauth-apps).
    public static let defaultScopes = ["read:user", "user:email"]

    /// The client registration.
    public let client: ClientRegistration
    /// Where the sign-in pages and the token endpoint are (`https://github.com`, or GitHub Enterprise Server's host).
    public let webURL: URL
    /// The REST API's base (`https://api.github.com`, or `https://HOSTNAME/api/v3`).
    public let apiURL: URL
    /// `allow_signup` sent on every authorization request; `nil` leaves GitHub's default (sign-up offered).
    public let allowSignup: Bool?
    /// A username suggested on the authorization page (`login`).
    public let login: String?
    /// The `User-Agent` of API requests.
    public let userAgent: String
    /// Extra authorization parameters sent with every request.
    public let additionalParameters: [String: String]
    /// Whether to prefer an ephemeral browser session.
    public let prefersEphemeralWebSession: Bool

    /// Creates a provider in code.
    public init(
        client: ClientRegistration,
        webURL: URL = GitHubProvider.defaultWebURL,
        apiURL: URL? = nil,
        allowSignup: Bool? = nil,
        login: String? = nil,
        userAgent: String = "swift-auth-providers",
        additionalParameters: [String: String] = [:],
        prefersEphemeralWebSession: Bool = false
    ) {
        self.client = client
        self.webURL = webURL
        self.apiURL = apiURL ?? Self.apiURL(forWebURL: webURL)
        self.allowSignup = allowSignup
        self.login = login
        self.userAgent = userAgent
        self.additionalParameters = additionalParameters
        self.prefersEphemeralWebSession = prefersEphemeralWebSession
    }

    /// Creates a provider from the keys in the table above.
    ///
    /// - Throws: `missing_configuration_key` naming `client_id` or `redirect_uri`; `invalid_configuration` for a value
    ///   of the wrong shape or the scope `openid`; `insecure_endpoint` for a `web_url` or `api_url` that is neither
    ///   https nor loopback http.
    public init(configuration: ProviderConfiguration) throws {
        let clientID = try configuration.requiredString("client_id", providerID: Self.id)
        let redirectURI = try configuration.requiredURL("redirect_uri", providerID: Self.id)
        let webURL = configuration["web_url"] == nil ? Self.defaultWebURL : try configuration.requiredURL("web_url", providerID: Self.id)
        let apiURL = configuration["api_url"] == nil ? nil : try configuration.requiredURL("api_url", providerID: Self.id)
        try webURL.requireSecureEndpoint("web_url", providerID: Self.id)
        try (apiURL ?? Self.apiURL(forWebURL: webURL)).requireSecureEndpoint("api_url", providerID: Self.id)
        let scopes = configuration.scopes("scope") ?? Self.defaultScopes
        if scopes.contains("openid") {
            // GitHub issues no ID token to users; asking for one would make the engine wait for one that never comes.
            throw AuthError(
                .invalidConfiguration, "GitHub is not an OpenID Connect provider for users; remove 'openid' from 'scope'.",
                providerID: Self.id, configurationKey: "scope"
            )
        }
        let secret = configuration.string("client_secret").flatMap { $0.isEmpty ? nil : Secret($0) }
        if configuration["parameters"] != nil, configuration.section("parameters") == nil {
            throw AuthError(.invalidConfiguration, "The configuration key 'parameters' must be a dictionary of strings.", providerID: Self.id)
        }
        if configuration["allow_signup"] != nil, configuration.bool("allow_signup") == nil {
            throw AuthError(
                .invalidConfiguration, "The configuration key 'allow_signup' must be true or false.",
                providerID: Self.id, configurationKey: "allow_signup"
            )
        }
        // GitHub reads the secret from the form (its documentation names client_id and client_secret as parameters).
        let method = try configuration.clientAuthenticationMethod(providerID: Self.id) ?? (secret == nil ? ClientRegistration.AuthenticationMethod.none : .clientSecretPost)
        self.init(
            client: ClientRegistration(
                clientID: clientID, clientSecret: secret, redirectURI: redirectURI, scopes: scopes,
                authenticationMethod: method, dpop: .never
            ),
            webURL: webURL,
            apiURL: apiURL,
            allowSignup: configuration.bool("allow_signup"),
            login: configuration.string("login"),
            userAgent: configuration.string("user_agent").flatMap { $0.isEmpty ? nil : $0 } ?? "swift-auth-providers",
            additionalParameters: configuration.stringDictionary("parameters") ?? [:],
            prefersEphemeralWebSession: configuration.bool("ephemeral_session") ?? false
        )
    }

    /// `https://api.github.com` for github.com; `<web_url>/api/v3` for GitHub Enterprise Server
    /// (https://docs.github.com/en/enterprise-server@latest/rest/quickstart).
    static func apiURL(forWebURL webURL: URL) -> URL {
        if webURL.host?.lowercased() == "github.com" { return defaultAPIURL }
        return URL(string: webURL.absoluteString.trimmingSuffix("/") + "/api/v3") ?? defaultAPIURL
    }

    /// The web URL followed by `path`.
    private func web(_ path: String) -> URL {
        URL(string: webURL.absoluteString.trimmingSuffix("/") + path)!
    }

    /// The API URL followed by `path`.
    func api(_ path: String) -> URL {
        URL(string: apiURL.absoluteString.trimmingSuffix("/") + path)!
    }

    /// GitHub's fixed endpoints: there is no discovery document. No RFC 7009 revocation endpoint either: GitHub revokes
    /// a grant with `DELETE /applications/{client_id}/grant` and the client's Basic credentials, which a sign-out with
    /// a client secret calls instead (https://docs.github.com/en/rest/apps/oauth-applications#delete-an-app-authorization).
    public var endpointSource: EndpointSource {
        .fixed(
            ProviderMetadata(
                issuer: webURL.absoluteString,
                authorizationEndpoint: web("/login/oauth/authorize"),
                tokenEndpoint: web("/login/oauth/access_token"),
                deviceAuthorizationEndpoint: web("/login/device/code")
            )
        )
    }

    /// An ephemeral web session when configured so; otherwise standard.
    public var behavior: ProviderBehavior { ProviderBehavior(prefersEphemeralWebSession: prefersEphemeralWebSession) }

    /// `allow_signup`, `login` (GitHub's name for a login hint: the app's `SignInOptions.loginHint`, else the
    /// configured one) and the configured extra parameters.
    public func authorizationParameters(for request: SignInContext) -> [String: String] {
        var parameters = additionalParameters
        if let allowSignup { parameters["allow_signup"] = allowSignup ? "true" : "false" }
        if let hint = request.options.loginHint, !hint.isEmpty {
            parameters["login"] = hint
        } else if let login, !login.isEmpty {
            parameters["login"] = login
        }
        return parameters
    }
}

extension AuthError.Code {
    /// GitHub: the user has no primary email address that GitHub has verified (or the address list could not be read,
    /// as without the `user:email` scope), so the sign-in is refused and nothing is stored.
    public static let githubNoVerifiedEmail: Self = "github_no_verified_email"
}
