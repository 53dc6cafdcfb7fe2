import AuthCore
import AuthAppSupport
import AuthGrab
import GrabCompat
import AuthProviders
import AuthEmulators
import AuthTesting
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Grab")
struct GrabTests {
    /// The harness and helpers, shared with the vendor-fidelity suite.
    struct Helper {
        func harness(appInstalled: Bool? = nil, plist: [String: JSONValue] = TestIdentityProvider.grabPlist,
                     clock: ManualClock = ManualClock(), idp: TestIdentityProvider? = nil,
                     storage: InMemoryTokenStorage = InMemoryTokenStorage(), deviceId: String? = nil,
                     wrap: ((any HTTPTransport) -> any HTTPTransport)? = nil) async throws -> Harness {
            try await GrabTests().harness(appInstalled: appInstalled, plist: plist, clock: clock, idp: idp, storage: storage, deviceId: deviceId, wrap: wrap)
        }
        @discardableResult
        func login(_ harness: Harness, options: SignInOptions = SignInOptions()) async throws -> GrabCompat.LoginSession {
            try await GrabTests().login(harness, options: options)
        }
        func untilWaiting(_ grab: GrabIdPartner) async throws { try await GrabTests().untilWaiting(grab) }
    }

    struct Harness {
        let idp: TestIdentityProvider
        let clock: ManualClock
        let transport: RecordingTransport
        let app: EmulatedAppHandoff
        let storage: InMemoryTokenStorage
        let grab: GrabIdPartner
        let logger: RecordingLogger
    }

    fileprivate func harness(appInstalled: Bool? = nil, plist: [String: JSONValue] = TestIdentityProvider.grabPlist,
                         clock: ManualClock = ManualClock(), idp: TestIdentityProvider? = nil,
                         storage: InMemoryTokenStorage = InMemoryTokenStorage(), deviceId: String? = nil,
                         wrap: ((any HTTPTransport) -> any HTTPTransport)? = nil) async throws -> Harness {
        let idp = idp ?? TestIdentityProvider.grab(clock: clock)
        let transport = RecordingTransport(wrap?(idp.transport) ?? idp.transport)
        let app = TestIdentityProvider.grabApp(installed: appInstalled ?? false, idp: idp)
        let logger = RecordingLogger()
        let grab = GrabIdPartner(configuration: try GrabConfiguration(ProviderConfiguration(["GrabIdPartnerSDK": .object(plist)])),
                                 webAgent: HeadlessUserAgent(transport: transport),
                                 appHandoff: appInstalled == nil ? nil : app,  // nil: a host without app hand-off (web only)
                                 storage: storage, transport: transport, logger: logger, clock: clock, deviceId: deviceId)
        await app.onCallback { url in _ = grab.handleOpenUrl(url) }
        return Harness(idp: idp, clock: clock, transport: transport, app: app, storage: storage, grab: grab, logger: logger)
    }

    @discardableResult
    fileprivate func login(_ harness: Harness, options: SignInOptions = SignInOptions()) async throws -> GrabCompat.LoginSession {
        try await harness.grab.login(loginSession: try await harness.grab.loadLoginSession(), options: options)
    }

    /// Waits (yielding, never sleeping) until a hand-off is waiting for the Grab app's callback.
    fileprivate func untilWaiting(_ grab: GrabIdPartner) async throws {
        for _ in 0..<10_000 where !grab.appCallbacks.isWaiting { await Task.yield() }
        try #require(grab.appCallbacks.isWaiting)
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
        let parameters = provider.authorizationParameters(for: SignInContext(options: SignInOptions(), metadata: metadata, scopes: ["openid"], redirectURI: TestIdentityProvider.grabRedirectURL))
        #expect(parameters == ["acr_values": "a:b", "prompt": "login"])
    }

    // MARK: Route decision (pure)

