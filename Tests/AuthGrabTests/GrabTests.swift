import AuthAppSupport
import AuthCore
import AuthEmulators
import AuthGrab
import AuthProviders
import AuthTesting
import Foundation
import GrabCompat
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Grab")
struct GrabTests {
    /// The harness and helpers, shared with the vendor-fidelity suite.
    struct Helper {
        func harness(
            appInstalled: Bool? = nil, plist: [String: JSONValue] = TestIdentityProvider.grabPlist,
            clock: ManualClock = ManualClock(), idp: TestIdentityProvider? = nil,
            storage: InMemoryTokenStorage = InMemoryTokenStorage(), deviceId: String? = nil,
            wrap: ((any HTTPTransport) -> any HTTPTransport)? = nil
        ) async throws -> Harness {
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

    fileprivate func harness(
        appInstalled: Bool? = nil, plist: [String: JSONValue] = TestIdentityProvider.grabPlist,
        clock: ManualClock = ManualClock(), idp: TestIdentityProvider? = nil,
        storage: InMemoryTokenStorage = InMemoryTokenStorage(), deviceId: String? = nil,
        wrap: ((any HTTPTransport) -> any HTTPTransport)? = nil
    ) async throws -> Harness {
        let idp = idp ?? TestIdentityProvider.grab(clock: clock)
        let transport = RecordingTransport(wrap?(idp.transport) ?? idp.transport)
        let app = TestIdentityProvider.grabApp(installed: appInstalled ?? false, idp: idp)
        let logger = RecordingLogger()
        let grab = GrabIdPartner(
            configuration: try GrabConfiguration(ProviderConfiguration(["GrabIdPartnerSDK": .object(plist)])),
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
        let expected: [String: GrabError.Code] = [
            "ClientId": .invalidClientId, "RedirectUrl": .invalidRedirectUrl, "Scope": .invalidScope, "ServiceDiscoveryUrl": .invalidServiceDiscoveryUrl
        ]
        for (key, code) in expected {
            var plist = TestIdentityProvider.grabPlist
            plist[key] = ""
            let error = #expect(throws: AuthError.self) {
                try ProviderRegistry.builtIn.provider(named: "grab", configuration: ProviderConfiguration(["GrabIdPartnerSDK": .object(plist)]))
            }
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
        let parameters = provider.authorizationParameters(
            for: SignInContext(options: SignInOptions(), metadata: metadata, scopes: ["openid"], redirectURI: TestIdentityProvider.grabRedirectURL))
        #expect(parameters == ["acr_values": "a:b", "prompt": "login", "device_id": ""])
    }

    // MARK: Route decision (pure)

    @Test("Hand-off decision: hints force web; else the first openable app's deep link with every parameter and auth_endpoint; else App Store; else web")
    func routeDecision() throws {
        let endpoint = URL(string: "https://partner-api.grab.com/grabid/v1/oauth2/authorize")!
        let authorize = endpoint.appendingQuery([("client_id", "c"), ("state", "s"), ("acr_values", "service:PASSENGER")])
        let grab = try #require(
            try GrabCustomProtocol.parse(
                publicInfo: Data(
                    #"{"custom_protocols":["{\"protocol_pax_ios\":\"grab://open\",\"protocol_ios\":\"grab://oauth2/authorize\",\"appstore_link_ios\":\"itms-apps://x/app/1\"}"]}"#
                        .utf8)
            ).first)
        let installed = GrabRoute.decide(authorizationURL: authorize, authorizationEndpoint: endpoint, customProtocols: [grab]) { $0.scheme == "grab" }
        guard case .app(let link, nil) = installed else {
            Issue.record("expected an app route, got \(installed)")
            return
        }
        #expect(link.absoluteString.hasPrefix("grab://oauth2/authorize?"))
        let items = URLComponents(url: link, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(items.map(\.name) == ["client_id", "state", "acr_values", "auth_endpoint"])
        #expect(items.last?.value == endpoint.absoluteString)

        #expect(
            GrabRoute.decide(authorizationURL: authorize, authorizationEndpoint: endpoint, customProtocols: [grab]) { _ in false } == .appStore(URL(string: "itms-apps://x/app/1")!)
        )
        #expect(GrabRoute.decide(authorizationURL: authorize, authorizationEndpoint: endpoint, customProtocols: []) { _ in true } == .web)
        for hint in ["login_hint", "id_token_hint", "prompt"] {
            let hinted = authorize.appendingQuery([(hint, "x")])
            #expect(GrabRoute.decide(authorizationURL: hinted, authorizationEndpoint: endpoint, customProtocols: [grab]) { _ in true } == .web, "\(hint)")
        }
        #expect(throws: AuthError.self) { try GrabCustomProtocol.parse(publicInfo: Data(#"{"custom_protocols":[{"protocol_ios":"x"}]}"#.utf8)) }
    }

    // MARK: Flows

    @Test("Web login: Grab's own discovery, token parameters in the URL query with no body (as GrabApi.fetchToken), full ID token validation")
    func webLogin() async throws {
        let harness = try await harness()
        let session = try await login(harness)
        let accessToken = session.accessToken
        let idToken = session.idToken
        #expect(accessToken != nil && idToken != nil)
        #expect(await harness.transport.exchanges(pathSuffix: "/.well-known/openid-configuration").count == 1)
        let token = try #require(await harness.transport.exchanges(pathSuffix: "/token").first)
        let query = Dictionary(FormEncoding.decode(token.request.url?.query ?? ""), uniquingKeysWith: { a, _ in a })
        #expect(Set(query.keys) == ["client_id", "grant_type", "redirect_uri", "code_verifier", "code"])
        #expect(token.formParameters.isEmpty && token.request.value(forHTTPHeaderField: "Content-Type") == nil)
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

    @Test(
        "Errors in the vendor's domains and codes: no answer is serviceError / idTokenInfoServiceFailed, a token 5xx or invalid_grant exchangeTokenServiceFailed, a redirect error securityValidationFailed; application codes start at 10000"
    )
    func errorCodesAsTheVendorReportsThem() {
        #expect(AuthError(.stateMismatch, "x").grabError == GrabError(domain: .authorization, code: .securityValidationFailed))
        #expect(AuthError(.nonceMismatch, "x").grabError == GrabError(domain: .exchangeToken, code: .invalidNonce))
        #expect(AuthError(.network, "x").grabError == GrabError(domain: .exchangeToken, code: .serviceError))
        #expect(GrabError(AuthError(.network, "x"), domain: .getIdTokenInfo) == GrabError(domain: .getIdTokenInfo, code: .idTokenInfoServiceFailed))
        #expect(GrabError(AuthError(.network, "x"), domain: .serviceDiscovery).code == .grabIdServiceFailed)
        #expect(AuthError(.serverError, "x").grabError == GrabError(domain: .exchangeToken, code: .exchangeTokenServiceFailed))
        #expect(AuthError(.invalidGrant, "x", oauthError: "invalid_grant").grabError == GrabError(domain: .exchangeToken, code: .exchangeTokenServiceFailed))
        #expect(AuthError(.authorizationFailed, "x", oauthError: "access_denied").grabError == GrabError(domain: .exchangeToken, code: .securityValidationFailed))
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

/// What a migrating app sees of GrabIdPartnerSDK: its error domains and codes, routing, sessions and the vendor's own test vectors.
@Suite("Grab vendor fidelity")
struct GrabVendorFidelityTests {
    private let helper = GrabTests.Helper()

    @Test("Scope without openid is invalidScope at configuration (no nonce otherwise)")
    func scopeRequiresOpenID() throws {
        var plist = TestIdentityProvider.grabPlist
        plist["Scope"] = "profile.read"
        let error = #expect(throws: AuthError.self) { try GrabConfiguration(ProviderConfiguration(["GrabIdPartnerSDK": .object(plist)])) }
        #expect(error?.grabError == GrabError(domain: .loadConfiguration, code: .invalidScope))
        #expect(error?.configurationKey == "Scope" && error?.message.contains("openid") == true)
        #expect(throws: AuthError.self) {
            try LoginSession(clientId: "c", redirectUrl: TestIdentityProvider.grabRedirectURL, scope: "profile", serviceDiscoveryUrl: "https://x/d")
        }
    }

    @Test("Non-empty Hint, IdTokenHint, Request and device_id are sent; SERVICE:PASSENGER as the Grab SDK's README writes it")
    func parametersSent() async throws {
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

    @Test("A relaunch restores the stored session offline, and login returns it without browser or app")
    func loginReusesStoredSession() async throws {
        let clock = ManualClock()
        let idp = TestIdentityProvider.grab(clock: clock)
        let storage = InMemoryTokenStorage()
        let first = try await helper.harness(appInstalled: true, clock: clock, idp: idp, storage: storage)
        try await helper.login(first)
        #expect(await first.app.opened.count == 1)

        // Relaunch: a new SDK object over the same storage, and no network at all.
        let offline = try await helper.harness(
            appInstalled: true, clock: clock, idp: idp, storage: storage,
            wrap: { _ in
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

    @Test("An installed Grab app that does not open falls back to the web as the vendor does; to the App Store when another entry names one")
    func appFallback() async throws {
        let harness = try await helper.harness(appInstalled: true)
        await harness.app.setRefusesToOpen(true)
        let session = try await helper.login(harness)
        #expect(session.accessToken != nil)
        #expect(await harness.app.opened.first?.scheme == "grab", "the app was tried first")
        #expect(await harness.transport.exchanges.contains { $0.request.url?.path.hasSuffix("/authorize") == true }, "then the web")

        let endpoint = URL(string: "https://partner-api.grab.com/grabid/v1/oauth2/authorize")!
        let entries = [
            GrabCustomProtocol(paxProtocol: "grabdriver://open", loginProtocol: "grabdriver://oauth2", appStoreLink: "itms-apps://x/app/2"),
            GrabCustomProtocol(paxProtocol: "grab://open", loginProtocol: "grab://oauth2/authorize", appStoreLink: "itms-apps://x/app/1")
        ]
        let route = GrabRoute.decide(authorizationURL: endpoint, authorizationEndpoint: endpoint, customProtocols: entries) { $0.scheme == "grab" }
        guard case .app(_, let store) = route else {
            Issue.record("expected the app route, got \(route)")
            return
        }
        #expect(store == URL(string: "itms-apps://x/app/2"), "the App Store link of the entry not chosen, as the vendor picks it")
    }

    @Test("A client public info that cannot be fetched or decoded means the web, logged as customProtocolsService")
    func publicInfoFailureMeansWeb() async throws {
        for answer in [503, 200] {
            let harness = try await helper.harness(
                appInstalled: true,
                wrap: { base in
                    InProcessTransport().adding(host: "partner-api.grab.com") { request in
                        guard request.url?.path.hasSuffix("/public_info") == true else { return try await base.send(request) }
                        // 503: unreachable; 200 with an entry that is not a JSON string: undecodable.
                        return (
                            Data(#"{"custom_protocols":[{"protocol_ios":"grab://x"}]}"#.utf8),
                            HTTPResponse.make(status: answer)
                        )
                    }
                })
            let session = try await helper.login(harness)
            #expect(session.accessToken != nil, "HTTP \(answer)")
            #expect(await harness.app.opened.isEmpty, "HTTP \(answer): no hand-off")
            #expect(await harness.transport.exchanges.contains { $0.request.url?.path.hasSuffix("/authorize") == true })
            #expect(harness.logger.contains("customProtocolsService"), "HTTP \(answer)")
        }
    }

    @Test("device_id goes on every authorization, empty where there is no identifierForVendor, as the vendor's ?? \"\"")
    func deviceIdAlwaysSent() async throws {
        let harness = try await helper.harness()
        let authorize = try await harness.grab.authClient.prepareSignIn().url
        let query = FormEncoding.decode(authorize.query ?? "")
        #expect(query.contains { $0.0 == "device_id" && $0.1 == "" })
        _ = try await helper.login(harness)
        let sent = try #require(await harness.transport.exchanges.first { $0.request.url?.path.hasSuffix("/authorize") == true }?.request.url)
        #expect(sent.query?.contains("device_id=") == true)
    }

    @Test("A new Scope forces a new login with consent: the vendor keyed saved sessions by clientId.scope")
    func scopeChangeForcesNewLogin() async throws {
        let clock = ManualClock()
        let idp = TestIdentityProvider.grab(clock: clock)
        let storage = InMemoryTokenStorage()
        try await helper.login(try await helper.harness(clock: clock, idp: idp, storage: storage))

        // The same Scope after a relaunch: the stored session, no login.
        let same = try await helper.harness(clock: clock, idp: idp, storage: storage)
        #expect(try await same.grab.loadLoginSession().accessToken != nil)

        // An app update that asks for more: the stored token is not served; the user logs in (and consents) again.
        var plist = TestIdentityProvider.grabPlist
        plist["Scope"] = "openid profile.read payment.read"
        let updated = try await helper.harness(plist: plist, clock: clock, idp: idp, storage: storage)
        let loginSession = try await updated.grab.loadLoginSession()
        #expect(loginSession.accessToken == nil)
        try await updated.grab.login(loginSession: loginSession)
        let authorize = try #require(await updated.transport.exchanges.first { $0.request.url?.path.hasSuffix("/authorize") == true }?.request.url)
        #expect(FormEncoding.decode(authorize.query ?? "").contains { $0.0 == "scope" && $0.1 == "openid profile.read payment.read" })
        #expect(try await updated.grab.loadLoginSession().accessToken != nil, "the new Scope's session is kept")
    }

    @Test("A Grab scheme missing from LSApplicationQueriesSchemes reverts to the web login, as the Grab SDK's README says, not to the App Store")
    func unlistedSchemeFallsBackToWeb() async throws {
        let idp = TestIdentityProvider.grab(clock: ManualClock())
        let transport = RecordingTransport(idp.transport)
        let app = TestIdentityProvider.grabApp(installed: false, idp: idp)  // canOpenURL says no: unlisted, or not installed
        func grab(_ schemes: [String]?) throws -> GrabIdPartner {
            GrabIdPartner(
                configuration: try GrabConfiguration(ProviderConfiguration(["GrabIdPartnerSDK": .object(TestIdentityProvider.grabPlist)])),
                webAgent: HeadlessUserAgent(transport: transport), appHandoff: app, storage: InMemoryTokenStorage(),
                transport: transport, logger: RecordingLogger(), clock: ManualClock(), applicationQueriesSchemes: schemes)
        }
        let unlisted = try grab(["itms-apps"])
        let session = try await unlisted.login(loginSession: try await unlisted.loadLoginSession())
        #expect(session.accessToken != nil)
        #expect(await app.opened.isEmpty, "no App Store")
        #expect(await transport.exchanges.contains { $0.request.url?.path.hasSuffix("/authorize") == true }, "the web login")

        // Listed and still not openable: the app is not installed, and the vendor's App Store fallback applies.
        let listed = try grab(["grab", "grabconnect"])
        let error = await #expect(throws: GrabError.self) { try await listed.login(loginSession: try await listed.loadLoginSession()) }
        #expect(error?.grabError == GrabError(domain: .appStore, code: .launchAppStoreLink))
    }

    @Test("The hand-off times out on the injected clock with a typed error; nothing is stored; a late callback is refused")
    func timeout() async throws {
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

    @Test("Cancelling the login's task ends the wait with sign_in_cancelled")
    func cancellation() async throws {
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

    @Test("A second login supersedes the first cleanly; loginCompleted answers true after a completed login and never cancels one in progress")
    func secondLogin() async throws {
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
        #expect(harness.grab.loginCompleted(loginSession: second), "the Grab SDK README's AppDelegate: true after exchangeToken succeeded")
        let third = Task { try await harness.grab.login(loginSession: fresh) }
        try await helper.untilWaiting(harness.grab)
        #expect(harness.grab.loginCompleted(loginSession: fresh) == false, "no login completed yet")
        #expect(harness.grab.appCallbacks.isWaiting, "the hand-off still waits: loginCompleted does not cancel")
        third.cancel()
        _ = try? await third.value
    }

    @Test(
        "A new login replaces one waiting for the Grab app even when it goes to the web: it completes, the first ends superseded, and nothing of the first is stored or accepted later"
    )
    func newLoginReplacesWaitingHandoff() async throws {
        let harness = try await helper.harness(appInstalled: true)
        await harness.app.setNeverCallsBack(true)  // the user leaves the Grab app without approving
        let first = Task { try await helper.login(harness) }
        try await helper.untilWaiting(harness.grab)
        while await harness.app.opened.isEmpty { await Task.yield() }
        let deepLink = try #require(await harness.app.opened.first)
        let firstState = try #require(FormEncoding.decode(deepLink.query ?? "").first { $0.0 == "state" }?.1)

        // A login hint sends the retry to the web (the vendor never hands off with one), so no newer hand-off ends the
        // first: the new login itself does.
        let second = try await helper.login(harness, options: SignInOptions(loginHint: "+6591234567"))
        #expect(second.accessToken != nil)
        let error = await #expect(throws: GrabError.self) { try await first.value }
        #expect(error?.authError?.code == .signInSuperseded)
        #expect(error?.grabError == GrabError(domain: .authorization, code: .authorizationFailed))
        #expect(await harness.app.opened.count == 1 && !harness.grab.appCallbacks.isWaiting)

        let keys = await harness.storage.storedKeys()
        #expect(keys.count == 1)
        let key = try #require(keys.first)
        let stored = try #require(await harness.storage.credential(for: key))
        #expect(stored.accessToken == second.accessToken)
        let late = TestIdentityProvider.grabRedirectURL.appendingQuery([("code", "late"), ("state", firstState)])
        #expect(harness.grab.handleOpenUrl(late) == false, "no hand-off waits any more")
        let refused = await #expect(throws: AuthError.self) { _ = try await harness.grab.authClient.completeAuthorization(redirect: late) }
        #expect(refused?.code == .stateMismatch)
    }

    @Test("An app delegate written for exchangeToken(loginSession:url:) completes the login; a stray redirect is securityValidationFailed")
    func exchangeToken() async throws {
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

    @Test("An ID token info whose nonce is not this login's is invalidNonce in getIdTokenInfo; nothing cached")
    func nonceMismatch() async throws {
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
        #expect(await session.session?.credential.annotations?["grab.id_token_info"] == nil)
    }

    @Test("The info cache survives a relaunch through storage; an expired ID token is refused without a request")
    func infoCacheAndExpiry() async throws {
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

    @Test("Logout of a kept pre-login LoginSession clears storage; logout with nothing stored is logoutFailed")
    func logout() async throws {
        let harness = try await helper.harness()
        let loginSession = try await harness.grab.loadLoginSession()
        try await harness.grab.login(loginSession: loginSession)  // seed style: the same value before and after
        try await harness.grab.logout(loginSession: loginSession)
        #expect(await harness.storage.isEmpty && loginSession.accessToken == nil)
        let error = await #expect(throws: GrabError.self) { try await harness.grab.logout(loginSession: loginSession) }
        #expect(error?.grabError == GrabError(domain: .logout, code: .logoutFailed))
    }

    @Test("Integer domains and codes as the vendor's enums; discovery unreachable is serviceDiscovery / grabIdServiceFailed; domain from the operation")
    func vendorErrorDomainsAndCodes() async throws {
        #expect(GrabError.Domain.allCases.map(\.rawValue) == Array(0...8))
        #expect(GrabError.Domain.customProtocolsService.rawValue == 7 && GrabError.Domain.appStore.rawValue == 8)
        #expect(GrabError.Code.invalidNonce.rawValue == 8 && GrabError.Code.serviceError.rawValue == 21)
        #expect(GrabError.Code.launchAppStoreLink.rawValue == 28 && GrabError.Code.partnerAppError.rawValue == 10_000)
        let own = GrabError(code: .partnerApp(1), localizeMessage: "Booking failed", domain: .protectedResource)
        #expect(own.code.rawValue == 10_001 && own.localizeMessage == "Booking failed")

        // Discovery unreachable during login: serviceDiscovery / grabIdServiceFailed (GrabApi), the transport error underneath.
        let offline = try await helper.harness(wrap: { _ in
            InProcessTransport().adding(host: "partner-api.grab.com") { _ in throw URLError(.notConnectedToInternet) }
        })
        let network = await #expect(throws: GrabError.self) { try await helper.login(offline) }
        #expect(network?.grabError == GrabError(domain: .serviceDiscovery, code: .grabIdServiceFailed))
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
                let body =
                    #"{"acr":"[\"service:PASSENGER\"]","aud":"f795769ebe7446f38dede8fd36ee32fd","exp":2541371242,"iat":1541112042,"iss":"https://idp.grab.com","jti":"WiP03b0DRYWZTsd1IYY66g","nbf":1541112042,"pid":"59da6712-6c8b-4cb8-9a46-b2ac8a6d20d4","sub":"8206f105-7fe0-4a3e-ad3b-2b2b2d2e3d60","svc":"PASSENGER","nonce":"\#(nonce)"}"#
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

    @Test("The token request carries its parameters in the URL query as GrabApi.fetchToken sends them; the emulator refuses a form body")
    func tokenRequestCarriesParametersInQuery() async throws {
        let idp = TestIdentityProvider.grab(clock: ManualClock())
        let pkce = PKCE.generate()
        var authorize = CapturedRequest(
            url: URL(string: "https://partner-api.grab.com/grabid/v1/oauth2/authorize")!.appendingQuery([
                ("client_id", TestIdentityProvider.grabClientID), ("code_challenge", pkce.challenge), ("code_challenge_method", "S256"),
                ("device_id", ""), ("nonce", "n-1"), ("redirect_uri", TestIdentityProvider.grabRedirectURL.absoluteString),
                ("response_type", "code"), ("state", "s-1"), ("scope", "openid profile.read"), ("acr_values", "SERVICE:PASSENGER")
            ]))
        authorize.httpMethod = "GET"
        let location = try #require(await idp.handle(authorize).1.value(forHTTPHeaderField: "Location"))
        let code = try #require(URLComponents(string: location)?.queryItems?.first { $0.name == "code" }?.value)
        var token = CapturedRequest(
            url: URL(string: "https://partner-api.grab.com/grabid/v1/oauth2/token")!.appendingQuery([
                ("client_id", TestIdentityProvider.grabClientID), ("grant_type", "authorization_code"),
                ("redirect_uri", TestIdentityProvider.grabRedirectURL.absoluteString), ("code_verifier", pkce.verifier.reveal()), ("code", code)
            ]))
        token.httpMethod = "POST"
        // The same request with a form body, as the engine writes one unwrapped: refused before the code is spent.
        var form = CapturedRequest(
            method: .post, url: URL(string: "https://partner-api.grab.com/grabid/v1/oauth2/token")!,
            headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: Data(token.url!.query!.utf8))
        form.httpMethod = "POST"
        let (refusedData, refused) = await idp.handle(form)
        let refusal = try JSONValue.parseObject(refusedData)["error"]?.stringValue
        #expect(refused.statusCode == 400 && refusal == "invalid_request")
        let (data, response) = await idp.handle(token)
        #expect(response.statusCode == 200)
        #expect(try JSONValue.parseObject(data)["id_token"]?.stringValue != nil)

        // The engine itself sends a Grab token request the vendor's way (GrabProvider's behaviour), so any AuthClient
        // of GrabProvider — the web sign-in's included — works against Grab: query parameters, no body, no body type.
        let engineIDP = TestIdentityProvider.grab(clock: ManualClock())
        let recorder = RecordingTransport(engineIDP.transport)
        let client = AuthClient(
            provider: try GrabProvider(configuration: ProviderEmulator.grab().configuration), storage: InMemoryTokenStorage(),
            transport: recorder, clock: engineIDP.clock)
        _ = try await client.signIn(with: HeadlessUserAgent(transport: engineIDP.transport))
        let sent = try #require(await recorder.exchanges(pathSuffix: "/token").first)
        let query = Dictionary(FormEncoding.decode(sent.request.url?.query ?? ""), uniquingKeysWith: { a, _ in a })
        #expect(query["grant_type"] == "authorization_code" && query["code"] != nil && query["code_verifier"] != nil)
        #expect(sent.request.body == nil && sent.request.value(forHTTPHeaderField: "Content-Type") == nil)
    }

    /// A transport whose token requests fail the way URLSession's do: with an error that quotes the URL.
    private struct QuotingFailure: HTTPTransport {
        struct Failure: Error, CustomStringConvertible { let description: String }
        let base: any HTTPTransport
        func send(_ request: HTTPRequest, body: Data?, limits: HTTPRequestLimits) async throws -> (Data, HTTPResponse) {
            if request.url?.path.hasSuffix("/token") == true { throw Failure(description: "failed: \(request.url?.absoluteString ?? "")") }
            return try await base.send(request, body: body, limits: limits)
        }
    }

    @Test("Hostile: a token request that cannot reach Grab fails as network without the transport's error, whose text quotes the URL and its code; nothing is stored")
    func unreachableTokenEndpointKeepsSecretsOut() async throws {
        let idp = TestIdentityProvider.grab(clock: ManualClock())
        let storage = InMemoryTokenStorage()
        let client = AuthClient(
            provider: try GrabProvider(configuration: ProviderEmulator.grab().configuration), storage: storage,
            transport: QuotingFailure(base: idp.transport), clock: idp.clock)
        do {
            _ = try await client.signIn(with: HeadlessUserAgent(transport: idp.transport))
            Issue.record("the sign-in succeeded without a token endpoint")
        } catch let error as AuthError {
            #expect(error.code == .network)
            #expect(error.underlying == nil)
            #expect(!"\(error)".contains("code_verifier"))
        }
        #expect(await storage.storedKeys().isEmpty)
    }

    @Test("A discovery document without jwks_uri (or without issuer too) signs in through Grab's id_token_verification_endpoint, as getIdTokenInfo asks it")
    func discoveryWithoutKeysSignsInThroughVerificationEndpoint() async throws {
        for withoutIssuer in [false, true] {
            let clock = ManualClock()
            let idp = TestIdentityProvider.grab(clock: clock, discovery: .withoutJWKSURI)
            // Without an issuer the document offers nothing to compare an RFC 9207 `iss` with, and a server that names
            // none sends none.
            if withoutIssuer {
                await idp.update {
                    $0.sendsIssParameter = false
                    $0.advertisesIssParameter = false
                }
            }
            let harness = try await helper.harness(
                clock: clock, idp: idp,
                wrap: { base in
                    InProcessTransport().adding(host: "partner-api.grab.com") { request in
                        let (data, response) = try await base.send(request)
                        guard withoutIssuer, request.url?.path.hasSuffix("openid-configuration") == true,
                            var document = try? JSONValue.parseObject(data)
                        else { return (data, response) }
                        document["issuer"] = nil
                        return (try JSONValue.object(document).jsonData(), response)
                    }
                })
            let session = try await helper.login(harness)
            #expect(session.accessToken != nil && session.nonce != nil, "without issuer: \(withoutIssuer)")
            #expect(await harness.transport.exchanges(pathSuffix: "/token_info").count == 1, "Grab vouched for the ID token")
            #expect(await harness.transport.exchanges.filter { $0.request.url?.path.contains("jwks") == true }.isEmpty, "no key set")
            #expect(await harness.storage.isEmpty == false)
            // The answer is kept with the session: getIdTokenInfo needs no second request.
            _ = try await harness.grab.getIdTokenInfo(loginSession: session)
            #expect(await harness.transport.exchanges(pathSuffix: "/token_info").count == 1)
        }
    }

    @Test("An ID token whose aud is not the ClientId string still signs in through the verification endpoint instead of failing every login")
    func audienceOtherThanClientIdVerifiedByGrab() async throws {
        let harness = try await helper.harness()
        await harness.idp.update {
            $0.idTokenClaimOverrides = ["aud": "f795769ebe7446f38dede8fd36ee32fd"]  // the vendor's own fixture
            $0.tokenResponseOverrides = ["token_type": "TestTokenType"]  // any type is kept, as the vendor's
        }
        let session = try await helper.login(harness)
        #expect(session.accessToken != nil && session.tokenType == "TestTokenType")
        #expect(await harness.transport.exchanges(pathSuffix: "/token_info").count == 1)
    }

    @Test(
        "A login that fails at Grab reports the vendor's code: denial securityValidationFailed, token 5xx or invalid_grant exchangeTokenServiceFailed, no answer serviceError without the transport's error; nothing stored"
    )
    func ordinaryFailuresInVendorCodes() async throws {
        // The user refuses on Grab's page: the redirect carries error=access_denied.
        let denied = try await helper.harness()
        await denied.idp.update { $0.authorizationError = ("access_denied", "The user declined") }
        let denial = await #expect(throws: GrabError.self) { try await helper.login(denied) }
        #expect(denial?.grabError == GrabError(domain: .exchangeToken, code: .securityValidationFailed))
        #expect(denial?.authError?.oauthError == "access_denied")
        #expect(await denied.storage.isEmpty)

        // The token endpoint answers 503, or refuses the code with invalid_grant: exchangeTokenServiceFailed, as
        // GrabApi.fetchToken reports any non-2xx.
        for (status, body) in [(503, #"{"error":"temporarily_unavailable"}"#), (400, #"{"error":"invalid_grant"}"#)] {
            let failing = try await helper.harness(wrap: { base in
                InProcessTransport().adding(host: "partner-api.grab.com") { request in
                    guard request.url?.path.hasSuffix("/token") == true else { return try await base.send(request) }
                    return (Data(body.utf8), HTTPResponse.make(status: status))
                }
            })
            let error = await #expect(throws: GrabError.self, "status \(status)") { try await helper.login(failing) }
            #expect(error?.grabError == GrabError(domain: .exchangeToken, code: .exchangeTokenServiceFailed), "status \(status)")
            #expect(error?.authError?.httpStatus == status, "status \(status)")
            #expect(await failing.storage.isEmpty, "status \(status)")
        }

        // No answer from the token endpoint: serviceError, and the transport's error — whose text quotes the URL with
        // the code and verifier — is not handed on.
        let offline = try await helper.harness(wrap: { base in QuotingFailure(base: base) })
        let network = await #expect(throws: GrabError.self) { try await helper.login(offline) }
        #expect(network?.grabError == GrabError(domain: .exchangeToken, code: .serviceError))
        #expect(network?.authError?.underlying == nil && network?.serviceError == nil)
        #expect(!"\(String(describing: network))".contains("code_verifier"))
        #expect(await offline.storage.isEmpty)
    }

    @Test("An ID token whose iss is not the discovery document's still signs in through the verification endpoint, as the vendor leaves issuers to Grab")
    func issuerOtherThanDocumentVerifiedByGrab() async throws {
        let harness = try await helper.harness()
        await harness.idp.update { $0.idTokenClaimOverrides = ["iss": "https://grab-id.example/other"] }
        let session = try await helper.login(harness)
        #expect(session.accessToken != nil)
        #expect(await harness.transport.exchanges(pathSuffix: "/token_info").count == 1)
        #expect(await harness.storage.isEmpty == false)
    }

    @Test("Hostile: the verification endpoint's refusal fails the login with invalidIdToken (provider_validation_failed) and stores nothing")
    func verificationEndpointRefusalStoresNothing() async throws {
        let clock = ManualClock()
        let harness = try await helper.harness(
            clock: clock, idp: TestIdentityProvider.grab(clock: clock, discovery: .withoutJWKSURI),
            wrap: { base in
                InProcessTransport().adding(host: "partner-api.grab.com") { request in
                    guard request.url?.path.hasSuffix("/token_info") == true else { return try await base.send(request) }
                    return (Data(#"{"error":"invalid_token"}"#.utf8), HTTPResponse.make(status: 401))
                }
            })
        let error = await #expect(throws: GrabError.self) { try await helper.login(harness) }
        #expect(error?.authError?.code == .providerValidationFailed && error?.authError?.httpStatus == 401)
        #expect(error?.grabError == GrabError(domain: .exchangeToken, code: .invalidIdToken))
        #expect(await harness.storage.isEmpty)
    }
}
