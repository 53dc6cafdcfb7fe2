import AcmeAuth
import AuthCore
import AuthTesting
import Foundation
import Testing

/// An Acme emulator: AuthTesting's identity provider, made strict about Acme's `tenant` parameter.
func acmeEmulator() -> ProviderEmulator {
    var configuration = TestIdentityProvider.Configuration()
    configuration.quirks.validateAuthorization = { query, _ in query["tenant"] == "acme-eu" ? nil : "tenant=acme-eu is required" }
    let clock = ManualClock()
    let idp = TestIdentityProvider(configuration: configuration, clock: clock)
    return ProviderEmulator(
        providerID: "acme",
        configuration: ProviderConfiguration([
            "issuer": .string(TestIdentityProvider.defaultIssuer.absoluteString),
            "client_id": .string(TestIdentityProvider.defaultClientID),
            "redirect_uri": .string(TestIdentityProvider.defaultRedirectURI.absoluteString),
            "scope": "openid email offline_access",
            "tenant": "acme-eu"
        ]),
        transport: idp.transport,
        userAgent: HeadlessUserAgent(transport: idp.transport),
        clock: clock,
        route: "web",
        supportsRefresh: true
    )
}

@Suite("A third-party provider from outside the package")
struct AcmeProviderTests {
    @Test("Passes the provider conformance suite")
    func conformance() async throws {
        let report = try await ProviderConformance.check(AcmeProvider.self, emulator: acmeEmulator())
        #expect(report.passed.count >= 10)
    }

    @Test("Registered by name next to nothing else, it signs in with its tenant parameter")
    func registryAndSignIn() async throws {
        var registry = ProviderRegistry()
        registry.registerAcme()
        #expect(registry.providerIDs == ["acme"])
        let emulator = acmeEmulator()
        let provider = try registry.provider(named: "acme", configuration: emulator.configuration)
        let client = AuthClient(provider: provider, transport: emulator.transport, logger: RecordingLogger(), clock: emulator.clock)
        let session = try await client.signIn(with: emulator.userAgent)
        #expect(await session.idTokenClaims?.subject == "user-1234")
    }

    @Test("A missing tenant is a clear configuration error")
    func missingTenant() {
        var configuration = acmeEmulator().configuration
        configuration["tenant"] = nil
        let error = #expect(throws: AuthError.self) { try AcmeProvider(configuration: configuration) }
        #expect(error?.code == .missingConfigurationKey)
        #expect(error?.message.contains("'tenant'") == true)
    }
}