    @Test("Hand-off decision: hints force web; else the first openable app's deep link with every parameter and auth_endpoint; else App Store; else web")
    func routeDecision() throws {
        let endpoint = URL(string: "https://partner-api.grab.com/grabid/v1/oauth2/authorize")!
        let authorize = endpoint.appendingQuery([("client_id", "c"), ("state", "s"), ("acr_values", "service:PASSENGER")])
        let grab = try #require(try GrabCustomProtocol.parse(publicInfo: Data(#"{"custom_protocols":["{\"protocol_pax_ios\":\"grab://open\",\"protocol_ios\":\"grab://oauth2/authorize\",\"appstore_link_ios\":\"itms-apps://x/app/1\"}"]}"#.utf8)).first)
        let installed = GrabRoute.decide(authorizationURL: authorize, authorizationEndpoint: endpoint, customProtocols: [grab]) { $0.scheme == "grab" }
        guard case .app(let link, nil) = installed else { Issue.record("expected an app route, got \(installed)"); return }
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
        let accessToken = session.accessToken
        let idToken = session.idToken
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
        #expect(session.accessToken != nil)
        let opened = try #require(await harness.app.opened.first)
        #expect(opened.scheme == "grab")
        #expect(opened.query?.contains("auth_endpoint=") == true)
        #expect(opened.query?.contains("code_challenge_method=S256") == true)
        // The web agent was not used: no authorize request went through the partner's transport.
        #expect(await harness.transport.exchanges.filter { $0.request.url?.path.hasSuffix("/authorize") == true }.isEmpty)
        #expect(harness.grab.handleOpenUrl(TestIdentityProvider.grabRedirectURL) == false, "consumed once")
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
        let error = await #expect(throws: GrabError.self) { _ = try await login(harness) }
        #expect(error?.grabError == GrabError(domain: .appStore, code: .launchAppStoreLink))
        #expect(await harness.app.opened.first?.scheme == "itms-apps")
        #expect(await harness.storage.isEmpty)

        let refusing = try await self.harness(appInstalled: false)
        await refusing.app.setRefusesToOpen(true)
        let failed = await #expect(throws: GrabError.self) { _ = try await login(refusing) }
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
        let error = await #expect(throws: GrabError.self) { _ = try await harness.grab.loadLoginSession() }
        #expect(error?.authError?.code == .discoveryFailed)
        #expect(error?.authError?.message.contains("id_token_verification_endpoint") == true)
        #expect(error?.grabError == GrabError(domain: .serviceDiscovery, code: .discoveryServiceFailed))
    }

    @Test("The ID token is validated in full (the vendor SDK did not)")
    func idTokenValidated() async throws {
        let harness = try await harness()
        await harness.idp.update { $0.signing = .corruptSignature }
        let error = await #expect(throws: GrabError.self) { _ = try await login(harness) }
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
        #expect(harness.grab.isValidIdToken(idTokenInfo: info))
        _ = try await harness.grab.getIdTokenInfo(loginSession: session)
        #expect(await harness.transport.exchanges(pathSuffix: "/token_info").count == 1, "cached until exp")
        #expect(harness.grab.isValidAccessToken(loginSession: session))
        harness.clock.advance(by: 3601)
        #expect(harness.grab.isValidAccessToken(loginSession: session) == false)
        #expect(harness.grab.isValidIdToken(idTokenInfo: info) == false)
        try await harness.grab.logout(loginSession: session)
        #expect(await harness.storage.isEmpty)
        #expect(await harness.transport.exchanges(pathSuffix: "/revoke").isEmpty, "logout is local")
    }

