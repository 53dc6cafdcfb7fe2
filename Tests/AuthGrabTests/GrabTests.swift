import AuthCore
import AuthGrab
import AuthProviders
import AuthTesting
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Grab")
struct GrabTests {
    private struct Harness {
        let idp: TestIdentityProvider
        let clock: ManualClock
        let transport: RecordingTransport
        let app: EmulatedAppHandoff
        let storage: InMemoryTokenStorage
        let grab: GrabIdPartner
    }

    private func harness(appInstalled: Bool? = nil, plist: [String: JSONValue] = TestIdentityProvider.grabPlist,
                         wrap: ((any HTTPTransport) -> any HTTPTransport)? = nil) async throws -> Harness {
        let clock = ManualClock()
        let idp = TestIdentityProvider.grab(clock: clock)
        let transport = RecordingTransport(wrap?(idp.transport) ?? idp.transport)
        let app = TestIdentityProvider.grabApp(installed: appInstalled ?? false, idp: idp)
        let storage = InMemoryTokenStorage()
        let grab = GrabIdPartner(configuration: try GrabConfiguration(ProviderConfiguration(["GrabIdPartnerSDK": .object(plist)])),
                                 webAgent: HeadlessUserAgent(transport: transport),
                                 appHandoff: appInstalled == nil ? nil : app,  // nil: a host without app hand-off (web only)
                                 storage: storage, transport: transport, logger: RecordingLogger(), clock: clock)
        await app.onCallback { url in _ = await grab.handleOpenUrl(url) }
        return Harness(idp: idp, clock: clock, transport: transport, app: app, storage: storage, grab: grab)
    }

    private func login(_ harness: Harness, options: SignInOptions = SignInOptions()) async throws -> AuthGrab.LoginSession {
        try await harness.grab.login(loginSession: try await harness.grab.loadLoginSession(), options: options)
    }

    // MARK: Configuration

    @Test("Missing dictionary, client id, redirect and scope are distinct errors with Grab's names")
    func configurationErrors() {
        let missingDictionary = #expect(throws: AuthError.self) { try GrabConfiguration(ProviderConfiguration(["Other": "x"])) }
        #expect(missingDictionary?.grabError == GrabError(domain: .loadConfiguration, code: .invalidConfiguration))
        let expected: [String: GrabError.Code] = ["ClientId": .invalidClientId, "RedirectUrl": .invalidRedirectUrl, "Scope": .invalidScope, "ServiceDiscoveryUrl": .invalidServiceDiscoveryUrl]
        for (key, code) in expected {
            var plist = TestIdentityProvider.grabPlist
            plist[key] = ""
            let error = #expect(throws: AuthError.self) { try ProviderRegistry.builtIn.provider(named: "grab", configuration: ProviderConfiguration(["GrabIdPartnerSDK": .object(plist)])) }
            #expect(error?.grabError == GrabError(domain: .loadConfiguration, code: code), "\(key)")
        }
    }

    @Test("acr_values are key:value pairs sorted by key; hints, prompt and request only when non-empty; lowercase prompt accepted")
    func authorizationParameters() throws {
        let configuration = try GrabConfiguration(ProviderConfiguration(["GrabIdPartnerSDK": .object(TestIdentityProvider.grabPlist)]))
        #expect(configuration.acrValuesParameter == "consent_ctx:countryCode=SG service:PASSENGER")
        var plist = TestIdentityProvider.grabPlist
        plist["prompt"] = "login"
        plist["Hint"] = ""
        plist["AcrValues"] = ["service": "", "a": "b"]
        let other = try GrabConfiguration(ProviderConfiguration(plist))
        #expect(other.prompt == "login" && other.hint == nil && other.acrValuesParameter == "a:b")
        let provider = GrabProvider(configuration: other)
        let metadata = ProviderMetadata(issuer: "i", authorizationEndpoint: URL(string: "https://x/a")!, tokenEndpoint: URL(string: "https://x/t")!)
        let parameters = provider.authorizationParameters(for: SignInRequest(options: SignInOptions(), metadata: metadata, scopes: ["openid"], redirectURI: TestIdentityProvider.grabRedirectURL))
        #expect(parameters == ["acr_values": "a:b", "prompt": "login"])
    }

    // MARK: Route decision (pure)

