import AuthAppSupport
public import AuthCore
public import AuthTesting
public import Foundation

extension ProviderEmulator {
    /// GrabID, in process (see `TestIdentityProvider/grab(clock:)`); the web route.
    ///
    /// - Parameters:
    ///   - clock: the clock the emulator stamps tokens with.
    ///   - origin: where `auth-emulator emulate` serves it over HTTP (`http://127.0.0.1:<port>`): the configuration
    ///     then points there and redirects to `TestIdentityProvider/loopbackRedirectURI`; `nil` in process.
    ///   - discovery: which discovery document it serves (``TestIdentityProvider/GrabDiscovery``).
    public static func grab(
        clock: any WallClock = SystemWallClock(), origin: URL? = nil,
        discovery: TestIdentityProvider.GrabDiscovery = .withKeys
    ) -> ProviderEmulator {
        let idp = TestIdentityProvider.grab(clock: clock, origin: origin, discovery: discovery)
        var plist = TestIdentityProvider.grabPlist
        if origin != nil {
            plist["ServiceDiscoveryUrl"] = .string(idp.endpoint("/.well-known/openid-configuration").absoluteString)
            plist["RedirectUrl"] = .string(TestIdentityProvider.loopbackRedirectURI.absoluteString)
        }
        return ProviderEmulator(
            providerID: "grab",
            configuration: ProviderConfiguration(["GrabIdPartnerSDK": .object(plist)]),
            // Grab's token endpoint reads the URL query only; GrabProvider's behaviour sends it the vendor's way.
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
    /// Which service discovery document the Grab emulator serves.
    public enum GrabDiscovery: Sendable, Hashable {
        /// With `issuer` and `jwks_uri` (as GrabIdPartnerSDK's own test fixture): the ID token is validated locally.
        case withKeys
        /// Without `jwks_uri`, the other members unchanged: only Grab's `id_token_verification_endpoint` can vouch for
        /// the ID token (the vendor SDK never read `jwks_uri`, so a partner's document may lack it).
        case withoutJWKSURI
    }

    /// The issuer Grab's discovery document and ID tokens name (as in GrabIdPartnerSDK's test fixture).
    public static let grabIssuer = "https://idp.grab.com"
    /// The emulated Grab client id.
    public static let grabClientID = "emulated-grab-partner-client"
    /// The emulated partner app's redirect URL.
    public static let grabRedirectURL = URL(string: "com.example.partner://open")!
    /// The emulated service discovery URL.
    public static let grabServiceDiscoveryURL = URL(string: "https://partner-api.grab.com/grabid/v1/oauth2/.well-known/openid-configuration")!
    /// The Grab app's custom protocol entry served by the client public info endpoint.
    public static let grabCustomProtocol =
        #"{"protocol_pax_ios":"grab://open?screenType=AUTH","protocol_ios":"grab://oauth2/authorize","appstore_link_ios":"itms-apps://itunes.apple.com/app/id647268330"}"#

    /// The emulated app's `GrabIdPartnerSDK` Info.plist dictionary.
    public static let grabPlist: [String: JSONValue] = [
        "ClientId": .string(grabClientID),
        "RedirectUrl": .string(grabRedirectURL.absoluteString),
        "Scope": "openid profile.read",
        "ServiceDiscoveryUrl": .string(grabServiceDiscoveryURL.absoluteString),
        "AcrValues": ["service": "PASSENGER", "consent_ctx": "countryCode=SG"]
    ]

    /// An identity provider configured as GrabID: its own service discovery document (with
    /// `id_token_verification_endpoint` and `client_public_info_endpoint`), issuer `https://idp.grab.com` on another host
    /// than the endpoints, ID tokens with `svc`, `pid`, `nbf`, `jti`.
    ///
    /// Strict: an authorization request needs well-formed `acr_values` (`key:value` pairs) including
    /// `service:PASSENGER` (key in any case, as in GrabIdPartnerSDK's README: `SERVICE:PASSENGER`). The token endpoint reads its
    /// parameters from the URL query only, which is all GrabIdPartnerSDK ever sent (`GrabApi.fetchToken`): a form body
    /// is refused with `invalid_request`, since nothing Grab publishes says its endpoint reads one.
    ///
    /// - Parameters:
    ///   - clock: the clock the emulator stamps tokens with.
    ///   - origin: where `auth-emulator emulate` serves it over HTTP (see `Configuration/served(at:)`); `nil` in process.
    ///   - discovery: which discovery document it serves; by default with `issuer` and `jwks_uri`.
    public static func grab(clock: any WallClock = SystemWallClock(), origin: URL? = nil, discovery: GrabDiscovery = .withKeys) -> TestIdentityProvider {
        let base = "https://partner-api.grab.com/grabid/v1/oauth2"
        var configuration = Configuration(
            issuer: URL(string: grabIssuer)!,
            clients: [Client(id: grabClientID, redirectURIs: [grabRedirectURL])],
            user: User(subject: "grab-partner-user-42", claims: [:])
        )
        // Grab's issuer names another host than its endpoints (GrabIdPartnerSDK's own test fixture: issuer
        // https://idp.grab.com, endpoints on the API host).
        configuration.endpointBase = URL(string: base)!
        configuration.paths.deviceAuthorization = nil  // the vendor offers no device flow
        configuration.quirks.discoveryExtras = [
            "id_token_verification_endpoint": .string(base + "/id_tokens/token_info"),
            "client_public_info_endpoint": .string(base + "/clients/{client_id}/public_info")
        ]
        // JSON null reads as absent, as a member the document never had.
        if discovery == .withoutJWKSURI { configuration.quirks.discoveryExtras["jwks_uri"] = .null }
        configuration.quirks.validateAuthorization = { query, _ in
            guard let acr = query["acr_values"] else { return "acr_values is required for this partner" }
            let pairs = acr.split(separator: " ").map { $0.split(separator: ":", maxSplits: 1) }
            guard pairs.allSatisfy({ $0.count == 2 }) else { return "acr_values must be key:value pairs joined by spaces" }
            // The key's case is free: GrabIdPartnerSDK's README writes `SERVICE:PASSENGER`, partners' plists `service`.
            return pairs.contains { $0[0].lowercased() == "service" && $0[1] == "PASSENGER" } ? nil : "acr_values must include service:PASSENGER"
        }
        configuration.quirks.tokenParametersInQuery = true
        configuration.quirks.validateTokenRequest = { request, _ in
            guard let body = request.body, !body.isEmpty else { return nil }
            return "Grab reads token request parameters from the URL query, not from a request body"
        }
        configuration.quirks.idTokenClaims = { _ in
            ["svc": "PASSENGER", "pid": "partner-123", "jti": .string(SecureRandom.token(byteCount: 9))]
        }
        configuration.quirks.api = { request, _ in
            guard let url = request.url else { return nil }
            if url.path == "/grabid/v1/oauth2/clients/\(grabClientID)/public_info" {
                return (200, ["custom_protocols": [.string(grabCustomProtocol)]])
            }
            guard url.path == "/grabid/v1/oauth2/id_tokens/token_info" else { return nil }
            let query = Dictionary(FormEncoding.decode(url.query ?? ""), uniquingKeysWith: { a, _ in a })
            guard query["client_id"] == grabClientID, let token = query["id_token"],
                let payload = token.split(separator: ".").dropFirst().first.flatMap({ Base64URL.decode($0) }),
                var claims = try? JSONValue.parseObject(payload)
            else { return (400, ["error": "invalid_request"]) }
            guard claims["nonce"]?.stringValue == query["nonce"] else { return (400, ["error": "invalid_nonce"]) }
            claims["nbf"] = claims["iat"]
            let keep: Set<String> = ["aud", "exp", "iat", "iss", "nbf", "jti", "nonce", "svc", "pid", "sub"]
            return (200, .object(claims.filter { keep.contains($0.key) }))
        }
        configuration.displayName = "Grab"
        configuration.testAccounts = [TestAccount(username: "passenger@example.com", user: configuration.user)]
        return TestIdentityProvider(configuration: origin.map(configuration.served(at:)) ?? configuration, clock: clock)
    }

    /// An emulated Grab app: installed when `installed` is true; it takes the deep link
    /// `grab://oauth2/authorize?…&auth_endpoint=…`, logs the user in at the emulator, and calls the partner back.
    public static func grabApp(installed: Bool, idp: TestIdentityProvider) -> EmulatedAppHandoff {
        EmulatedAppHandoff(installedSchemes: installed ? ["grab", "itms-apps"] : ["itms-apps"], transport: idp.transport) { url in
            url.scheme
        } prepare: { deepLink in
            if deepLink.scheme == "itms-apps" { return nil }  // the App Store opens; nobody logs in
            guard var components = URLComponents(url: deepLink, resolvingAgainstBaseURL: false),
                let endpoint = components.queryItems?.first(where: { $0.name == "auth_endpoint" })?.value.flatMap(URL.init(string:)),
                var target = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)
            else { return deepLink }
            components.queryItems?.removeAll { $0.name == "auth_endpoint" }
            target.percentEncodedQuery = components.percentEncodedQuery
            return target.url ?? deepLink
        }
    }
}