    @Test("Familiar error domains and codes; application codes start at 10000")
    func errorMapping() {
        #expect(AuthError(.stateMismatch, "x").grabError == GrabError(domain: .authorization, code: .securityValidationFailed))
        #expect(AuthError(.nonceMismatch, "x").grabError == GrabError(domain: .exchangeToken, code: .invalidNonce))
        #expect(AuthError(.network, "x").grabError == GrabError(domain: .exchangeToken, code: .network))
        #expect(GrabError(AuthError(.network, "x"), domain: .getIdTokenInfo) == GrabError(domain: .getIdTokenInfo, code: .network))
        #expect(GrabError(AuthError(.httpError, "x"), domain: .getIdTokenInfo).code == .idTokenInfoServiceFailed)
        #expect(GrabError(AuthError(.httpError, "x"), domain: .exchangeToken).code == .exchangeTokenServiceFailed)
        #expect(GrabError.Code.partnerAppError.rawValue == 10_000 && GrabError.Code.partnerApp(7).rawValue == 10_007)
        #expect(GrabError.Code.partnerApp(7).isPartnerAppError && GrabError.Code.partnerApp(7).description == "partnerAppError+7")
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

/// One test per non-OK row of `../shared/audits/grab.md` (named `rowN…`) and per vendor test vector.
@Suite("Grab vendor fidelity")
struct GrabVendorFidelityTests {
    private let helper = GrabTests.Helper()

    @Test("row 7: Scope without openid is invalidScope at configuration (no nonce otherwise)")
    func row7ScopeRequiresOpenID() throws {
        var plist = TestIdentityProvider.grabPlist
        plist["Scope"] = "profile.read"
        let error = #expect(throws: AuthError.self) { try GrabConfiguration(ProviderConfiguration(["GrabIdPartnerSDK": .object(plist)])) }
        #expect(error?.grabError == GrabError(domain: .loadConfiguration, code: .invalidScope))
        #expect(error?.configurationKey == "Scope" && error?.message.contains("openid") == true)
        #expect(throws: AuthError.self) {
            try LoginSession(clientId: "c", redirectUrl: TestIdentityProvider.grabRedirectURL, scope: "profile", serviceDiscoveryUrl: "https://x/d")
        }
    }

    @Test("rows 9, 10, 12, G1: non-empty Hint, IdTokenHint, Request and device_id are sent; SERVICE:PASSENGER as the seed writes it")
    func rows9to12ParametersSent() async throws {
        var plist = TestIdentityProvider.grabPlist
        plist["Hint"] = "+6591234567"
        plist["IdTokenHint"] = "previous-id-token"
        plist["Request"] = "eyJhbGciOiJub25lIn0.e30."
        plist["AcrValues"] = ["SERVICE": "PASSENGER", "consent_ctx": "countryCode=SG"]
        let harness = try await helper.harness(plist: plist, deviceId: "6A1B2C3D-0000-4000-8000-000000000001")
        // The authorization request as the SDK builds it (the emulator, like Grab, refuses an unsigned request object).
        let authorize = try await harness.grab.authClient.prepareSignIn().url
        let query = Dictionary(FormEncoding.decode(authorize.query ?? ""), uniquingKeysWith: { a, _ in a })
        #expect(query["login_hint"] == "+6591234567" && query["id_token_hint"] == "previous-id-token")
        #expect(query["request"] == "eyJhbGciOiJub25lIn0.e30." && query["device_id"] == "6A1B2C3D-0000-4000-8000-000000000001")
        #expect(query["acr_values"] == "SERVICE:PASSENGER consent_ctx:countryCode=SG")
        #expect(query["nonce"] != nil)
    }

    @Test("rows 17, 22, 41: a relaunch restores the stored session offline, and login returns it without browser or app")
    func row22LoginReusesStoredSession() async throws {
        let clock = ManualClock()
        let idp = TestIdentityProvider.grab(clock: clock)
        let storage = InMemoryTokenStorage()
        let first = try await helper.harness(appInstalled: true, clock: clock, idp: idp, storage: storage)
        try await helper.login(first)
        #expect(await first.app.opened.count == 1)

        // Relaunch: a new SDK object over the same storage, and no network at all.
        let offline = try await helper.harness(appInstalled: true, clock: clock, idp: idp, storage: storage, wrap: { _ in
            InProcessTransport().adding(host: "partner-api.grab.com") { _ in throw URLError(.notConnectedToInternet) }
        })
        let loginSession = try await offline.grab.loadLoginSession()
        #expect(loginSession.accessToken != nil && loginSession.nonce != nil && loginSession.state == nil)
        try await offline.grab.login(loginSession: loginSession)
        #expect(await offline.app.opened.isEmpty, "no hand-off")
        #expect(await offline.transport.exchanges.filter { $0.request.url?.path.hasSuffix("/authorize") == true }.isEmpty, "no web login")

        // Only an expired token leads to a new login.
        clock.advance(by: 3601)
        let online = try await helper.harness(appInstalled: true, clock: clock, idp: idp, storage: storage)
        let expired = try await online.grab.loadLoginSession()
        #expect(online.grab.isValidAccessToken(loginSession: expired) == false)
        try await online.grab.login(loginSession: expired)
        #expect(await online.app.opened.count == 1 && online.grab.isValidAccessToken(loginSession: expired))
    }

    @Test("row 34: an installed Grab app that does not open falls back to the web as the vendor does; to the App Store when another entry names one")
    func row34AppFallback() async throws {
        let harness = try await helper.harness(appInstalled: true)
        await harness.app.setRefusesToOpen(true)
        let session = try await helper.login(harness)
        #expect(session.accessToken != nil)
        #expect(await harness.app.opened.first?.scheme == "grab", "the app was tried first")
        #expect(await harness.transport.exchanges.contains { $0.request.url?.path.hasSuffix("/authorize") == true }, "then the web")

        let endpoint = URL(string: "https://partner-api.grab.com/grabid/v1/oauth2/authorize")!
        let entries = [
            GrabCustomProtocol(paxProtocol: "grabdriver://open", loginProtocol: "grabdriver://oauth2", appStoreLink: "itms-apps://x/app/2"),
            GrabCustomProtocol(paxProtocol: "grab://open", loginProtocol: "grab://oauth2/authorize", appStoreLink: "itms-apps://x/app/1"),
        ]
        let route = GrabRoute.decide(authorizationURL: endpoint, authorizationEndpoint: endpoint, customProtocols: entries) { $0.scheme == "grab" }
        guard case .app(_, let store) = route else { Issue.record("expected the app route, got \(route)"); return }
        #expect(store == URL(string: "itms-apps://x/app/2"), "the App Store link of the entry not chosen, as the vendor picks it")
    }

    @Test("row 32: a client public info that cannot be fetched or decoded means the web, logged as customProtocolsService")
    func row32PublicInfoFailureMeansWeb() async throws {
        for answer in [503, 200] {
            let harness = try await helper.harness(appInstalled: true, wrap: { base in
                InProcessTransport().adding(host: "partner-api.grab.com") { request in
                    guard request.url?.path.hasSuffix("/public_info") == true else { return try await base.send(request) }
                    // 503: unreachable; 200 with an entry that is not a JSON string: undecodable.
                    return (Data(#"{"custom_protocols":[{"protocol_ios":"grab://x"}]}"#.utf8),
                            HTTPResponse.make(status: answer))
                }
            })
            let session = try await helper.login(harness)
            #expect(session.accessToken != nil, "HTTP \(answer)")
            #expect(await harness.app.opened.isEmpty, "HTTP \(answer): no hand-off")
            #expect(await harness.transport.exchanges.contains { $0.request.url?.path.hasSuffix("/authorize") == true })
            #expect(harness.logger.contains("customProtocolsService"), "HTTP \(answer)")
        }
    }

    @Test("row 35: the hand-off times out on the injected clock with a typed error; nothing is stored; a late callback is refused")
    func row35Timeout() async throws {
        let harness = try await helper.harness(appInstalled: true)
        await harness.app.setNeverCallsBack(true)
        let login = Task { try await helper.login(harness) }
        try await helper.untilWaiting(harness.grab)
        harness.clock.advance(by: 599)
        #expect(harness.grab.appCallbacks.isWaiting, "not before the deadline")
        harness.clock.advance(by: 2)
        let error = await #expect(throws: GrabError.self) { try await login.value }
        #expect(error?.authError?.code == .timedOut)
        #expect(error?.grabError == GrabError(domain: .authorization, code: .authorizationFailed))
        #expect(await harness.storage.isEmpty)
        #expect(harness.grab.handleOpenUrl(TestIdentityProvider.grabRedirectURL.appendingQuery([("code", "late")])) == false)
    }

    @Test("row 35: cancelling the login's task ends the wait with sign_in_cancelled")
    func row35Cancellation() async throws {
        let harness = try await helper.harness(appInstalled: true)
        await harness.app.setNeverCallsBack(true)
        let login = Task { try await helper.login(harness) }
        try await helper.untilWaiting(harness.grab)
        login.cancel()
        let error = await #expect(throws: GrabError.self) { try await login.value }
        #expect(error?.authError?.code == .signInCancelled)
        #expect(!harness.grab.appCallbacks.isWaiting && harness.clock.sleeperCount == 0, "no waiter, no timer left behind")
        #expect(await harness.storage.isEmpty)
    }

    @Test("row 35: a second login supersedes the first cleanly, and loginCompleted cancels a waiting hand-off")
    func row35SecondLogin() async throws {
        let harness = try await helper.harness(appInstalled: true)
        await harness.app.setNeverCallsBack(true)
        let first = Task { try await helper.login(harness) }
        try await helper.untilWaiting(harness.grab)
        // The app must have taken the first link before it starts calling back again.
        while await harness.app.opened.isEmpty { await Task.yield() }
        await harness.app.setNeverCallsBack(false)
        let second = try await helper.login(harness)
        let error = await #expect(throws: GrabError.self) { try await first.value }
        #expect(error?.authError?.code == .signInSuperseded)
        #expect(second.accessToken != nil)

        await harness.app.setNeverCallsBack(true)
        let fresh = try await harness.grab.loadLoginSession()
        try await harness.grab.logout(loginSession: fresh)
        let third = Task { try await harness.grab.login(loginSession: fresh) }
        try await helper.untilWaiting(harness.grab)
        #expect(harness.grab.loginCompleted(loginSession: fresh))
        let cancelled = await #expect(throws: GrabError.self) { try await third.value }
        #expect(cancelled?.authError?.code == .userCancelled)
        #expect(harness.grab.loginCompleted(loginSession: fresh) == false, "nothing left to close")
    }

    @Test("rows 36, 37: an app delegate written for exchangeToken(loginSession:url:) completes the login; a stray redirect is securityValidationFailed")
    func row37ExchangeToken() async throws {
        let harness = try await helper.harness(appInstalled: true)
        let loginSession = try await harness.grab.loadLoginSession()
        let grab = harness.grab
        await harness.app.onCallback { url in try? await grab.exchangeToken(loginSession: loginSession, url: url) }
        try await grab.login(loginSession: loginSession)
        #expect(loginSession.accessToken != nil)
        try await grab.exchangeToken(loginSession: loginSession, url: TestIdentityProvider.grabRedirectURL)  // valid token: at once

        let other = try await helper.harness(appInstalled: true)
        let stray = try await other.grab.loadLoginSession()
        let error = await #expect(throws: GrabError.self) {
            try await other.grab.exchangeToken(loginSession: stray, url: TestIdentityProvider.grabRedirectURL.appendingQuery([("code", "x"), ("state", "y")]))
        }
        #expect(error?.grabError == GrabError(domain: .exchangeToken, code: .securityValidationFailed))
        #expect(await other.storage.isEmpty)
    }

    @Test("row 46: an ID token info whose nonce is not this login's is invalidNonce in getIdTokenInfo; nothing cached")
    func row46NonceMismatch() async throws {
        let harness = try await helper.harness(wrap: { base in
            InProcessTransport().adding(host: "partner-api.grab.com") { request in
                let (data, response) = try await base.send(request)
                guard request.url?.path.hasSuffix("/token_info") == true, var info = try? JSONValue.parseObject(data) else { return (data, response) }
                info["nonce"] = "another-login's-nonce"
                return (try JSONValue.object(info).jsonData(), response)
            }
        })
        let session = try await helper.login(harness)
        let error = await #expect(throws: GrabError.self) { _ = try await harness.grab.getIdTokenInfo(loginSession: session) }
        #expect(error?.grabError == GrabError(domain: .getIdTokenInfo, code: .invalidNonce))
        #expect(await harness.transport.exchanges(pathSuffix: "/token_info").count == 1, "the check ran on a 200 answer")
        #expect(await session.session?.credential.annotations == nil)
    }

    @Test("rows 47, 48: the info cache survives a relaunch through storage; an expired ID token is refused without a request")
    func rows47and48InfoCacheAndExpiry() async throws {
        let clock = ManualClock()
        let idp = TestIdentityProvider.grab(clock: clock)
        let storage = InMemoryTokenStorage()
        let first = try await helper.harness(clock: clock, idp: idp, storage: storage)
        let info = try await first.grab.getIdTokenInfo(loginSession: try await helper.login(first))

        let relaunched = try await helper.harness(clock: clock, idp: idp, storage: storage)
        let restored = try await relaunched.grab.loadLoginSession()
        #expect(try await relaunched.grab.getIdTokenInfo(loginSession: restored) == info)
        #expect(await relaunched.transport.exchanges(pathSuffix: "/token_info").isEmpty, "served from the stored cache")

        clock.advance(by: 3601)
        let error = await #expect(throws: GrabError.self) { _ = try await relaunched.grab.getIdTokenInfo(loginSession: restored) }
        #expect(error?.authError?.code == .tokenExpired)
        #expect(error?.grabError == GrabError(domain: .getIdTokenInfo, code: .invalidIdToken))
        #expect(await relaunched.transport.exchanges(pathSuffix: "/token_info").isEmpty)
    }

    @Test("row 51: logout of a kept pre-login LoginSession clears storage; logout with nothing stored is logoutFailed")
    func row51Logout() async throws {
        let harness = try await helper.harness()
        let loginSession = try await harness.grab.loadLoginSession()
        try await harness.grab.login(loginSession: loginSession)   // seed style: the same value before and after
        try await harness.grab.logout(loginSession: loginSession)
        #expect(await harness.storage.isEmpty && loginSession.accessToken == nil)
        let error = await #expect(throws: GrabError.self) { try await harness.grab.logout(loginSession: loginSession) }
        #expect(error?.grabError == GrabError(domain: .logout, code: .logoutFailed))
    }

    @Test("rows 53-57: integer domains and codes as the vendor's enums; localizeMessage; serviceError; domain from the operation")
    func rows53to57Errors() async throws {
        #expect(GrabError.Domain.allCases.map(\.rawValue) == Array(0...8))
        #expect(GrabError.Domain.customProtocolsService.rawValue == 7 && GrabError.Domain.appStore.rawValue == 8)
        #expect(GrabError.Code.invalidNonce.rawValue == 8 && GrabError.Code.serviceError.rawValue == 21)
        #expect(GrabError.Code.launchAppStoreLink.rawValue == 28 && GrabError.Code.partnerAppError.rawValue == 10_000)
        let own = GrabError(code: .partnerApp(1), localizeMessage: "Booking failed", domain: .protectedResource)
        #expect(own.code.rawValue == 10_001 && own.localizeMessage == "Booking failed")

        // Discovery unreachable during login: serviceDiscovery / network, with the transport error underneath.
        let offline = try await helper.harness(wrap: { _ in
            InProcessTransport().adding(host: "partner-api.grab.com") { _ in throw URLError(.notConnectedToInternet) }
        })
        let network = await #expect(throws: GrabError.self) { try await helper.login(offline) }
        #expect(network?.grabError == GrabError(domain: .serviceDiscovery, code: .network))
        #expect(network?.grabError.serviceError != nil && network?.grabError.localizeMessage?.isEmpty == false)

        // The verification endpoint failing: getIdTokenInfo / idTokenInfoServiceFailed.
        let failing = try await helper.harness(wrap: { base in
            InProcessTransport().adding(host: "partner-api.grab.com") { request in
                if request.url?.path.hasSuffix("/token_info") == true {
                    return (Data("busy".utf8), HTTPResponse.make(status: 503))
                }
                return try await base.send(request)
            }
        })
        let session = try await helper.login(failing)
        let service = await #expect(throws: GrabError.self) { _ = try await failing.grab.getIdTokenInfo(loginSession: session) }
        #expect(service?.grabError == GrabError(domain: .getIdTokenInfo, code: .idTokenInfoServiceFailed))

        // A client public info that does not decode: customProtocolsService / invalidCustomProtocolUrl.
        let custom = #expect(throws: AuthError.self) { try GrabCustomProtocol.parse(publicInfo: Data("[]".utf8)) }
        #expect(custom?.grabError == GrabError(domain: .customProtocolsService, code: .invalidCustomProtocolUrl))

        // Mapping reads fields, not text: a message naming another key changes nothing.
        let misleading = AuthError(.missingConfigurationKey, "'ClientId' is fine", configurationKey: "RedirectUrl")
        #expect(misleading.grabError.code == .invalidRedirectUrl)
    }

    @Test("vendor vector: the token-info answer of GrabIdPartnerSDK's own tests (Tests.swift:47) maps as theirs does")
    func vendorTokenInfoVector() async throws {
        let harness = try await helper.harness(wrap: { base in
            InProcessTransport().adding(host: "partner-api.grab.com") { request in
                guard request.url?.path.hasSuffix("/token_info") == true else { return try await base.send(request) }
                let nonce = FormEncoding.decode(request.url?.query ?? "").first { $0.0 == "nonce" }?.1 ?? ""
                let body = #"{"acr":"[\"service:PASSENGER\"]","aud":"f795769ebe7446f38dede8fd36ee32fd","exp":2541371242,"iat":1541112042,"iss":"https://idp.grab.com","jti":"WiP03b0DRYWZTsd1IYY66g","nbf":1541112042,"pid":"59da6712-6c8b-4cb8-9a46-b2ac8a6d20d4","sub":"8206f105-7fe0-4a3e-ad3b-2b2b2d2e3d60","svc":"PASSENGER","nonce":"\#(nonce)"}"#
                return (Data(body.utf8), HTTPResponse.make(status: 200))
            }
        })
        let info = try await harness.grab.getIdTokenInfo(loginSession: try await helper.login(harness))
        #expect(info.service == "PASSENGER" && info.audience == "f795769ebe7446f38dede8fd36ee32fd" && info.issuer == "https://idp.grab.com")
        #expect(info.tokenId == "WiP03b0DRYWZTsd1IYY66g" && info.partnerId == "59da6712-6c8b-4cb8-9a46-b2ac8a6d20d4")
        #expect(info.partnerUserId == "8206f105-7fe0-4a3e-ad3b-2b2b2d2e3d60" && info.expiration == Date(timeIntervalSince1970: 2_541_371_242))
    }

    @Test("vendor vector: an ID token info missing a member is invalid_response (the vendor SDK never called back)")
    func tokenInfoMissingMember() async throws {
        let harness = try await helper.harness(wrap: { base in
            InProcessTransport().adding(host: "partner-api.grab.com") { request in
                let (data, response) = try await base.send(request)
                guard request.url?.path.hasSuffix("/token_info") == true, var info = try? JSONValue.parseObject(data) else { return (data, response) }
                info["pid"] = nil
                return (try JSONValue.object(info).jsonData(), response)
            }
        })
        let error = await #expect(throws: GrabError.self) { _ = try await harness.grab.getIdTokenInfo(loginSession: try await helper.login(harness)) }
        #expect(error?.authError?.code == .invalidResponse && error?.authError?.message.contains("'pid'") == true)
        #expect(error?.grabError == GrabError(domain: .getIdTokenInfo, code: .invalidResponse))
    }

    @Test("wire G5: the emulator, like Grab, redeems a code sent the vendor SDK's way (parameters in the URL query, no body)")
    func vendorStyleTokenRequest() async throws {
        let idp = TestIdentityProvider.grab(clock: ManualClock())
        let pkce = PKCE.generate()
        var authorize = CapturedRequest(url: URL(string: "https://partner-api.grab.com/grabid/v1/oauth2/authorize")!.appendingQuery([
            ("client_id", TestIdentityProvider.grabClientID), ("code_challenge", pkce.challenge), ("code_challenge_method", "S256"),
            ("device_id", ""), ("nonce", "n-1"), ("redirect_uri", TestIdentityProvider.grabRedirectURL.absoluteString),
            ("response_type", "code"), ("state", "s-1"), ("scope", "openid profile.read"), ("acr_values", "SERVICE:PASSENGER"),
        ]))
        authorize.httpMethod = "GET"
        let location = try #require(await idp.handle(authorize).1.value(forHTTPHeaderField: "Location"))
        let code = try #require(URLComponents(string: location)?.queryItems?.first { $0.name == "code" }?.value)
        var token = CapturedRequest(url: URL(string: "https://partner-api.grab.com/grabid/v1/oauth2/token")!.appendingQuery([
            ("client_id", TestIdentityProvider.grabClientID), ("grant_type", "authorization_code"),
            ("redirect_uri", TestIdentityProvider.grabRedirectURL.absoluteString), ("code_verifier", pkce.verifier.reveal()), ("code", code),
        ]))
        token.httpMethod = "POST"
        let (data, response) = await idp.handle(token)
        #expect(response.statusCode == 200)
        #expect(try JSONValue.parseObject(data)["id_token"]?.stringValue != nil)
    }

    @Test("row 23: discovery without issuer or jwks_uri says why this SDK needs them")
    func row23DiscoveryRequirements() async throws {
        let harness = try await helper.harness(wrap: { base in
            InProcessTransport().adding(host: "partner-api.grab.com") { request in
                let (data, response) = try await base.send(request)
                guard request.url?.path.hasSuffix("openid-configuration") == true, var document = try? JSONValue.parseObject(data) else { return (data, response) }
                document["jwks_uri"] = nil
                return (try JSONValue.object(document).jsonData(), response)
            }
        })
        let error = await #expect(throws: GrabError.self) { try await helper.login(harness) }
        #expect(error?.authError?.endpoint == "jwks_uri" && error?.authError?.message.contains("validate the ID token") == true)
        #expect(error?.grabError == GrabError(domain: .serviceDiscovery, code: .discoveryServiceFailed))
    }
}
