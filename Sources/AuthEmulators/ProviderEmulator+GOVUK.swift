public import AuthCore
public import AuthTesting
public import Foundation

extension ProviderEmulator {
    /// GOV.UK One Login's integration environment, in process: no discovery, `/authorize`, `/token`,
    /// `/userinfo`, `/.well-known/jwks.json`, ES256 ID tokens with `vot`/`vtm`, and user info with e-mail and phone.
    ///
    /// Strict: it rejects an authorization request without a JSON-array `vtr` of well-formed vectors, without
    /// `ui_locales` of `en` or `cy`, or without a `nonce`.
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
                "userInfoEndpoint": .string(base + "/userinfo"),
                "clientID": .string(TestIdentityProvider.govUKClientID),
                // A GOV.UK app signs in with a claimed universal link, served or not (the vendor's rule); a command
                // line signs in with the govuk-service emulator.
                "redirectURI": .string(TestIdentityProvider.govUKRedirectURI.absoluteString),
                "vectorsOfTrust": ["Cl.Cm.P0"],
                "locale": "en",
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

    /// An identity provider configured as GOV.UK One Login's integration environment (see `ProviderEmulator/govUK(clock:)`).
    ///
    /// - Parameters:
    ///   - clock: the clock the emulator stamps tokens with.
    ///   - origin: where `auth-emulator emulate` serves it over HTTP (see `Configuration/served(at:)`); `nil` in process.
    public static func govUK(clock: any WallClock = SystemWallClock(), origin: URL? = nil) -> TestIdentityProvider {
        var configuration = Configuration(
            issuer: URL(string: "https://oidc.integration.account.gov.uk/")!,
            signingAlgorithm: .es256,
            clients: [Client(id: govUKClientID, redirectURIs: [govUKRedirectURI])],
            user: User(subject: "urn:fdc:gov.uk:2022:emulated-user", claims: [
                "email": "citizen@example.gov.uk", "email_verified": true,
                "phone_number": "+447700900123", "phone_number_verified": true,
            ])
        )
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
        configuration.quirks.idTokenClaims = { query in
            let vector = (query["vtr"]?.data(using: .utf8)).flatMap { try? JSONDecoder().decode([String].self, from: $0) }?.first ?? "Cl.Cm"
            let credential = vector.split(separator: ".").filter { !$0.hasPrefix("P") }.joined(separator: ".")
            return ["vot": .string(credential), "vtm": "https://oidc.integration.account.gov.uk/trustmark"]
        }
        configuration.quirks.userInfo = { subject, claims, _ in
            var shaped: [String: JSONValue] = ["sub": .string(subject)]
            for key in ["email", "email_verified", "phone_number", "phone_number_verified"] { shaped[key] = claims[key] }
            return shaped
        }
        configuration.displayName = "GOV.UK One Login"
        return TestIdentityProvider(configuration: origin.map(configuration.served(at:)) ?? configuration, clock: clock)
    }
}
