import AuthCore
import AuthTesting
import Foundation

/// A standard OpenID Connect provider for these tests.
struct FamilyAppProvider: AuthProvider {
    static let id: ProviderID = "family-app"
    let issuer: URL
    let client: ClientRegistration

    init(configuration: ProviderConfiguration) throws {
        issuer = try configuration.requiredURL("issuer")
        client = ClientRegistration(clientID: try configuration.requiredString("client_id"), redirectURI: try configuration.requiredURL("redirect_uri"))
    }

    init(issuer: URL, client: ClientRegistration) {
        self.issuer = issuer
        self.client = client
    }

    var endpointSource: EndpointSource { .discovery(issuer: issuer) }
}

/// An identity provider with token exchange and a Native SSO family (`test-client` and `app-2`; `outsider` is in
/// none), and a client per app, each with its own storage.
struct ExchangeFixture {
    static let audience = "https://api.example.test"
    static let secondApp = "app-2"
    static let outsider = "outsider"

    let clock = ManualClock()
    let idp: TestIdentityProvider
    let transport: RecordingTransport
    let logger = RecordingLogger()

    init(dpop: TestIdentityProvider.DPoPSettings? = nil) {
        let redirect = [TestIdentityProvider.defaultRedirectURI]
        var configuration = TestIdentityProvider.Configuration(
            clients: [TestIdentityProvider.defaultClientID, Self.secondApp, Self.outsider].map { TestIdentityProvider.Client(id: $0, redirectURIs: redirect) })
        configuration.dpop = dpop
        configuration.tokenExchange = .init(audiences: [Self.audience], nativeSSOFamilies: [[TestIdentityProvider.defaultClientID, Self.secondApp]])
        idp = TestIdentityProvider(configuration: configuration, clock: clock)
        transport = RecordingTransport(idp.transport)
    }

    /// A client of the app `clientID` with its own storage.
    func client(_ clientID: String = TestIdentityProvider.defaultClientID, storage: any TokenStorage = InMemoryTokenStorage(), dpop: DPoPUsage = .whenAdvertised)
        -> AuthClient
    {
        let provider = FamilyAppProvider(
            issuer: TestIdentityProvider.defaultIssuer,
            client: ClientRegistration(
                clientID: clientID, redirectURI: TestIdentityProvider.defaultRedirectURI, scopes: ["openid", "email", "offline_access"], dpop: dpop))
        return AuthClient(provider: provider, storage: storage, transport: transport, logger: logger, clock: clock)
    }

    /// Signs `client` in with the browser (the headless user agent), with `scopes` added.
    func signIn(_ client: AuthClient, adding scopes: [String] = []) async throws -> Session {
        var options = SignInOptions()
        options.additionalScopes = scopes
        return try await client.signIn(with: HeadlessUserAgent(transport: idp.transport), options: options)
    }

    /// The token requests sent with `grant_type`.
    func tokenRequests(_ grantType: String) async -> [RecordingTransport.Exchange] {
        await transport.exchanges(pathSuffix: "/token").filter { $0.formParameters["grant_type"] == grantType }
    }

    /// The authorization requests the apps' browsers made.
    func authorizationRequests() async -> Int {
        await idp.requestCounts["/authorize"] ?? 0
    }
}
