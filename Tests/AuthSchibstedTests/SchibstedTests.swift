import AuthCore
import AuthEmulators
import AuthProviders
import AuthSchibsted
import AuthTesting
import Foundation
import SchibstedCompat
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Schibsted account")
struct SchibstedTests {
    private struct Harness {
        let idp: TestIdentityProvider
        let clock: ManualClock
        let transport: RecordingTransport
        let storage: InMemoryTokenStorage
        let client: SchibstedAccountClient
        var agent: HeadlessUserAgent { HeadlessUserAgent(transport: idp.transport) }
    }

    private func harness(
        environment: SchibstedEnvironment = .pre,
        clientId: String = TestIdentityProvider.schibstedClientID,
        redirectURI: URL = TestIdentityProvider.schibstedRedirectURI,
        idp existing: TestIdentityProvider? = nil,
        storage: InMemoryTokenStorage = InMemoryTokenStorage()
    ) -> Harness {
        let clock = ManualClock()
        let idp = existing ?? TestIdentityProvider.schibsted(clock: clock)
        let transport = RecordingTransport(idp.transport)
        let client = SchibstedAccountClient(
            configuration: SchibstedConfiguration(environment: environment, clientId: clientId, redirectURI: redirectURI),
            storage: storage, transport: transport, logger: RecordingLogger(), clock: idp.clock
        )
        return Harness(idp: idp, clock: clock, transport: transport, storage: storage, client: client)
    }

    private func query(_ request: AuthorizationRequest) -> [String: String] {
        Dictionary(FormEncoding.decode(request.url.query ?? ""), uniquingKeysWith: { a, _ in a })
    }

    // MARK: Configuration

    @Test("Environments map to their servers, v6 names are aliases, and the session service derives from the host")
    func environments() throws {
        #expect(SchibstedEnvironment.proCom.serverURL.absoluteString == "https://login.schibsted.com")
        #expect(SchibstedEnvironment.proFi.serverURL.absoluteString == "https://login.schibsted.fi")
        #expect(SchibstedEnvironment.proNo.serverURL.absoluteString == "https://payment.schibsted.no")
        #expect(SchibstedEnvironment.proDk.serverURL.absoluteString == "https://login.schibsted.dk")
        #expect(SchibstedEnvironment.pre.serverURL.absoluteString == "https://identity-pre.schibsted.com")
        #expect(SchibstedEnvironment(name: "sweden") == .proCom && SchibstedEnvironment(name: "norway") == .proNo)
        #expect(SchibstedEnvironment(name: "finland") == .proFi)
        #expect(SchibstedEnvironment.pre.sessionServiceURL.absoluteString == "https://session-service.identity-pre.schibsted.com")
        let custom = try SchibstedConfiguration(ProviderConfiguration(["serverURL": "https://id.example.test", "clientId": "c", "redirectURI": "com.x:/l"]))
        #expect(custom.issuer == "https://id.example.test")
    }

    @Test("Each missing or invalid key is its own clear error")
    func configurationErrors() {
        let cases: [([String: JSONValue], AuthError.Code, String)] = [
            (["clientId": "c", "redirectURI": "com.x:/l"], .missingConfigurationKey, "'environment'"),
            (["environment": "staging", "clientId": "c", "redirectURI": "com.x:/l"], .invalidConfiguration, "staging"),
            (["environment": "pre", "redirectURI": "com.x:/l"], .missingConfigurationKey, "'clientId'"),
            (["environment": "pre", "clientId": "c"], .missingConfigurationKey, "'redirectURI'")
        ]
        for (values, code, fragment) in cases {
            let error = #expect(throws: AuthError.self) { try ProviderRegistry.builtIn.provider(named: "schibsted", configuration: ProviderConfiguration(values)) }
            #expect(error?.code == code)
            #expect(error?.message.contains(fragment) == true, "\(error?.message ?? "")")
        }
    }

    // MARK: Authorization request

