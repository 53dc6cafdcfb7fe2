import AuthCore
import AuthDynamicRegistration
import AuthOIDC
import AuthTesting
import Foundation
import Testing

@Suite("The test identity provider's registration endpoint (RFC 7591 / 7592), end to end")
struct EmulatorRegistrationTests {
    static let redirect = TestIdentityProvider.defaultRedirectURI
    static let issuer = TestIdentityProvider.defaultIssuer.absoluteString

    static func provider() -> TestIdentityProvider {
        var configuration = TestIdentityProvider.Configuration()
        configuration.paths.registration = "/register"
        return TestIdentityProvider(configuration: configuration)
    }

    @Test("A registered public client signs in with the registration as its configuration; reads and updates use the access token")
    func registersAndSignsIn() async throws {
        let idp = Self.provider()
        let registrar = ClientRegistrar(transport: idp.transport, clock: idp.clock)
        let registration = try await registrar.register(RegistrationRequest(redirectURIs: [Self.redirect]), issuer: Self.issuer)
        #expect(registration.clientID.hasPrefix("dyn_"))
        #expect(registration.registrationClientURI?.absoluteString == Self.issuer + "/register/" + registration.clientID)
        let storage = InMemoryTokenStorage()
        let client = AuthClient(
            provider: try OpenIDProvider(configuration: registration.providerConfiguration()), storage: storage, transport: idp.transport, clock: idp.clock)
        let session = try await client.signIn(with: HeadlessUserAgent(transport: idp.transport))
        #expect(await session.credential.storageKey.account == "user-1234")
        #expect(try await registrar.read(registration).clientID == registration.clientID)
        var changed = registration.request
        changed.redirectURIs.append(URL(string: "com.example.app:/second")!)
        #expect(try await registrar.update(registration, to: changed).request.redirectURIs.count == 2)
    }

    @Test("A confidential client gets a secret and authenticates with it")
    func confidentialClient() async throws {
        let idp = Self.provider()
        let request = RegistrationRequest(redirectURIs: [Self.redirect], authenticationMethod: .clientSecretPost)
        let registration = try await ClientRegistrar(transport: idp.transport, clock: idp.clock).register(request, issuer: Self.issuer)
        #expect(registration.clientSecret != nil)
        let client = AuthClient(
            provider: try OpenIDProvider(configuration: registration.providerConfiguration()), storage: InMemoryTokenStorage(), transport: idp.transport,
            clock: idp.clock)
        _ = try await client.signIn(with: HeadlessUserAgent(transport: idp.transport))
    }

    @Test(
        "The endpoint refuses metadata it must not register, with the RFC 7591 error; nothing is stored",
        arguments: [
            (RegistrationRequest(applicationType: .web, redirectURIs: [URL(string: "http://app.example.test/cb")!]), "invalid_redirect_uri"),
            (RegistrationRequest(applicationType: .native, redirectURIs: [URL(string: "http://app.example.test/cb")!]), "invalid_redirect_uri"),
            (RegistrationRequest(redirectURIs: [redirect], grantTypes: ["authorization_code", "implicit"]), "invalid_client_metadata"),
            (RegistrationRequest(redirectURIs: [redirect], grantTypes: ["refresh_token"]), "invalid_client_metadata")
        ])
    func refusesBadMetadata(_ request: RegistrationRequest, _ oauthError: String) async throws {
        let idp = Self.provider()
        let storage = InMemoryRegistrationStorage()
        let error = await #expect(throws: AuthError.self) {
            try await ClientRegistrar(transport: idp.transport, clock: idp.clock).register(request, issuer: Self.issuer, storage: storage)
        }
        #expect(error?.code == .registrationRefused)
        #expect(error?.oauthError == oauthError)
        #expect(await storage.count == 0)
    }

    @Test("RFC 7592: a wrong registration access token is invalid_token, and the stored registration is kept")
    func wrongAccessToken() async throws {
        let idp = Self.provider()
        let storage = InMemoryRegistrationStorage()
        let registrar = ClientRegistrar(transport: idp.transport, clock: idp.clock)
        var registration = try await registrar.register(RegistrationRequest(redirectURIs: [Self.redirect]), issuer: Self.issuer, storage: storage)
        let kept = registration
        registration.registrationAccessToken = Secret("forged")
        let error = await #expect(throws: AuthError.self) { try await registrar.read(registration, storage: storage) }
        #expect(error?.code == .registrationRefused)
        #expect(error?.oauthError == "invalid_token")
        #expect(await storage.registration(forIssuer: Self.issuer) == kept)
    }

    @Test("Discovery names the registration endpoint only when it is enabled")
    func discoveryKey() async throws {
        let enabled = try await ClientRegistrar(transport: Self.provider().transport).registrationEndpoint(issuer: Self.issuer)
        #expect(enabled.absoluteString == Self.issuer + "/register")
        let error = await #expect(throws: AuthError.self) {
            try await ClientRegistrar(transport: TestIdentityProvider().transport).registrationEndpoint(issuer: Self.issuer)
        }
        #expect(error?.code == .endpointUnavailable)
    }
}
