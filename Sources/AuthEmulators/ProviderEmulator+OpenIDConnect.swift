public import AuthCore
public import AuthTesting
public import Foundation

extension ProviderEmulator {
    /// A standard OpenID Connect issuer served over HTTP at `origin` by `auth-emulator emulate`: the
    /// `TestIdentityProvider` with its default client and the login page (in process: AuthTesting's
    /// `openIDConnect(clock:dpop:)`).
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
        // RFC 9470: acr and auth_time as asked, and the step-up resources /api/high-assurance and /api/recent-authentication.
        configuration.stepUp = TestIdentityProvider.StepUpSettings()
        let idp = TestIdentityProvider(configuration: configuration.served(at: origin), clock: clock)
        return openIDConnect(idp, redirectURI: TestIdentityProvider.loopbackRedirectURI)
    }
}
