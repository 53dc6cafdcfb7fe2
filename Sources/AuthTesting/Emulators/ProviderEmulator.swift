public import AuthCore
import Foundation

/// An in-process stand-in for one provider's servers (and, where the provider hands off to a native app, for
/// that app), with the configuration dictionary that points the provider's module at it.
///
/// `auth-cli demo`, the sample executables and the provider tests sign in against these.
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

    /// Creates an emulator description.
    public init(
        providerID: ProviderID,
        configuration: ProviderConfiguration,
        transport: any HTTPTransport,
        userAgent: any UserAgent,
        clock: any WallClock,
        route: String,
        supportsRefresh: Bool
    ) {
        self.providerID = providerID
        self.configuration = configuration
        self.transport = transport
        self.userAgent = userAgent
        self.clock = clock
        self.route = route
        self.supportsRefresh = supportsRefresh
    }

    /// A fresh emulator for `providerID`, or `nil` when there is none.
    public static func make(for providerID: ProviderID, clock: any WallClock = SystemWallClock()) -> ProviderEmulator? {
        factories[providerID]?(clock)
    }

    /// Every emulator for `providerID`: the one ``make(for:clock:)`` returns, then variants (GOV.UK One Login as a
    /// web service sees it).
    public static func makeAll(for providerID: ProviderID, clock: any WallClock = SystemWallClock()) -> [ProviderEmulator] {
        (factories[providerID].map { [$0] } ?? []).map { $0(clock) } + (variants[providerID] ?? []).map { $0(clock) }
    }

    private static let variants: [ProviderID: [@Sendable (any WallClock) -> ProviderEmulator]] = ["govuk": [{ govUKService(clock: $0) }]]

    /// The provider ids that have emulators.
    public static var emulatedProviderIDs: [ProviderID] { factories.keys.sorted() }

    private static let factories: [ProviderID: @Sendable (any WallClock) -> ProviderEmulator] = [
        "oidc": openIDConnect,
        "govuk": govUK,
        "onelogin": oneLogin,
        "schibsted": schibsted,
        "uber": uber,
        "grab": grab,
    ]

    /// A standard OpenID Connect issuer: the `TestIdentityProvider` with its default client.
    public static func openIDConnect(clock: any WallClock = SystemWallClock()) -> ProviderEmulator {
        let idp = TestIdentityProvider(clock: clock)
        return ProviderEmulator(
            providerID: "oidc",
            configuration: ProviderConfiguration([
                "issuer": .string(TestIdentityProvider.defaultIssuer.absoluteString),
                "client_id": .string(TestIdentityProvider.defaultClientID),
                "redirect_uri": .string(TestIdentityProvider.defaultRedirectURI.absoluteString),
                "scope": "openid email profile offline_access",
            ]),
            transport: idp.transport,
            userAgent: HeadlessUserAgent(transport: idp.transport),
            clock: clock,
            route: "web",
            supportsRefresh: true
        )
    }
}
