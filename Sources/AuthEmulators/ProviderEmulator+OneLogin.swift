public import AuthCore
public import AuthTesting
public import Foundation

extension ProviderEmulator {
    /// A OneLogin OIDC app, in process: issuer `https://example.onelogin.com/oidc/2` with OneLogin's paths
    /// (`/auth`, `/token`, `/me`, `/certs`, `/token/revocation`, `/token/introspection`).
    ///
    /// Strict: the configuration carries a custom `resource` key, and the emulator rejects an authorization
    /// request that lacks it, so a passing sign-in proves every other key is sent as a parameter.
    ///
    /// - Parameters:
    ///   - clock: the clock the emulator stamps tokens with.
    ///   - origin: where `auth-emulator emulate` serves it over HTTP (`http://127.0.0.1:<port>`): the configuration
    ///     then points there and redirects to `TestIdentityProvider/loopbackRedirectURI`; `nil` in process.
    public static func oneLogin(clock: any WallClock = SystemWallClock(), origin: URL? = nil) -> ProviderEmulator {
        let idp = TestIdentityProvider.oneLogin(clock: clock, origin: origin)
        return ProviderEmulator(
            providerID: "onelogin",
            configuration: ProviderConfiguration([
                "issuer": .string(idp.configuration.issuer.absoluteString),
                "clientId": .string(TestIdentityProvider.oneLoginClientID),
                "redirectUri": .string((origin == nil ? TestIdentityProvider.oneLoginRedirectURI : TestIdentityProvider.loopbackRedirectURI).absoluteString),
                "scopes": "openid profile email",
                "resource": .string(TestIdentityProvider.oneLoginResource)
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
    /// The emulated OneLogin client id.
    public static let oneLoginClientID = "0oa-emulated-onelogin-client"
    /// The emulated OneLogin redirect URI.
    public static let oneLoginRedirectURI = URL(string: "com.onelogin.oidc://callback")!
    /// The custom `resource` parameter the emulated app requires.
    public static let oneLoginResource = "https://api.example.com/contacts"

    /// An identity provider configured as a OneLogin OIDC app (see `ProviderEmulator/oneLogin(clock:)`).
    ///
    /// - Parameters:
    ///   - clock: the clock the emulator stamps tokens with.
    ///   - origin: where `auth-emulator emulate` serves it over HTTP (see `Configuration/served(at:)`); `nil` in process.
    ///   - dpop: DPoP support (RFC 9449) advertised by the tenant, for tests that the provider stays Bearer unless it
    ///     opts in; `nil` (the default) for none.
    public static func oneLogin(clock: any WallClock = SystemWallClock(), origin: URL? = nil, dpop: DPoPSettings? = nil) -> TestIdentityProvider {
        var configuration = Configuration(
            issuer: URL(string: "https://example.onelogin.com/oidc/2")!,
            clients: [Client(id: oneLoginClientID, redirectURIs: [oneLoginRedirectURI])],
            user: User(
                subject: "38495820",
                claims: [
                    "email": "jordan@example.com", "name": "Jordan Example", "preferred_username": "jordan"
                ])
        )
        configuration.paths.authorize = "/auth"
        configuration.paths.deviceAuthorization = nil  // not part of the emulated OneLogin app
        configuration.paths.token = "/token"
        configuration.paths.userinfo = "/me"
        configuration.paths.jwks = "/certs"
        configuration.paths.revoke = "/token/revocation"
        configuration.paths.introspect = "/token/introspection"
        configuration.quirks.validateAuthorization = { query, _ in
            query["resource"] == oneLoginResource ? nil : "this app requires resource=\(oneLoginResource)"
        }
        configuration.quirks.validateTokenRequest = { request, _ in
            request.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded"
                ? nil : "token requests must be form-encoded"
        }
        configuration.displayName = "OneLogin"
        configuration.dpop = dpop
        return TestIdentityProvider(configuration: origin.map(configuration.served(at:)) ?? configuration, clock: clock)
    }
}
