public import AuthCore
public import AuthTesting
public import Foundation

extension ProviderEmulator {
    /// GitHub's OAuth server and REST API, in process: `github.com/login/oauth/authorize`,
    /// `/login/oauth/access_token`, `/login/device/code` and the verification page `/login/device`, and
    /// `api.github.com/user` and `/user/emails`. No discovery, no ID token, no JWKS.
    ///
    /// Its quirks, as GitHub documents them:
    /// - the token endpoint answers `application/x-www-form-urlencoded` unless the request sends
    ///   `Accept: application/json`, and its `scope` is comma-separated
    ///   (https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps#2-users-are-redirected-back-to-your-site-by-github);
    /// - errors come with HTTP 200 and GitHub's own codes: `bad_verification_code` (a wrong, expired or reused code, or
    ///   a wrong PKCE verifier), `incorrect_client_credentials`, `bad_refresh_token`, and the device flow's
    ///   `authorization_pending`, `slow_down`, `expired_token`, `access_denied`, `incorrect_device_code`
    ///   (https://docs.github.com/en/apps/oauth-apps/maintaining-oauth-apps/troubleshooting-oauth-app-access-token-request-errors,
    ///   https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps#error-codes-for-the-device-flow);
    /// - PKCE is accepted (S256 only) but not required
    ///   (https://github.blog/changelog/2025-07-14-pkce-support-for-oauth-and-github-app-authentication/);
    /// - `expiringTokens` (a GitHub App with expiring user tokens): `expires_in` 28800, a `refresh_token` and
    ///   `refresh_token_expires_in` 15897600; a refresh spends the old pair
    ///   (https://docs.github.com/en/apps/creating-github-apps/authenticating-with-a-github-app/refreshing-user-access-tokens).
    ///   Otherwise (an OAuth app) tokens do not expire and come without a refresh token;
    /// - the device flow: an `XXXX-XXXX` user code, `expires_in` 900, `interval` 5, no `verification_uri_complete`;
    /// - the API answers 401 without a valid token, and 403 without a `User-Agent`
    ///   (https://docs.github.com/en/rest/using-the-rest-api/getting-started-with-the-rest-api#user-agent);
    /// - `DELETE /applications/{client_id}/grant` with HTTP Basic client authentication and `{"access_token": …}`
    ///   deletes the app's grant for that user (every token of the app for the user stops working at the API): 204;
    ///   422 without `access_token`; 404 for wrong client credentials or an unknown token
    ///   (https://docs.github.com/en/rest/apps/oauth-applications#delete-an-app-authorization).
    ///
    /// Test accounts: `octocat` (a verified primary email) and `hubot-unverified` (whose primary email is not verified,
    /// so GitHubProvider refuses it).
    ///
    /// - Parameters:
    ///   - clock: the clock the emulator stamps tokens with.
    ///   - origin: where `auth-emulator emulate` serves it over HTTP (`http://127.0.0.1:<port>`: the web pages and token
    ///     endpoint there, the API under `/api/v3` as on GitHub Enterprise Server); `nil` in process.
    ///   - expiringTokens: a GitHub App with expiring user tokens (refreshable), or an OAuth app (`false`).
    public static func github(clock: any WallClock = SystemWallClock(), origin: URL? = nil, expiringTokens: Bool = true) -> ProviderEmulator {
        let idp = TestIdentityProvider.github(clock: clock, origin: origin, expiringTokens: expiringTokens)
        var configuration: [String: JSONValue] = [
            "client_id": .string(TestIdentityProvider.githubClientID),
            "client_secret": .string(TestIdentityProvider.githubClientSecret),
            "redirect_uri": .string((origin == nil ? TestIdentityProvider.githubRedirectURI : TestIdentityProvider.loopbackRedirectURI).absoluteString),
            "scope": "read:user user:email"
        ]
        if origin != nil {
            let web = idp.configuration.issuer.absoluteString.trimmingSuffix("/")
            configuration["web_url"] = .string(web)
            configuration["api_url"] = .string(web + "/api/v3")
        }
        return ProviderEmulator(
            providerID: "github",
            configuration: ProviderConfiguration(configuration),
            transport: idp.transport,
            userAgent: HeadlessUserAgent(transport: idp.transport),
            clock: clock,
            route: "web",
            supportsRefresh: expiringTokens,
            identityProvider: idp
        )
    }
}

