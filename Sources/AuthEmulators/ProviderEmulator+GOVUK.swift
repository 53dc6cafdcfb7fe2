public import AuthCore
public import AuthTesting
public import Foundation

extension ProviderEmulator {
    /// GOV.UK One Login's integration secure token service (STS), the server GOV.UK's own app signs in with, in
    /// process: no discovery, `/authorize`, `/token`, `/.well-known/jwks.json`, ES256 ID tokens with `vot`/`vtm` that
    /// carry the user (`email`, `email_verified`, `persistent_id`), no user-info endpoint, and refresh tokens without
    /// `offline_access`.
    ///
    /// Strict: it rejects an authorization request without a JSON-array `vtr` of well-formed vectors, without
    /// `ui_locales` of `en` or `cy`, or without a `nonce`; a scope other than `openid`, `email` or `phone`
    /// (`offline_access` included) with `invalid_scope`; and a token request (code exchange or refresh) without the
    /// app's attestation headers with HTTP 400 `invalid_request`. Its configuration is the vendor app's:
    /// scope `openid`, and fixed stand-ins for the attestation headers, sent on refresh too.
    ///
    /// - Parameters:
    ///   - clock: the clock the emulator stamps tokens with.
    ///   - origin: where `auth-emulator emulate` serves it over HTTP (`http://127.0.0.1:<port>`): the configuration
    ///     then points there (the redirect stays the app's universal link); `nil` in process.
    public static func govUK(clock: any WallClock = SystemWallClock(), origin: URL? = nil) -> ProviderEmulator {
        let idp = TestIdentityProvider.govUK(clock: clock, origin: origin)
        let base = idp.configuration.issuer.absoluteString.trimmingSuffix("/")
        return ProviderEmulator(
            providerID: "govuk",
            configuration: ProviderConfiguration([
                "authorizationEndpoint": .string(base + "/authorize"),
                "tokenEndpoint": .string(base + "/token"),
                "issuer": .string(idp.configuration.issuer.absoluteString),
                "jwksEndpoint": .string(base + "/.well-known/jwks.json"),
                // No user-info endpoint: GOV.UK's token service publishes none (see `TestIdentityProvider/govUK`).
                "tokenService": true,
                "clientID": .string(TestIdentityProvider.govUKClientID),
                // A GOV.UK app signs in with a claimed universal link, served or not (the vendor's rule); a command
                // line signs in with the govuk-service emulator.
                "redirectURI": .string(TestIdentityProvider.govUKRedirectURI.absoluteString),
                "vectorsOfTrust": ["Cl.Cm.P0"],
                "locale": "en",
                // What GOV.UK's app asks for and sends (LoginSessionConfiguration+OneLogin.swift of
                // mobile-ios-one-login-app): `openid` only, and attestation headers with every token request.
                "scopes": "openid",
                "tokenHeaders": .object(TestIdentityProvider.govUKAttestationHeaders.mapValues { .string($0) }),
                "sendsTokenExtrasOnRefresh": true
            ]),
            transport: idp.transport,
            userAgent: HeadlessUserAgent(transport: idp.transport),
            clock: clock,
            route: "web",
            supportsRefresh: true,
            identityProvider: idp
        )
    }
}

extension TestIdentityProvider {
    /// The emulated GOV.UK client id.
    public static let govUKClientID = "govuk-emulator-client"
    /// The emulated GOV.UK app's claimed universal link.
    public static let govUKRedirectURI = URL(string: "https://app.example.gov.uk/oauth/redirect")!
    /// The headers GOV.UK's app attests itself with at its token service (`AppIntegrityHeaderKey` in
    /// `AppIntegrity/Sources/AppIntegrity/FirebaseAppIntegrityService.swift` of mobile-ios-one-login-app); the
    /// emulator requires them on every token request.
    public static let govUKAttestationHeaderNames = ["OAuth-Client-Attestation", "OAuth-Client-Attestation-PoP", "DPoP"]
    /// Stand-in values for ``govUKAttestationHeaderNames`` (the emulator checks they are present, not what they prove).
    public static let govUKAttestationHeaders = [
        "OAuth-Client-Attestation": "emulated-client-attestation",
        "OAuth-Client-Attestation-PoP": "emulated-attestation-proof",
        "DPoP": "emulated-dpop-proof"
    ]
    /// The scopes the emulated token service grants, as GOV.UK's provider (`VALID_SCOPES` in `src/constants.ts` of
    /// govuk-one-login/simulator).
    public static let govUKAppScopes: Set<String> = ["openid", "email", "phone"]