    @Test("Without MFA: prompt=select_account; with MFA: acr_values and no prompt — never both")
    func promptOrMFA() async throws {
        let plain = harness()
        let request = try await plain.client.getLoginSession(loginHint: "kari@example.no", extraScopeValues: ["profile"])
        let params = query(request)
        #expect(params["prompt"] == "select_account")
        #expect(params["acr_values"] == nil)
        #expect(params["scope"] == "openid offline_access profile")
        #expect(params["login_hint"] == "kari@example.no")
        #expect(request.url.path == "/oauth/authorize")

        let mfa = harness()
        let second = try await mfa.client.getLoginSession(withMFA: .otp, withSSO: false)
        #expect(query(second)["acr_values"] == "otp")
        #expect(query(second)["prompt"] == nil)
        #expect(second.prefersEphemeralSession)
        #expect(!request.prefersEphemeralSession)
    }

    @Test("Country eIDs only on pre; one login at a time")
    func countryEIDAndSingleLogin() async throws {
        let production = harness(environment: .proCom)
        let error = await #expect(throws: AuthError.self) { _ = try await production.client.getLoginSession(withMFA: .eidSE) }
        #expect(error?.code == .invalidConfiguration)

        let pre = harness()
        _ = try await pre.client.getLoginSession(withMFA: .eidSE)
        let busy = await #expect(throws: AuthError.self) { _ = try await pre.client.getLoginSession() }
        #expect(busy?.schibstedError == .login(.previousSessionInProgress))
    }

    // MARK: Callbacks

    @Test("A bankId redirect is not ours; a cancel path is a cancellation; other URLs are not handled")
    func callbacks() async throws {
        let harness = harness()
        let request = try await harness.client.getLoginSession()
        #expect(harness.client.handles(URL(string: "com.example.schibsted:/login?code=x&state=\(request.state)")!))
        #expect(!harness.client.handles(URL(string: "com.example.schibsted:/login/bankId?orderRef=1")!))
        #expect(!harness.client.handles(URL(string: "https://elsewhere.example/login?code=x")!))
        let cancel = URL(string: "com.example.schibsted:/login/cancel")!
        #expect(harness.client.handles(cancel))
        let error = await #expect(throws: AuthError.self) { _ = try await harness.client.handleAuthenticationResponse(url: cancel) }
        #expect(error?.schibstedError == .login(.canceled))
        // After a cancellation a new login may start.
        _ = try await harness.client.getLoginSession()
    }

    // MARK: Token requests

    @Test("Token requests carry X-OIDC: v1; the emulator refuses them without it")
    func xOIDCHeader() async throws {
        let harness = harness()
        _ = try await harness.client.login(with: harness.agent)
        let token = try #require(await harness.transport.exchanges(pathSuffix: "/oauth/token").first)
        #expect(token.request.value(forHTTPHeaderField: "X-OIDC") == "v1")

        var bare = CapturedRequest(url: URL(string: "https://identity-pre.schibsted.com/oauth/token")!)
        bare.httpMethod = "POST"
        bare.httpBody = Data("grant_type=refresh_token&refresh_token=x&client_id=\(TestIdentityProvider.schibstedClientID)".utf8)
        let (data, response) = await harness.idp.handle(bare)
        #expect(response.statusCode == 400)
        #expect(String(decoding: data, as: UTF8.self).contains("X-OIDC"))
    }

    @Test("One retry after a 5xx, not two")
    func retryOnce() async throws {
        let once = harness()
        await once.idp.update { $0.failingTokenRequests = 1 }
        _ = try await once.client.login(with: once.agent)
        #expect(await once.transport.exchanges(pathSuffix: "/oauth/token").count == 2)

        let twice = harness()
        await twice.idp.update { $0.failingTokenRequests = 2 }
        let error = await #expect(throws: AuthError.self) { _ = try await twice.client.login(with: twice.agent) }
        #expect(error?.code == .serverError)
        #expect(await twice.transport.exchanges(pathSuffix: "/oauth/token").count == 2)
        #expect(await twice.storage.isEmpty)
    }

    // MARK: ID token

    @Test("With MFA requested, amr must contain it (a country eID is reported as eid), else missingExpectedMFA and nothing stored")
    func mfaValidation() async throws {
        let eid = harness()
        let user = try await eid.client.login(with: eid.agent, withMFA: .eidSE)
        #expect(await user.session.idTokenClaims?.authenticationMethods == ["eid"])

        let mismatch = harness()
        await mismatch.idp.update { $0.idTokenClaimOverrides["amr"] = ["pwd"] }
        let error = await #expect(throws: AuthError.self) { _ = try await mismatch.client.login(with: mismatch.agent, withMFA: .otp) }
        #expect(error?.schibstedError == .login(.missingExpectedMFA))
        #expect(await mismatch.storage.isEmpty)
    }

