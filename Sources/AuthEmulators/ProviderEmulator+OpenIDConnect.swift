public import AuthCore
public import AuthTesting
public import Foundation

extension ProviderEmulator {
    /// A standard OpenID Connect issuer served over HTTP at `origin` by `auth-emulator emulate`: the
    /// `TestIdentityProvider` with its default client and the login page (in process: AuthTesting's
    /// `openIDConnect(clock:dpop:)`). Its token endpoint also exchanges tokens (RFC 8693: an access token for one with
    /// the audience `https://api.example.test`) and signs in the second app of a Native SSO family, the client
    /// ``nativeSSOSecondClientID``, with the first's `device_sso` sign-in.
    ///
    /// - Parameters:
    ///   - clock: the clock the emulator stamps tokens with.
    ///   - origin: where it is served (`http://127.0.0.1:<port>`): the configuration points there and redirects to
    ///     `TestIdentityProvider/loopbackRedirectURI`.
    ///   - dpop: DPoP support (RFC 9449) for the issuer, and `dpop: true` in the client's configuration; `nil` for
    ///     bearer tokens.
    public static func openIDConnect(
        clock: any WallClock = SystemWallClock(),
        origin: URL,
        dpop: TestIdentityProvider.DPoPSettings? = nil
    ) -> ProviderEmulator {
        var configuration = TestIdentityProvider.Configuration()
        configuration.displayName = "Example OpenID Provider"
        configuration.dpop = dpop
        configuration.paths.registration = "/register"
        var served = configuration.served(at: origin)
        served.clients += served.clients.map { TestIdentityProvider.Client(id: nativeSSOSecondClientID, redirectURIs: $0.redirectURIs) }
        served.tokenExchange = .init(
            audiences: [tokenExchangeAudience], nativeSSOFamilies: [[TestIdentityProvider.defaultClientID, nativeSSOSecondClientID]])
        let idp = TestIdentityProvider(configuration: served, clock: clock)
        return openIDConnect(idp, redirectURI: TestIdentityProvider.loopbackRedirectURI)
    }

    /// The client id of the `oidc` emulator's second app, of the same Native SSO family as its default client: its
    /// configuration is the default client's with this `client_id`.
    public static let nativeSSOSecondClientID = "test-client-2"

    /// The audience the `oidc` emulator's token endpoint exchanges tokens for (RFC 8693 §2.1); any other is
    /// `invalid_target`.
    public static let tokenExchangeAudience = "https://api.example.test"
}