    /// An identity provider configured as GOV.UK One Login's integration secure token service (see
    /// `ProviderEmulator/govUK(clock:origin:)`).
    ///
    /// - Parameters:
    ///   - clock: the clock the emulator stamps tokens with.
    ///   - origin: where `auth-emulator emulate` serves it over HTTP (see `Configuration/served(at:)`); `nil` in process.
    public static func govUK(clock: any WallClock = SystemWallClock(), origin: URL? = nil) -> TestIdentityProvider {
        var configuration = Configuration(
            // The vendor app's issuer is its STS base URL, `https://token.<environment>` (AppEnvironment.swift `stsBaseURL`).
            issuer: URL(string: "https://token.integration.account.gov.uk")!,
            signingAlgorithm: .es256,
            clients: [Client(id: govUKClientID, redirectURIs: [govUKRedirectURI])],
            user: User(
                subject: "urn:fdc:gov.uk:2022:emulated-user",
                claims: ["email": "citizen@example.gov.uk", "email_verified": true]
            )
        )
        // GOV.UK's token service publishes no user-info endpoint: the app reads the user from the ID token
        // (mobile-ios-one-login-app: `IdTokenPayload.swift` decodes `persistentId`, `email` and the wallet store id
        // from it; `IDTokenUserRepresentation.swift`; no call to a user-info URL anywhere in the app). Its ID tokens
        // carry `email`, `email_verified` and `persistent_id` for scope `openid` (the app's `TokenResponse.json`
        // fixture), so the emulator's do too; a request for `/userinfo` is answered 404 as any unknown path.
        configuration.paths.userinfo = nil
        configuration.paths.discovery = nil
        configuration.paths.deviceAuthorization = nil  // the vendor offers no device flow
        // GOV.UK One Login sends no RFC 9207 `iss` in the authorization response (nor does its simulator).
        configuration.initialBehavior.sendsIssParameter = false
        configuration.initialBehavior.advertisesIssParameter = false
        configuration.paths.jwks = "/.well-known/jwks.json"
        configuration.quirks.validateAuthorization = { query, _ in
            guard let vtr = query["vtr"], let data = vtr.data(using: .utf8),
                let vectors = (try? JSONDecoder().decode([String].self, from: data)), !vectors.isEmpty
            else { return "vtr must be a JSON array of vectors of trust, for example [\"Cl.Cm\"]" }
            guard vectors.allSatisfy({ $0.hasPrefix("Cl") || $0.hasPrefix("P") }) else { return "vtr contains an unknown vector" }
            guard let locale = query["ui_locales"], ["en", "cy"].contains(locale) else { return "ui_locales must be en or cy" }
            guard query["nonce"] != nil else { return "nonce is required" }
            guard query["scope"]?.split(separator: " ").contains("openid") == true else { return "scope must include openid" }
            return nil
        }
        // `offline_access` (or any scope GOV.UK does not grant) is refused as GOV.UK's provider refuses it: a redirect with
        // `invalid_scope` "Invalid, unknown or malformed scope" (simulator src/validators/validate-auth-request-query-params.ts:70-77,
        // scope-validator.ts). The STS's own source is not public; the vendor app asks it for `openid` only and still
        // gets a refresh token (PersistentSessionManager.swift stores `response.refreshToken`), so refresh tokens are
        // issued without `offline_access`.
        configuration.quirks.rejectAuthorization = { query, _ in
            let scopes = (query["scope"] ?? "").split(separator: " ")
            guard scopes.allSatisfy({ govUKAppScopes.contains(String($0)) }) else { return ("invalid_scope", "Invalid, unknown or malformed scope") }
            return nil
        }
        // The STS authenticates the app by its attestation, which the app sends with the code exchange (its
        // LoginSessionConfiguration's `tokenHeaders`) and with each refresh (URLRequest+OneLogin.swift
        // `refreshTokenExchange`). A token request without it is refused with HTTP 400 `invalid_request`, as GOV.UK's
        // provider answers a token request without client authentication ("Invalid token authentication method used",
        // simulator src/parse/parse-token-request.ts:66-71); the vendor app treats any 400 from the STS as final
        // (RefreshTokenExchangeManager.swift). The STS's own error text is not published.
        configuration.quirks.validateTokenRequest = { request, _ in
            let missing = govUKAttestationHeaderNames.filter { (request.value(forHTTPHeaderField: $0) ?? "").isEmpty }
            return missing.isEmpty ? nil : "Invalid token authentication method used: missing \(missing.joined(separator: ", "))"
        }
        configuration.quirks.idTokenClaims = { query in
            let vector = (query["vtr"]?.data(using: .utf8)).flatMap { try? JSONDecoder().decode([String].self, from: $0) }?.first ?? "Cl.Cm"
            let credential = vector.split(separator: ".").filter { !$0.hasPrefix("P") }.joined(separator: ".")
            return [
                "vot": .string(credential), "vtm": "https://oidc.integration.account.gov.uk/trustmark",
                "persistent_id": "emulated-persistent-id"
            ]
        }
        configuration.displayName = "GOV.UK One Login"
        return TestIdentityProvider(configuration: origin.map(configuration.served(at:)) ?? configuration, clock: clock)
    }
}
