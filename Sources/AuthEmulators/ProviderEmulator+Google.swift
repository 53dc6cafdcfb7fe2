public import AuthCore
public import AuthTesting
public import Foundation

extension ProviderEmulator {
    /// Google's OpenID Connect server, in process: discovery at `https://accounts.google.com`, Google's endpoint hosts
    /// and paths (`accounts.google.com/o/oauth2/v2/auth`, `oauth2.googleapis.com/token` and `/revoke`,
    /// `openidconnect.googleapis.com/v1/userinfo`, `www.googleapis.com/oauth2/v3/certs`), no end-session or
    /// introspection endpoint.
    ///
    /// Its quirks, as Google documents them:
    /// - the signed-in user is in the Workspace domain `example.com`, so ID tokens carry `hd: example.com`
    ///   (https://developers.google.com/identity/openid-connect/openid-connect#an-id-tokens-payload);
    /// - a refresh token only for `access_type=offline`, and then only on the first consent or with `prompt=consent`
    ///   (https://developers.google.com/identity/protocols/oauth2/web-server#offline);
    /// - refused as Google refuses them (`invalid_request`): `access_type` other than `online`/`offline`,
    ///   `include_granted_scopes` other than `true`/`false`, `prompt=none` with another prompt value, and a request
    ///   without `scope` (https://developers.google.com/identity/protocols/oauth2/web-server#creatingclient).
    ///
    /// Tests make hostile variants with `identityProvider.update { $0.idTokenClaimOverrides = … }` (another `hd`, an
    /// `iss` that is neither of Google's two forms).
    ///
    /// - Parameters:
    ///   - clock: the clock the emulator stamps tokens with.
    ///   - origin: where `auth-emulator emulate` would serve it over HTTP (`http://127.0.0.1:<port>`, one host for
    ///     every endpoint, redirecting to `TestIdentityProvider/loopbackRedirectURI`); `nil` in process.
    ///   - hostedDomain: the `hosted_domain` put in the configuration; `nil` for none.
    ///   - offline: `offline: true` in the configuration.
    public static func google(
        clock: any WallClock = SystemWallClock(),
        origin: URL? = nil,
        hostedDomain: String? = nil,
        offline: Bool = true
    ) -> ProviderEmulator {
        let idp = TestIdentityProvider.google(clock: clock, origin: origin)
        var configuration: [String: JSONValue] = [
            "client_id": .string(TestIdentityProvider.googleClientID),
            "client_secret": .string(TestIdentityProvider.googleClientSecret),
            "redirect_uri": .string((origin == nil ? TestIdentityProvider.googleRedirectURI : TestIdentityProvider.loopbackRedirectURI).absoluteString),
            "scope": "openid email profile",
            "offline": .bool(offline)
        ]
        if origin != nil { configuration["issuer"] = .string(idp.configuration.issuer.absoluteString) }
        if let hostedDomain { configuration["hosted_domain"] = .string(hostedDomain) }
        return ProviderEmulator(
            providerID: "google",
            configuration: ProviderConfiguration(configuration),
            transport: idp.transport,
            userAgent: HeadlessUserAgent(transport: idp.transport),
            clock: clock,
            route: "web",
            supportsRefresh: offline,
            identityProvider: idp
        )
    }
}

extension TestIdentityProvider {
    /// The emulated Google OAuth client id.
    public static let googleClientID = "1234567890-emulated.apps.googleusercontent.com"
    /// The emulated Google web client's secret.
    public static let googleClientSecret = "GOCSPX-emulated-secret"
    /// The emulated Google client's redirect URI.
    public static let googleRedirectURI = URL(string: "https://app.example.com/auth/google/callback")!
    /// The Workspace domain of the emulated Google user.
    public static let googleHostedDomain = "example.com"

    /// An identity provider configured as Google's OpenID Connect server (see `ProviderEmulator/google(clock:origin:hostedDomain:offline:)`).
    public static func google(clock: any WallClock = SystemWallClock(), origin: URL? = nil) -> TestIdentityProvider {
        let redirects = [googleRedirectURI, loopbackRedirectURI]
        var configuration = Configuration(
            issuer: URL(string: "https://accounts.google.com")!,
            clients: [Client(id: googleClientID, secret: googleClientSecret, redirectURIs: redirects)],
            user: User(
                subject: "110169484474386276334",
                claims: [
                    "email": "alex@example.com", "email_verified": true, "name": "Alex Example", "hd": .string(googleHostedDomain)
                ])
        )
        configuration.paths.authorize = "/o/oauth2/v2/auth"
        configuration.paths.token = "/token"
        configuration.paths.userinfo = "/v1/userinfo"
        configuration.paths.jwks = "/oauth2/v3/certs"
        configuration.paths.revoke = "/revoke"
        configuration.paths.deviceAuthorization = "/device/code"
        configuration.quirks.discoveryRemovals = ["introspection_endpoint", "end_session_endpoint"]
        configuration.initialBehavior.sendsIssParameter = false
        configuration.initialBehavior.advertisesIssParameter = false
        if origin == nil {
            // Google's endpoints live on other hosts than the issuer; the routes are matched by path on each.
            configuration.additionalHosts = ["oauth2.googleapis.com", "openidconnect.googleapis.com", "www.googleapis.com"]
            configuration.quirks.discoveryExtras = [
                "token_endpoint": "https://oauth2.googleapis.com/token",
                "revocation_endpoint": "https://oauth2.googleapis.com/revoke",
                "device_authorization_endpoint": "https://oauth2.googleapis.com/device/code",
                "userinfo_endpoint": "https://openidconnect.googleapis.com/v1/userinfo",
                "jwks_uri": "https://www.googleapis.com/oauth2/v3/certs"
            ]
        }
        configuration.quirks.validateAuthorization = { query, _ in googleRefusal(query) }
        let consents = GoogleConsentLedger()
        configuration.quirks.issuesRefreshToken = { authorization in
            guard authorization["access_type"] == "offline" else { return false }
            let forced = (authorization["prompt"] ?? "").split(separator: " ").contains("consent")
            return consents.firstConsent(of: authorization["client_id"] ?? "") || forced
        }
        configuration.displayName = "Google"
        return TestIdentityProvider(configuration: origin.map(configuration.served(at:)) ?? configuration, clock: clock)
    }

    /// What Google's authorization endpoint refuses with `invalid_request`, or `nil`.
    static func googleRefusal(_ query: [String: String]) -> String? {
        if (query["scope"] ?? "").isEmpty { return "Missing required parameter: scope" }
        if let access = query["access_type"], access != "online", access != "offline" {
            return "Invalid access_type: \(access)"
        }
        if let include = query["include_granted_scopes"], include != "true", include != "false" {
            return "Invalid include_granted_scopes: \(include)"
        }
        let prompt = (query["prompt"] ?? "").split(separator: " ")
        if prompt.contains("none"), prompt.count > 1 { return "Invalid prompt: none cannot be combined with other values" }
        return nil
    }
}

/// Which clients the emulated Google user has consented to: Google issues a refresh token on the first consent only,
/// unless `prompt=consent` asks again.
private final class GoogleConsentLedger: @unchecked Sendable {
    private let lock = NSLock()
    private var consented: Set<String> = []

    /// `true` the first time `clientID` is seen.
    func firstConsent(of clientID: String) -> Bool {
        lock.withLock { consented.insert(clientID).inserted }
    }
}
