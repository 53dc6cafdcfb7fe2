import AuthCore
import AuthOIDC
import AuthTesting
import Foundation
import Testing

@Suite("OpenIDProvider")
struct OpenIDProviderTests {
    private let base: [String: JSONValue] = [
        "issuer": .string(TestIdentityProvider.defaultIssuer.absoluteString),
        "client_id": .string(TestIdentityProvider.defaultClientID),
        "redirect_uri": .string(TestIdentityProvider.defaultRedirectURI.absoluteString)
    ]

    @Test("Each missing required key is its own clear error", arguments: ["issuer", "client_id", "redirect_uri"])
    func missingKey(key: String) {
        var values = base
        values[key] = nil
        let error = #expect(throws: AuthError.self) { try OpenIDProvider(configuration: ProviderConfiguration(values)) }
        #expect(error?.code == .missingConfigurationKey)
        #expect(error?.message.contains("'\(key)'") == true)
    }

    @Test("A non-URL issuer is invalid_configuration")
    func invalidIssuer() {
        var values = base
        values["issuer"] = "not a url"
        let error = #expect(throws: AuthError.self) { try OpenIDProvider(configuration: ProviderConfiguration(values)) }
        #expect(error?.code == .invalidConfiguration)
    }

    @Test("openid is always requested; extra parameters go on the authorization request")
    func scopesAndParameters() async throws {
        var values = base
        values["scope"] = "email profile"
        values["parameters"] = ["resource": "https://api.example.com", "audience": "api"]
        let provider = try OpenIDProvider(configuration: ProviderConfiguration(values))
        #expect(provider.client.scopes == ["openid", "email", "profile"])

        let idp = TestIdentityProvider()
        let client = AuthClient(provider: provider, transport: idp.transport, clock: idp.clock)
        let request = try await client.prepareSignIn()
        let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(query.first { $0.name == "resource" }?.value == "https://api.example.com")
        #expect(query.first { $0.name == "audience" }?.value == "api")
    }

    @Test("Selected by name from a registry, it signs in against the in-process identity provider")
    func signInByName() async throws {
        var registry = ProviderRegistry()
        registry.register(OpenIDProvider.self)
        let provider = try registry.provider(named: "oidc", configuration: ProviderConfiguration(base))
        let idp = TestIdentityProvider(configuration: .init(signingAlgorithm: .es256))
        let client = AuthClient(provider: provider, transport: idp.transport, clock: idp.clock)
        let session = try await client.signIn(with: HeadlessUserAgent(transport: idp.transport))
        #expect(await session.idTokenClaims?.subject == "user-1234")
        #expect(session.providerID == "oidc")
    }

    @Test("Discovery compares the document's issuer with the provider's policy and keeps the configured spelling")
    func discoveryIssuerUnderPolicy() async throws {
        // The identity provider publishes `https://idp.example.test/`; the app configured it without the slash.
        let idp = TestIdentityProvider(configuration: .init(issuer: URL(string: "https://idp.example.test/")!))
        let client = ClientRegistration(clientID: TestIdentityProvider.defaultClientID, redirectURI: TestIdentityProvider.defaultRedirectURI)
        let strict = AuthClient(
            provider: OpenIDProvider(issuer: TestIdentityProvider.defaultIssuer, client: client),
            transport: idp.transport, clock: idp.clock)
        let refused = await #expect(throws: AuthError.self) { _ = try await strict.metadata() }
        #expect(refused?.code == .discoveryIssuerMismatch)

        let tolerant = AuthClient(
            provider: OpenIDProvider(
                issuer: TestIdentityProvider.defaultIssuer, client: client,
                idTokenPolicy: IDTokenPolicy(issuerComparison: .ignoringTrailingSlash)),
            transport: idp.transport, clock: idp.clock)
        #expect(try await tolerant.metadata().issuer == "https://idp.example.test")
        let session = try await tolerant.signIn(with: HeadlessUserAgent(transport: idp.transport))
        #expect(session.storageKey.issuer == "https://idp.example.test")
        _ = try await session.refresh()
        #expect(try await tolerant.restoreSession() != nil)

        var forged = TestIdentityProvider.Configuration()
        forged.quirks.discoveryExtras["issuer"] = "https://idp.example.test/other/"
        let elsewhere = TestIdentityProvider(configuration: forged)
        let wrong = AuthClient(
            provider: OpenIDProvider(
                issuer: TestIdentityProvider.defaultIssuer, client: client,
                idTokenPolicy: IDTokenPolicy(issuerComparison: .ignoringTrailingSlash)),
            transport: elsewhere.transport, clock: elsewhere.clock)
        let mismatch = await #expect(throws: AuthError.self) { _ = try await wrong.metadata() }
        #expect(mismatch?.code == .discoveryIssuerMismatch)
    }
}

@Suite("OpenIDProvider conformance")
struct OpenIDProviderConformanceTests {
    @Test("Passes the provider conformance suite against its emulator")
    func conformance() async throws {
        let report = try await ProviderConformance.check(OpenIDProvider.self, emulator: .openIDConnect(clock: ManualClock()))
        #expect(report.passed.contains("PKCE S256") && report.passed.contains("replayed redirect refused"))
        #expect(report.passed.contains("sign-out clears storage") && report.passed.contains("no secrets logged"))
    }
}