    @Test("MFA matching rules")
    func mfaRules() {
        #expect(MFAType.eid.isSatisfiedForTesting(by: ["eid"]))
        #expect(!MFAType.otp.isSatisfiedForTesting(by: ["eid-se", "pwd"]))
        #expect(MFAType.eidNO.isSatisfiedForTesting(by: ["eid"]))
        #expect(!MFAType.eidNO.isSatisfiedForTesting(by: ["eid-no"]))
    }

    @Test("The issuer is compared ignoring a trailing slash (the emulator's tokens carry one); uuid and legacy user id are exposed")
    func issuerAndIdentifiers() async throws {
        let harness = harness()
        let user = try await harness.client.login(with: harness.agent)
        #expect(await user.uuid == "4d2f8c1e-0b7a-4c8e-9f3a-5e6d7c8b9a01")
        #expect(await user.userId == "12345678")
    }

    // MARK: After login

    @Test("externalId matches independently computed SHA-256 vectors")
    func externalID() {
        let client = harness().client
        #expect(client.getExternalId(pairId: "pair-8f1d2c", externalParty: "consent-partner") == "793e3d1a3bf516ea11629e28a2d2785466302eab43b4878e8f62050f1e049ce2")
        #expect(
            client.getExternalId(pairId: "pair-8f1d2c", externalParty: "consent-partner", optionalSuffix: "suffix1")
                == "c5defe05f3dd2e9165bd651650079e47518b22e6c5799c31f5538920b6e7d9e1")
        #expect(client.getExternalId(pairId: "a", externalParty: "b", optionalSuffix: "") == "6783a31eabf68ccc0660f935c0826282bdd2241f3a80a9f2d10d59aea9ebb5d8")
    }

    @Test("Profile, web session URL and one-time code use the user's token")
    func afterLogin() async throws {
        let harness = harness()
        let user = try await harness.client.login(with: harness.agent)
        let profile = try await user.fetchProfileData()
        #expect(profile.displayName == "Kari Nordmann" && profile.pairId == "pair-8f1d2c" && profile.userId == "12345678")
        let session = try await user.webSessionURL(clientId: "other-client", redirectURI: URL(string: "https://news.example/")!, state: "s1")
        #expect(session.absoluteString.hasPrefix("https://identity-pre.schibsted.com/session/oc_"))
        let code = try await user.oneTimeCode(clientId: "backend")
        #expect(code.reveal().hasPrefix("oc_"))
        let exchanges = await harness.transport.exchanges(pathSuffix: "/api/2/oauth/exchange")
        #expect(exchanges.map { $0.formParameters["type"] } == ["session", "code"])
        #expect(exchanges.first?.formParameters["state"] == "s1")
        #expect(exchanges.allSatisfy { $0.request.value(forHTTPHeaderField: "Authorization")?.hasPrefix("Bearer ") == true })
    }

    @Test("invalid_grant on refresh logs the user out and notifies observers; the last user resumes at start-up")
    func logoutAndResume() async throws {
        let harness = harness()
        let user = try await harness.client.login(with: harness.agent)
        let resumed = try #require(try await harness.client.resumeLastLoggedInUser())
        #expect(await resumed.uuid == (await user.uuid))

        let events = await user.session.events()
        await harness.idp.update { $0.tokenResponseReplacement = (400, Data(#"{"error":"invalid_grant"}"#.utf8), [:]) }
        harness.clock.advance(by: 3600)
        let request = HTTPRequest(method: .get, url: harness.idp.endpoint("/api/resource"))
        let error = await #expect(throws: AuthError.self) { _ = try await user.send(request) }
        #expect(error?.schibstedError == .refresh(.refreshRequestFailed))
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next()?.kind == .signedOut(.refreshTokenRejected))
        #expect(try await harness.client.resumeLastLoggedInUser() == nil)
    }

    @Test("Simplified login: the newest session of the vendor's other app (on this package) is offered and continued with an assertion")
    func simplifiedLogin() async throws {
        let shared = InMemoryTokenStorage()
        let news = harness(clientId: TestIdentityProvider.schibstedSecondClientID, redirectURI: URL(string: "com.example.news:/login")!, storage: shared)
        _ = try await news.client.login(with: news.agent)
        let newsKey = try #require(await shared.storedKeys().first)
        let newsToken = try #require(await shared.credential(for: newsKey)).accessToken.reveal()

        let app = harness(idp: news.idp)
        let manager = SimplifiedLoginManager(client: app.client, sharedStorage: shared)
        let offered = try #require(try await manager.latestSharedAccount())
        #expect(offered.clientId == TestIdentityProvider.schibstedSecondClientID && !offered.writtenByVendorSDK)
        let user = try await manager.continueAs(offered, with: app.agent)
        #expect(await user.uuid == "4d2f8c1e-0b7a-4c8e-9f3a-5e6d7c8b9a01")
        let assertion = try #require(await app.transport.exchanges(pathSuffix: "/api/2/user/auth/token").first)
        #expect(assertion.request.httpMethod == "POST")
        #expect(assertion.request.value(forHTTPHeaderField: "Authorization") == "Bearer \(newsToken)")
        #expect(await app.storage.storedKeys().first?.clientID == TestIdentityProvider.schibstedClientID)
    }

    @Test("Registered as schibsted; familiar error names")
    func registryAndErrors() throws {
        #expect(try ProviderRegistry.builtIn.provider(named: "schibsted", configuration: ProviderEmulator.schibsted().configuration) is SchibstedProvider)
        #expect(AuthError(.stateMismatch, "x").schibstedError == .login(.unsolicitedResponse))
        #expect(AuthError(.authorizationFailed, "x").schibstedError == .login(.authenticationErrorResponse))
        #expect(AuthError(.invalidSignature, "x").schibstedError == .idToken(.invalidSignature))
        #expect(AuthError(.nonceMismatch, "x").schibstedError == .idToken(.invalidNonce))
        #expect(AuthError(.tokenExpired, "x").schibstedError == .idToken(.expired))
        #expect(AuthError(.notSignedIn, "x").schibstedError == .refresh(.noRefreshToken))
    }
}

extension MFAType {
    func isSatisfiedForTesting(by amr: [String]) -> Bool {
        // Drive the real rule through the provider's validation hook.
        let provider = SchibstedProvider(configuration: SchibstedConfiguration(environment: .pre, clientId: "c", redirectURI: URL(string: "com.x:/l")!))
        let metadata = ProviderMetadata(
            issuer: "https://identity-pre.schibsted.com", authorizationEndpoint: URL(string: "https://x/a")!, tokenEndpoint: URL(string: "https://x/t")!)
        let request = SignInContext(options: SignInOptions(acrValues: [rawValue]), metadata: metadata, scopes: ["openid"], redirectURI: URL(string: "com.x:/l")!)
        let claims = try? IDTokenClaims(["iss": "i", "sub": "s", "aud": "c", "exp": 2, "iat": 1, "amr": .array(amr.map(JSONValue.string))])
        return (try? provider.validate(SignInResult(tokens: TokenResponse(accessToken: Secret("a")), idTokenClaims: claims), for: request)) != nil
    }
}

@Suite("SchibstedProvider conformance")
struct SchibstedProviderConformanceTests {
    @Test("Passes the provider conformance suite against its emulator")
    func conformance() async throws {
        let report = try await ProviderConformance.check(SchibstedProvider.self, emulator: .schibsted(clock: ManualClock()))
        #expect(report.passed.contains("PKCE S256") && report.passed.contains("replayed redirect refused"))
        #expect(report.passed.contains("sign-out clears storage") && report.passed.contains("no secrets logged"))
    }
}

@Suite("Schibsted token responses as the vendor accepts them")
struct SchibstedTokenResponseTests {
    @Test("A token response without token_type is accepted (the vendor SDK does), as Bearer")
    func missingTokenType() async throws {
        let idp = TestIdentityProvider.schibsted(clock: ManualClock())
        let host = try #require(SchibstedEnvironment.pre.serverURL.host)
        let transport = InProcessTransport().adding(host: host) { request in
            let (data, response) = try await idp.transport.send(request)
            guard request.url?.path.hasSuffix("/oauth/token") == true, var body = try? JSONValue.parseObject(data) else { return (data, response) }
            body["token_type"] = nil
            return (try JSONValue.object(body).jsonData(), response)
        }
        let client = SchibstedAccountClient(
            configuration: SchibstedConfiguration(
                environment: .pre, clientId: TestIdentityProvider.schibstedClientID,
                redirectURI: TestIdentityProvider.schibstedRedirectURI),
            storage: InMemoryTokenStorage(), transport: transport, logger: RecordingLogger(), clock: idp.clock)
        let request = try await client.getLoginSession(withMFA: nil, withSSO: true)
        let user = try await client.handleAuthenticationResponse(url: try await HeadlessUserAgent(transport: idp.transport).authorize(request))
        #expect(await user.session.credential.tokenType == "Bearer")
    }
}

@Suite("Schibsted issuer form in the RFC 9207 iss parameter")
struct SchibstedIssuerParameterTests {
    @Test("An iss parameter with a trailing slash is accepted for Schibsted (its policy), another issuer never")
    func trailingSlash() async throws {
        let idp = TestIdentityProvider.schibsted(clock: ManualClock())
        let client = SchibstedAccountClient(
            configuration: SchibstedConfiguration(
                environment: .pre, clientId: TestIdentityProvider.schibstedClientID,
                redirectURI: TestIdentityProvider.schibstedRedirectURI),
            storage: InMemoryTokenStorage(), transport: idp.transport, logger: RecordingLogger(), clock: idp.clock)
        let issuer = SchibstedEnvironment.pre.serverURL.absoluteString
        await idp.update { $0.authorizationResponseOverrides["iss"] = issuer + "/" }
        let request = try await client.getLoginSession(withMFA: nil, withSSO: true)
        let user = try await client.handleAuthenticationResponse(url: try await HeadlessUserAgent(transport: idp.transport).authorize(request))
        #expect(await user.session.isSignedIn)

        await idp.update { $0.authorizationResponseOverrides["iss"] = "https://evil.example.com/" }
        let forged = try await client.getLoginSession(withMFA: nil, withSSO: true)
        let error = await #expect(throws: AuthError.self) {
            _ = try await client.handleAuthenticationResponse(url: try await HeadlessUserAgent(transport: idp.transport).authorize(forged))
        }
        #expect(error?.code == .issuerParameterMismatch)
    }

    /// A web session that stays open until it is closed (its task cancelled).
    actor StallingWebSession: UserAgent {
        private(set) var opened = false
        private(set) var closed = false
        func authorize(_ request: AuthorizationRequest) async throws -> URL {
            opened = true
            while !Task.isCancelled { await Task.yield() }
            closed = true
            throw AuthError(.userCancelled, "closed")
        }
    }

    @Test("cancelLoginSession closes the web session login(with:) opened, as the vendor's cancel does; the login ends user_cancelled and nothing is stored")
    func cancelClosesWebSession() async throws {
        let idp = TestIdentityProvider.schibsted(clock: ManualClock())
        let storage = InMemoryTokenStorage()
        let client = SchibstedAccountClient(
            configuration: SchibstedConfiguration(environment: .pre, clientId: TestIdentityProvider.schibstedClientID, redirectURI: TestIdentityProvider.schibstedRedirectURI),
            storage: storage, transport: idp.transport, clock: idp.clock
        )
        let webSession = StallingWebSession()
        let login = Task { try await client.login(with: webSession) }
        for _ in 0..<100_000 where !(await webSession.opened) { await Task.yield() }
        #expect(await webSession.opened)
        await client.cancelLoginSession()
        if case .success = await login.result { Issue.record("the cancelled login succeeded") }
        #expect(await webSession.closed, "the sheet was closed")
        #expect(await storage.storedKeys().isEmpty)
        // A new login starts at once (no sign_in_in_progress): nothing of the cancelled one is left pending.
        let second = StallingWebSession()
        let again = Task { try await client.login(with: second) }
        for _ in 0..<100_000 where !(await second.opened) { await Task.yield() }
        #expect(await second.opened)
        again.cancel()
        _ = await again.result
        #expect(await second.closed, "cancelling the calling task closes the web session too")
    }
}
