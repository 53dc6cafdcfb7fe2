import AuthCore
import AuthEmulators
import AuthGOVUK
import AuthTesting
import Foundation
import GOVUKCompat
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `oneLogin(_:…)` presets sign in as GOV.UK's own app does (mobile-ios-one-login-app:
/// `LoginSessionConfiguration+OneLogin.swift`, `AppEnvironment.swift`, `URLRequest+OneLogin.swift`), and the app
/// emulator refuses what GOV.UK refuses.
@Suite("GOV.UK One Login: the app presets and GOV.UK's token service")
struct GOVUKAppPresetTests {
    /// Hands out a fresh attestation for each token request, as the vendor app's `integrityAssertions` does.
    actor Attestations {
        private(set) var issued = 0
        func next() -> [String: String] {
            issued += 1
            return TestIdentityProvider.govUKAttestationHeaders.mapValues { "\($0)-\(issued)" }
        }
    }

    static func preset(
        _ environment: GOVUKAppConfiguration.Environment = .integration,
        tokenHeaders: @escaping GOVUKAppConfiguration.TokenExtras = { TestIdentityProvider.govUKAttestationHeaders }
    ) throws -> GOVUKAppConfiguration {
        try GOVUKAppConfiguration.oneLogin(
            environment, clientID: TestIdentityProvider.govUKClientID,
            redirectURI: TestIdentityProvider.govUKRedirectURI, tokenHeaders: tokenHeaders)
    }

    @Test("The preset's authorization URL asks GOV.UK's token service for scope=openid at <sts>/authorize; token and JWKS at <sts>/token and <sts>/.well-known/jwks.json")
    func presetUsesTheTokenService() async throws {
        for (environment, host) in [
            (GOVUKAppConfiguration.Environment.integration, "token.integration.account.gov.uk"),
            (.production, "token.account.gov.uk")
        ] {
            let configuration = try Self.preset(environment)
            #expect(configuration.tokenEndpoint.absoluteString == "https://\(host)/token")
            #expect(configuration.jwksEndpoint?.absoluteString == "https://\(host)/.well-known/jwks.json")
            #expect(configuration.effectiveIssuer.absoluteString == "https://\(host)")
            #expect(configuration.sendsTokenExtrasOnRefresh)
            let login = OneLoginSession(configuration: configuration, storage: InMemoryTokenStorage(), transport: InProcessTransport())
            let request = try await login.present()
            let components = try #require(URLComponents(url: request.url, resolvingAgainstBaseURL: false))
            #expect(components.host == host && components.path == "/authorize")
            #expect(components.queryItems?.first { $0.name == "scope" }?.value == "openid")
        }
    }

    @Test("The preset refuses offline_access: GOV.UK answers it with invalid_scope")
    func presetRefusesOfflineAccess() {
        let error = #expect(throws: AuthError.self) {
            try GOVUKAppConfiguration.oneLogin(
                .production, clientID: "c", redirectURI: TestIdentityProvider.govUKRedirectURI,
                scopes: [.openid, .offline_access], tokenHeaders: { [:] })
        }
        #expect(error?.code == .invalidConfiguration && error?.message.contains("offline_access") == true)
    }

    @Test("The preset's code exchange and each refresh carry the attestation headers, computed afresh for every token request")
    func presetSendsAttestationHeaders() async throws {
        let clock = ManualClock()
        let idp = TestIdentityProvider.govUK(clock: clock)
        let transport = RecordingTransport(idp.transport)
        let attestations = Attestations()
        let login = OneLoginSession(
            configuration: try Self.preset(tokenHeaders: { await attestations.next() }),
            storage: InMemoryTokenStorage(), transport: transport, clock: clock)
        let tokens = try await login.present(with: HeadlessUserAgent(transport: idp.transport))
        #expect(tokens.refreshToken != nil, "GOV.UK's token service issues the app a refresh token for scope openid")
        try await #require(await login.session).refresh()
        let tokenRequests = await transport.exchanges.filter { $0.request.url?.path == "/token" }
        #expect(tokenRequests.map { $0.formParameters["grant_type"] } == ["authorization_code", "refresh_token"])
        for name in TestIdentityProvider.govUKAttestationHeaderNames {
            let stub = try #require(TestIdentityProvider.govUKAttestationHeaders[name])
            #expect(tokenRequests.map { $0.request.value(forHTTPHeaderField: name) } == ["\(stub)-1", "\(stub)-2"], "\(name)")
        }
        #expect(await attestations.issued == 2)
    }

    @Test("The emulator refuses offline_access as GOV.UK does: invalid_scope at authorize, no token request, nothing stored")
    func emulatorRefusesOfflineAccess() async throws {
        let clock = ManualClock()
        let idp = TestIdentityProvider.govUK(clock: clock)
        let storage = InMemoryTokenStorage()
        let configuration = try await GOVUKAppConfiguration(
            authorizationEndpoint: URL(string: "https://token.integration.account.gov.uk/authorize")!,
            scopes: [.openid, .offline_access], clientID: TestIdentityProvider.govUKClientID,
            redirectURI: TestIdentityProvider.govUKRedirectURI.absoluteString,
            tokenHeaders: TestIdentityProvider.govUKAttestationHeaders
        )
        let error = await #expect(throws: AuthError.self) {
            _ = try await OneLoginSession(configuration: configuration, storage: storage, transport: idp.transport, clock: clock)
                .present(with: HeadlessUserAgent(transport: idp.transport))
        }
        #expect(error?.oauthError == "invalid_scope")
        #expect(error?.govUKLoginError == .authorization(.invalidScope))
        #expect(await idp.tokenRequestsByGrant.isEmpty)
        #expect(await storage.storedKeys().isEmpty)
    }

    @Test("The emulator refuses a token request without the attestation headers: HTTP 400 invalid_request, nothing stored")
    func emulatorRefusesUnattestedTokenRequest() async throws {
        let clock = ManualClock()
        let idp = TestIdentityProvider.govUK(clock: clock)
        let storage = InMemoryTokenStorage()
        let login = OneLoginSession(
            configuration: try Self.preset(tokenHeaders: { nil }), storage: storage,
            transport: idp.transport, clock: clock)
        let error = await #expect(throws: AuthError.self) { _ = try await login.present(with: HeadlessUserAgent(transport: idp.transport)) }
        #expect(error?.oauthError == "invalid_request" && error?.httpStatus == 400)
        #expect(error?.message.contains("OAuth-Client-Attestation") == true)
        #expect(await idp.tokenRequestsByGrant == ["authorization_code": 1])
        #expect(await storage.storedKeys().isEmpty)
        #expect(await login.session == nil)
    }
}
