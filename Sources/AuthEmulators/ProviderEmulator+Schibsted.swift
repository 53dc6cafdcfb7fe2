public import AuthCore
public import AuthTesting
public import Foundation

extension ProviderEmulator {
    /// Schibsted account's `pre` environment, in process (see `TestIdentityProvider/schibsted(clock:)`).
    ///
    /// - Parameters:
    ///   - clock: the clock the emulator stamps tokens with.
    ///   - origin: where `auth-emulator emulate` serves it over HTTP (`http://127.0.0.1:<port>`): the configuration
    ///     then points there and redirects to `TestIdentityProvider/loopbackRedirectURI`; `nil` in process.
    public static func schibsted(clock: any WallClock = SystemWallClock(), origin: URL? = nil) -> ProviderEmulator {
        let idp = TestIdentityProvider.schibsted(clock: clock, origin: origin)
        let configuration: ProviderConfiguration =
            origin == nil
            ? ProviderConfiguration([
                "environment": "pre",
                "clientId": .string(TestIdentityProvider.schibstedClientID),
                "redirectURI": .string(TestIdentityProvider.schibstedRedirectURI.absoluteString)
            ])
            : ProviderConfiguration([
                "serverURL": .string(idp.configuration.issuer.absoluteString),
                "clientId": .string(TestIdentityProvider.schibstedClientID),
                "redirectURI": .string(TestIdentityProvider.loopbackRedirectURI.absoluteString)
            ])
        return ProviderEmulator(
            providerID: "schibsted",
            configuration: configuration,
            transport: idp.transport,
            userAgent: HeadlessUserAgent(transport: idp.transport),
            clock: clock,
            route: "web (SSO)",
            supportsRefresh: true,
            identityProvider: idp
        )
    }
}

extension TestIdentityProvider {
    /// The emulated Schibsted client id.
    public static let schibstedClientID = "5f1e-emulated-schibsted-client"
    /// A second client of the same vendor (for simplified login).
    public static let schibstedSecondClientID = "7a2b-emulated-schibsted-news-app"
    /// The emulated app's redirect URI.
    public static let schibstedRedirectURI = URL(string: "com.example.schibsted:/login")!