extension TestIdentityProvider {
    /// The emulated GitHub App's client id.
    public static let githubClientID = "Iv23liEmulatedGitHubApp"
    /// The emulated GitHub App's client secret.
    public static let githubClientSecret = "emulated-github-client-secret"
    /// The emulated app's callback URL.
    public static let githubRedirectURI = URL(string: "https://app.example.com/auth/github/callback")!
    /// The user every in-process authorization signs in: id 583231, login `octocat`, a verified primary email.
    public static let githubUser = User(
        subject: "583231",
        claims: [
            "login": "octocat", "name": "The Octocat",
            "emails": .array([
                githubEmail("octocat@github.com", primary: true, verified: true),
                githubEmail("octocat@example.com", primary: false, verified: false)
            ])
        ])
    /// A user whose primary email GitHub has not verified (a verified secondary one does not count): id 9919001,
    /// login `hubot-unverified`, no name.
    public static let githubUnverifiedUser = User(
        subject: "9919001",
        claims: [
            "login": "hubot-unverified",
            "emails": .array([
                githubEmail("hubot@example.com", primary: true, verified: false),
                githubEmail("hubot-old@example.com", primary: false, verified: true)
            ])
        ])

    /// An identity provider configured as GitHub (see `ProviderEmulator/github(clock:origin:expiringTokens:)`).
    public static func github(clock: any WallClock = SystemWallClock(), origin: URL? = nil, expiringTokens: Bool = true) -> TestIdentityProvider {
        let redirects = [githubRedirectURI, loopbackRedirectURI]
        var configuration = Configuration(
            issuer: URL(string: "https://github.com")!,
            clients: [Client(id: githubClientID, secret: githubClientSecret, redirectURIs: redirects)],
            user: githubUser,
            // An OAuth app's tokens do not expire (no `expires_in` is sent); ten years stands in for "never".
            accessTokenLifetime: expiringTokens ? 28800 : 315_360_000,
            rotatesRefreshTokens: true
        )
        configuration.issuesRefreshTokens = expiringTokens
        configuration.paths.discovery = nil
        configuration.paths.authorize = "/login/oauth/authorize"
        configuration.paths.token = "/login/oauth/access_token"
        configuration.paths.deviceAuthorization = "/login/device/code"
        configuration.paths.deviceVerification = "/login/device"
        // On the API host (api.github.com, or under /api/v3 over HTTP), with Basic client authentication.
        configuration.paths.grantDeletion = "/applications/{client_id}/grant"
        configuration.quirks.pkceOptional = true
        configuration.quirks.idTokenIncludesUserClaims = false
        configuration.initialBehavior.sendsIssParameter = false
        configuration.initialBehavior.advertisesIssParameter = false
        configuration.initialBehavior.deviceCodeLifetime = 900
        configuration.initialBehavior.devicePollInterval = 5
        if expiringTokens {
            configuration.initialBehavior.tokenResponseOverrides = ["refresh_token_expires_in": .number(15_897_600)]
        } else {
            configuration.initialBehavior.tokenResponseRemovals = ["expires_in"]
        }
        configuration.quirks.reshapeTokenEndpointAnswer = { request, path, answer in
            githubTokenEndpointAnswer(request, path: path, answer, tokenPath: "/login/oauth/access_token")
        }
        let accounts = [githubUser, githubUnverifiedUser]
        configuration.quirks.api = { request, subject in githubAPI(request, subject: subject, accounts: accounts) }
        if origin == nil { configuration.additionalHosts = ["api.github.com"] }
        configuration.displayName = "GitHub"
        configuration.testAccounts = accounts.map { TestAccount(username: $0.claims["login"]?.stringValue ?? $0.subject, user: $0) }
        return TestIdentityProvider(configuration: origin.map(configuration.served(at:)) ?? configuration, clock: clock)
    }

    private static func githubEmail(_ address: String, primary: Bool, verified: Bool) -> JSONValue {
        .object(["email": .string(address), "primary": .bool(primary), "verified": .bool(verified), "visibility": primary ? "private" : .null])
    }

    // MARK: The token endpoint's shapes

    /// GitHub's descriptions of its token endpoint errors.
    private static let githubErrorDescriptions = [
        "bad_verification_code": "The code passed is incorrect or expired.",
        "incorrect_client_credentials": "The client_id and/or client_secret passed are incorrect.",
        "bad_refresh_token": "The refresh token passed is incorrect or expired.",
        "authorization_pending": "The authorization request is still pending.",
        "slow_down": "Too many requests have been made in the same timeframe.",
        "expired_token": "The device code has expired.",
        "access_denied": "The authorization request was denied.",
        "incorrect_device_code": "The device_code provided is not valid.",
        "unsupported_grant_type": "The grant type is not supported."
    ]