    @Test("Hand-off decision: hints force web; else the first openable app's deep link with every parameter and auth_endpoint; else App Store; else web")
    func routeDecision() throws {
        let endpoint = URL(string: "https://partner-api.grab.com/grabid/v1/oauth2/authorize")!
        let authorize = endpoint.appendingQuery([("client_id", "c"), ("state", "s"), ("acr_values", "service:PASSENGER")])
        let grab = try #require(try GrabCustomProtocol.parse(publicInfo: Data(#"{"custom_protocols":["{\"protocol_pax_ios\":\"grab://open\",\"protocol_ios\":\"grab://oauth2/authorize\",\"appstore_link_ios\":\"itms-apps://x/app/1\"}"]}"#.utf8)).first)
        let installed = GrabRoute.decide(authorizationURL: authorize, authorizationEndpoint: endpoint, customProtocols: [grab]) { $0.scheme == "grab" }
        guard case .app(let link) = installed else { Issue.record("expected an app route, got \(installed)"); return }
        #expect(link.absoluteString.hasPrefix("grab://oauth2/authorize?"))
        let items = URLComponents(url: link, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(items.map(\.name) == ["client_id", "state", "acr_values", "auth_endpoint"])
        #expect(items.last?.value == endpoint.absoluteString)

        #expect(GrabRoute.decide(authorizationURL: authorize, authorizationEndpoint: endpoint, customProtocols: [grab]) { _ in false } == .appStore(URL(string: "itms-apps://x/app/1")!))
        #expect(GrabRoute.decide(authorizationURL: authorize, authorizationEndpoint: endpoint, customProtocols: []) { _ in true } == .web)
        for hint in ["login_hint", "id_token_hint", "prompt"] {
            let hinted = authorize.appendingQuery([(hint, "x")])
            #expect(GrabRoute.decide(authorizationURL: hinted, authorizationEndpoint: endpoint, customProtocols: [grab]) { _ in true } == .web, "\(hint)")
        }
        #expect(throws: AuthError.self) { try GrabCustomProtocol.parse(publicInfo: Data(#"{"custom_protocols":[{"protocol_ios":"x"}]}"#.utf8)) }
    }

    // MARK: Flows

    @Test("Web login: Grab's own discovery, form-body token request, full ID token validation")
    func webLogin() async throws {
        let harness = try await harness()
        let session = try await login(harness)
        let accessToken = await session.accessToken
        let idToken = await session.idToken
        #expect(accessToken != nil && idToken != nil)
        #expect(await harness.transport.exchanges(pathSuffix: "/.well-known/openid-configuration").count == 1)
        let token = try #require(await harness.transport.exchanges(pathSuffix: "/token").first)
        #expect(token.request.url?.query == nil)
        #expect(token.formParameters["code_verifier"] != nil)
        let authorize = try #require(await harness.transport.exchanges.first { $0.request.url?.path.hasSuffix("/authorize") == true }?.request.url)
        #expect(authorize.query?.contains("acr_values=consent_ctx%3AcountryCode%3DSG%20service%3APASSENGER") == true)
    }

    @Test("SSO hand-off: the Grab app gets the deep link and calls back through handleOpenUrl")
    func appHandoff() async throws {
        let harness = try await harness(appInstalled: true)
        let session = try await login(harness)
        #expect(await session.accessToken != nil)
        let opened = try #require(await harness.app.opened.first)
        #expect(opened.scheme == "grab")
        #expect(opened.query?.contains("auth_endpoint=") == true)
        #expect(opened.query?.contains("code_challenge_method=S256") == true)
        // The web agent was not used: no authorize request went through the partner's transport.
        #expect(await harness.transport.exchanges.filter { $0.request.url?.path.hasSuffix("/authorize") == true }.isEmpty)
        #expect(await harness.grab.handleOpenUrl(TestIdentityProvider.grabRedirectURL) == false, "consumed once")
    }

    @Test("A login hint forces the web route even with the app installed")
    func hintForcesWeb() async throws {
        let harness = try await harness(appInstalled: true)
        _ = try await login(harness, options: SignInOptions(loginHint: "+6591234567"))
        #expect(await harness.app.opened.isEmpty)
    }

    @Test("Not installed: the App Store opens and the login ends with launchAppStoreLink (or failedTolaunchAppStoreLink)")
    func appStoreFallback() async throws {
        let harness = try await harness(appInstalled: false)
        let error = await #expect(throws: AuthError.self) { _ = try await login(harness) }
        #expect(error?.grabError == GrabError(domain: .appStore, code: .launchAppStoreLink))
        #expect(await harness.app.opened.first?.scheme == "itms-apps")
        #expect(await harness.storage.isEmpty)

        let refusing = try await self.harness(appInstalled: false)
        await refusing.app.setRefusesToOpen(true)
        let failed = await #expect(throws: AuthError.self) { _ = try await login(refusing) }
        #expect(failed?.grabError == GrabError(domain: .appStore, code: .failedTolaunchAppStoreLink))
    }

    @Test("A discovery document missing a required endpoint is an error, not silence")
    func discoveryMissingEndpoint() async throws {
        let harness = try await harness(wrap: { base in
            InProcessTransport().adding(host: "partner-api.grab.com") { request in
                let (data, response) = try await base.send(request)
                guard request.url?.path.hasSuffix("openid-configuration") == true, var document = try? JSONValue.parseObject(data) else { return (data, response) }
                document["id_token_verification_endpoint"] = nil
                return (try JSONValue.object(document).jsonData(), response)
            }
        })
        let error = await #expect(throws: AuthError.self) { _ = try await harness.grab.loadLoginSession() }
        #expect(error?.code == .discoveryFailed)
        #expect(error?.message.contains("id_token_verification_endpoint") == true)
        #expect(error?.grabError == GrabError(domain: .serviceDiscovery, code: .discoveryServiceFailed))
    }

    @Test("The ID token is validated in full (the vendor SDK did not)")
    func idTokenValidated() async throws {
        let harness = try await harness()
        await harness.idp.update { $0.signing = .corruptSignature }
        let error = await #expect(throws: AuthError.self) { _ = try await login(harness) }
        #expect(error?.grabError == GrabError(domain: .exchangeToken, code: .invalidIdToken))
        #expect(await harness.storage.isEmpty)
    }

    @Test("Id token info: mapped claims, nonce checked, cached until expiry; validity helpers; local logout")
    func idTokenInfo() async throws {
        let harness = try await harness()
        let session = try await login(harness)
        let info = try await harness.grab.getIdTokenInfo(loginSession: session)
        #expect(info.service == "PASSENGER" && info.partnerId == "partner-123" && info.partnerUserId == "grab-partner-user-42")
        #expect(info.audience == TestIdentityProvider.grabClientID && info.tokenId != nil && info.notValidBefore == info.issueDate)
        #expect(await harness.grab.isValidIdToken(idTokenInfo: info))
        _ = try await harness.grab.getIdTokenInfo(loginSession: session)
        #expect(await harness.transport.exchanges(pathSuffix: "/token_info").count == 1, "cached until exp")
        #expect(await harness.grab.isValidAccessToken(loginSession: session))
        harness.clock.advance(by: 3601)
        #expect(await harness.grab.isValidAccessToken(loginSession: session) == false)
        #expect(await harness.grab.isValidIdToken(idTokenInfo: info) == false)
        try await harness.grab.logout(loginSession: session)
        #expect(await harness.storage.isEmpty)
        #expect(await harness.transport.exchanges(pathSuffix: "/revoke").isEmpty, "logout is local")
    }

    @Test("Familiar error domains and codes; application codes start at 10000")
    func errorMapping() {
        #expect(AuthError(.stateMismatch, "x").grabError == GrabError(domain: .authorization, code: .securityValidationFailed))
        #expect(AuthError(.authorizationFailed, "x").grabError == GrabError(domain: .authorization, code: .securityValidationFailed))
        #expect(AuthError(.nonceMismatch, "x").grabError == GrabError(domain: .exchangeToken, code: .invalidNonce))
        #expect(AuthError(.network, "x").grabError == GrabError(domain: .exchangeToken, code: .network))
        #expect(GrabError.applicationCodeBase == 10_000)
    }
}

@Suite("GrabProvider conformance")
struct GrabProviderConformanceTests {
    @Test("Passes the provider conformance suite against its emulator")
    func conformance() async throws {
        let report = try await ProviderConformance.check(GrabProvider.self, emulator: .grab(clock: ManualClock()))
        #expect(report.passed.contains("PKCE S256") && report.passed.contains("replayed redirect refused"))
        #expect(report.passed.contains("sign-out clears storage") && report.passed.contains("no secrets logged"))
    }
}