    /// An identity provider configured as Schibsted account's `pre` environment: no discovery, `/oauth/*` paths,
    /// the issuer `https://identity-pre.schibsted.com/` (with the real server's trailing slash), `amr` reflecting the
    /// requested `acr_values` (a country eID as `eid`), `legacy_user_id`, the profile API `/api/2/user/<uuid>`
    /// (camelCase inside `{"data": …}`), the exchange API `/api/2/oauth/exchange` and simplified login's
    /// `POST /api/2/user/auth/token` (bearer → `{"data": {"assertion": …}}`), and on
    /// `session-service.identity-pre.schibsted.com` `/user-context-from-token` and `/frontend-jwt`.
    ///
    /// Strict: token requests without `X-OIDC: v1` get HTTP 400; an authorization request must carry
    /// `openid offline_access` and exactly one of `acr_values` and `prompt=select_account`; an `assertion` must be
    /// one this server issued from `/api/2/user/auth/token`, unused (exchange codes are refused).
    ///
    /// - Parameters:
    ///   - clock: the clock the emulator stamps tokens with.
    ///   - origin: where `auth-emulator emulate` serves it over HTTP (see `Configuration/served(at:)`); `nil` in process.
    public static func schibsted(clock: any WallClock = SystemWallClock(), origin: URL? = nil) -> TestIdentityProvider {
        let user = User(
            subject: "4d2f8c1e-0b7a-4c8e-9f3a-5e6d7c8b9a01",
            claims: [
                "email": "kari@example.no", "legacy_user_id": "12345678"
            ])
        var configuration = Configuration(
            // The real server's issuer form: its ID tokens say `https://identity-pre.schibsted.com/`, with the
            // trailing slash that the vendor SDK strips before comparing (IdTokenValidator).
            issuer: URL(string: "https://identity-pre.schibsted.com/")!,
            clients: [
                Client(id: schibstedClientID, redirectURIs: [schibstedRedirectURI]),
                Client(id: schibstedSecondClientID, redirectURIs: [URL(string: "com.example.news:/login")!])
            ],
            user: user
        )
        configuration.additionalHosts = ["session-service.identity-pre.schibsted.com"]
        // Token responses as the vendor's own fixtures show them: access, refresh and ID token, scope, expires_in —
        // no token_type (the vendor SDK never reads it).
        configuration.initialBehavior.tokenResponseRemovals = ["token_type"]
        configuration.paths.discovery = nil
        configuration.paths.deviceAuthorization = nil  // the vendor offers no device flow
        configuration.paths.authorize = "/oauth/authorize"
        configuration.paths.token = "/oauth/token"
        configuration.paths.jwks = "/oauth/jwks"
        configuration.paths.userinfo = "/oauth/userinfo"
        let assertions = LockedValue<Set<String>>([])
        let methods: Set<String> = ["password", "otp", "sms", "eid", "eid-dk", "eid-fi", "eid-no", "eid-se"]
        configuration.quirks.validateAuthorization = { query, _ in
            let scopes = Set(query["scope"]?.split(separator: " ").map(String.init) ?? [])
            guard scopes.isSuperset(of: ["openid", "offline_access"]) else { return "scope must include openid offline_access" }
            if let assertion = query["assertion"] {
                // The vendor SDK sends an assertion with prompt=select_account (no MFA on simplified login).
                guard query["prompt"] == "select_account", query["acr_values"] == nil else { return "an assertion goes with prompt=select_account" }
                return assertions.withLock { $0.remove(assertion) } != nil ? nil : "unknown or used assertion"
            }
            switch (query["acr_values"], query["prompt"]) {
            case (let acr?, nil): return methods.contains(acr) ? nil : "unknown acr_values \(acr)"
            case (nil, "select_account"): return nil
            case (.some, .some): return "acr_values and prompt must not both be sent"
            default: return "send acr_values (MFA) or prompt=select_account"
            }
        }
        configuration.quirks.validateTokenRequest = { request, _ in
            request.value(forHTTPHeaderField: "X-OIDC") == "v1" ? nil : "the X-OIDC: v1 header is required"
        }
        configuration.quirks.idTokenClaims = { query in
            // A country eID is reported as plain `eid`, as the real server does (the vendor SDK expects exactly that).
            let method = query["acr_values"].map { $0.hasPrefix("eid-") ? "eid" : $0 } ?? "pwd"
            return ["amr": .array([.string(method)])]
        }
        configuration.quirks.api = { request, subject in
            let path = request.url?.path ?? ""
            guard let subject else { return (401, ["error": "invalid_token"]) }
            if path == "/api/2/user/\(subject)", request.httpMethod == "GET" {
                // The real shape: `{"data": {…}}` with camelCase keys (the vendor's own test fixture), with the odd
                // values the vendor SDK tolerates: `false` for an unverified e-mail's date, `[]` for no addresses,
                // `0000-00-00` for no birthday, booleans as strings.
                return (
                    200,
                    [
                        "data": [
                            "uuid": .string(subject), "userId": "12345678", "status": 1, "email": "kari@example.no",
                            "emailVerified": false,
                            "emails": [
                                [
                                    "value": "kari@example.no", "type": "other", "primary": "true", "verified": "false"
                                ]
                            ],
                            "displayName": "Kari Nordmann", "name": ["givenName": "Kari", "familyName": "Nordmann", "formatted": "Kari Nordmann"],
                            "addresses": [], "birthday": "0000-00-00", "gender": "withheld", "merchants": [12345],
                            "locale": "nb_NO", "utcOffset": "+01:00",
                            "pairId": "pair-8f1d2c", "phoneNumber": "+4790000000", "sdrn": "sdrn:schibsted.com:user:12345678"
                        ]
                    ]
                )
            }
            if path == "/api/2/user/auth/token", request.httpMethod == "POST" {
                // Simplified login: the shared user's bearer buys a one-time assertion for /oauth/authorize.
                let assertion = "as_" + SecureRandom.token(byteCount: 24)
                assertions.withLock { _ = $0.insert(assertion) }
                return (200, ["data": ["assertion": .string(assertion)]])
            }
            if path.hasPrefix("/api/2/user/") { return (403, ["error": "access_denied"]) }
            // The session service (session-service.<host>): what the Simplified Login sheet shows, and the
            // frontend JWT for web views. Snake_case, not wrapped in `data`, as the vendor SDK decodes them.
            if path == "/user-context-from-token", request.httpMethod == "GET" {
                return (200, ["identifier": .string(subject), "display_text": "Kari Nordmann", "client_name": "Emulated News"])
            }
            if path == "/frontend-jwt", request.httpMethod == "GET" {
                return (200, ["id_jwt": .string("eyJhbGciOiJub25lIn0." + SecureRandom.token(byteCount: 16) + ".")])
            }
            if path == "/api/2/oauth/exchange", request.httpMethod == "POST" {
                let form = Dictionary(FormEncoding.decode(String(decoding: request.httpBody ?? Data(), as: UTF8.self)), uniquingKeysWith: { a, _ in a })
                guard let type = form["type"], ["session", "code"].contains(type), form["clientId"] != nil else {
                    return (400, ["error": "invalid_request"])
                }
                // One-time codes are for backends and web sessions; they are never accepted as an assertion.
                return (200, ["data": ["code": .string("oc_" + SecureRandom.token(byteCount: 12))]])
            }
            return nil
        }
        configuration.displayName = "Schibsted account"
        return TestIdentityProvider(configuration: origin.map(configuration.served(at:)) ?? configuration, clock: clock)
    }
}
