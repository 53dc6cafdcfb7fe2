public import AuthCore
public import Foundation

/// An in-process stand-in for one provider's servers (and, where the provider hands off to a native app, for
/// that app), with the configuration dictionary that points the provider's module at it.
///
/// `auth-emulator demo`, the sample executables and the provider tests sign in against these.
public struct ProviderEmulator: Sendable {
    /// The provider id the emulator stands in for.
    public let providerID: ProviderID
    /// The configuration to build the provider from (as an app would from Info.plist or JSON).
    public let configuration: ProviderConfiguration
    /// Routes the provider's hosts to the emulator.
    public let transport: any HTTPTransport
    /// A user agent that completes the authorization step (a headless browser, or the emulated app).
    public let userAgent: any UserAgent
    /// The clock the emulator stamps tokens with.
    public let clock: any WallClock
    /// How the sign-in reaches the user, for display (`web`, `app hand-off`, …).
    public let route: String
    /// Whether the provider supports refresh.
    public let supportsRefresh: Bool
    /// The identity provider behind ``transport``, for fronts that serve it another way (`auth-emulator emulate` over
    /// HTTP) and tests that change its behaviour.
    public let identityProvider: TestIdentityProvider?
    /// What stands in front of ``identityProvider`` where the vendor's server does more than a standard OpenID Connect
    /// server (Sign in with Apple's `form_post` page and client-secret checks); `nil` when the identity provider
    /// answers alone.
    package var front: (@Sendable (CapturedRequest) async -> (Data, HTTPResponse))?

    /// Answers one HTTP request as the emulated vendor's server would: through its front (the vendor layer some emulators put before the identity provider) when it has one, else
    /// the identity provider. Fronts that serve the emulator over real HTTP (`auth-emulator emulate`, the web sign-in
    /// sample) call this, so a browser sees what the in-process ``transport`` gives a test.
    public func handle(_ request: CapturedRequest) async -> (Data, HTTPResponse) {
        if let front { return await front(request) }
        guard let identityProvider else { return (Data(), .make(status: 404)) }
        return await identityProvider.handle(request)
    }

    /// Creates an emulator description.
    public init(
        providerID: ProviderID,
        configuration: ProviderConfiguration,
        transport: any HTTPTransport,
        userAgent: any UserAgent,
        clock: any WallClock,
        route: String,
        supportsRefresh: Bool,
        identityProvider: TestIdentityProvider? = nil
    ) {
        self.providerID = providerID
        self.configuration = configuration
        self.transport = transport
        self.userAgent = userAgent
        self.clock = clock
        self.route = route
        self.supportsRefresh = supportsRefresh
        self.identityProvider = identityProvider
    }

    /// A standard OpenID Connect issuer: the `TestIdentityProvider` with its default client, in process (AuthEmulators
    /// adds `openIDConnect(clock:origin:dpop:)`, served over HTTP by `auth-emulator emulate`).
    ///
    /// - Parameters:
    ///   - clock: the clock the emulator stamps tokens with.
    ///   - dpop: DPoP support (RFC 9449) for the issuer, and `dpop: true` in the client's configuration; `nil` for
    ///     bearer tokens.
    public static func openIDConnect(clock: any WallClock = SystemWallClock(), dpop: TestIdentityProvider.DPoPSettings? = nil) -> ProviderEmulator {
        var configuration = TestIdentityProvider.Configuration()
        configuration.dpop = dpop
        let idp = TestIdentityProvider(configuration: configuration, clock: clock)
        return openIDConnect(idp, redirectURI: TestIdentityProvider.defaultRedirectURI)
    }

    /// The emulator of `idp`, a standard OpenID Connect issuer, for its default client redirecting to `redirectURI`
    /// (with `dpop: true` when the issuer supports DPoP).
    package static func openIDConnect(_ idp: TestIdentityProvider, redirectURI: URL) -> ProviderEmulator {
        var client: [String: JSONValue] = [
            "issuer": .string(idp.configuration.issuer.absoluteString),
            "client_id": .string(TestIdentityProvider.defaultClientID),
            "redirect_uri": .string(redirectURI.absoluteString),
            "scope": "openid email profile offline_access"
        ]
        if idp.configuration.dpop != nil { client["dpop"] = true }
        return ProviderEmulator(
            providerID: "oidc",
            configuration: ProviderConfiguration(client),
            transport: idp.transport,
            userAgent: HeadlessUserAgent(transport: idp.transport),
            clock: idp.clock,
            route: "web",
            supportsRefresh: true,
            identityProvider: idp
        )
    }
}