    /// The provider's token or device authorization answer as GitHub gives it: OAuth errors with HTTP 200 under
    /// GitHub's codes, no ID token, a comma-separated `scope`, no `verification_uri_complete`; form-encoded unless the
    /// request accepts JSON. Outages (5xx) stay as they are.
    static func githubTokenEndpointAnswer(_ request: CapturedRequest, path: String, _ answer: (Data, HTTPResponse), tokenPath: String) -> (Data, HTTPResponse) {
        let (data, response) = answer
        guard response.status.code < 500, var body = try? JSONValue.parseObject(data) else { return answer }
        if let error = body["error"]?.stringValue {
            let form = Dictionary(FormEncoding.decode(String(decoding: request.httpBody ?? Data(), as: UTF8.self))) { first, _ in first }
            let code: String =
                switch (error, form["grant_type"]) {
                case ("invalid_grant", "authorization_code"?): "bad_verification_code"
                case ("invalid_grant", "refresh_token"?): "bad_refresh_token"
                case ("invalid_grant", _): "incorrect_device_code"
                case ("invalid_client", _): "incorrect_client_credentials"
                default: error
                }
            body = ["error": .string(code)]
            body["error_description"] = githubErrorDescriptions[code].map(JSONValue.string) ?? .string(code)
            body["error_uri"] = .string(
                code.hasPrefix("bad_") || code == "incorrect_client_credentials"
                    ? "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors/#" + code.replacingOccurrences(of: "_", with: "-")
                    : "https://docs.github.com/developers/apps/authorizing-oauth-apps#error-codes-for-the-device-flow"
            )
        } else if path == tokenPath {
            body["id_token"] = nil
            if let scope = body["scope"]?.stringValue {
                body["scope"] = .string(scope.split(separator: " ").joined(separator: ","))
            }
        } else {
            body["verification_uri_complete"] = nil
        }
        let acceptsJSON = request.value(forHTTPHeaderField: "Accept")?.lowercased().contains("application/json") ?? false
        var headers = ["Cache-Control": "no-store"]
        let encoded: Data
        if acceptsJSON {
            encoded = (try? JSONValue.object(body).jsonData()) ?? data
            headers["Content-Type"] = "application/json; charset=utf-8"
        } else {
            encoded = Data(FormEncoding.encode(body.compactMapValues(formValue)).utf8)
            headers["Content-Type"] = "application/x-www-form-urlencoded; charset=utf-8"
        }
        return (encoded, .make(status: 200, headers: headers))
    }

    /// A member as form text: strings as they are, whole numbers without a fraction, booleans as `true`/`false`.
    private static func formValue(_ value: JSONValue) -> String? {
        if let text = value.stringValue { return text }
        if let number = value.numberValue {
            return number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        }
        return value.boolValue.map { $0 ? "true" : "false" }
    }

    // MARK: The REST API

    /// `GET /user` and `GET /user/emails` (also under `/api/v3`, as GitHub Enterprise Server serves them): the
    /// account of the bearer token's subject, 401 without a valid token, 403 without a `User-Agent`; `nil` (404) for
    /// other paths.
    static func githubAPI(_ request: CapturedRequest, subject: String?, accounts: [User]) -> (status: Int, body: JSONValue)? {
        guard request.httpMethod == "GET", var path = request.url?.path else { return nil }
        if path.hasPrefix("/api/v3/") { path = String(path.dropFirst("/api/v3".count)) }
        guard path == "/user" || path == "/user/emails" else { return nil }
        guard let agent = request.value(forHTTPHeaderField: "User-Agent"), !agent.isEmpty else {
            return (
                403,
                .object([
                    "message": "Request forbidden by administrative rules. Please make sure your request has a User-Agent header.",
                    "documentation_url": "https://docs.github.com/en/rest/using-the-rest-api/getting-started-with-the-rest-api#user-agent"
                ])
            )
        }
        guard let subject, let account = accounts.first(where: { $0.subject == subject }) else {
            return (
                401,
                .object([
                    "message": "Requires authentication",
                    "documentation_url": "https://docs.github.com/rest/users/users#get-the-authenticated-user",
                    "status": "401"
                ])
            )
        }
        if path == "/user/emails" { return (200, account.claims["emails"] ?? .array([])) }
        return (
            200,
            .object([
                "login": account.claims["login"] ?? .null,
                "id": .number(Double(account.subject) ?? 0),
                "type": "User",
                "site_admin": false,
                "name": account.claims["name"] ?? .null,
                // The public email is whatever the user chose to show, often none: it is not the verified primary one.
                "email": .null
            ])
        )
    }
}
