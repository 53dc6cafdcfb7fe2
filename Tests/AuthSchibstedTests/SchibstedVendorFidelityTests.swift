import AuthAppSupport
import AuthCore
import AuthEmulators
import AuthFileStorage
import AuthSchibsted
import AuthTesting
import Foundation
import SchibstedCompat
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// SchibstedCompat against account-sdk-ios-web (5.x and 6.x): each test pins one behaviour of the vendor SDK (or a
/// documented difference from it) and is named by that behaviour, with the vendor's own test vectors where it has them.
@Suite("Schibsted, faithful to account-sdk-ios-web")
struct SchibstedVendorFidelityTests {
    /// The app under test: the emulated client id on `pre`, never the machine's real Keychain.
    private func client(
        _ idp: TestIdentityProvider,
        appIdentifierPrefix: String? = nil,
        tracker: (any TrackingEventsHandler)? = nil,
        storage: any TokenStorage = InMemoryTokenStorage(),
        vendorStore: (any VendorStore)? = nil,
        transport: (any HTTPTransport)? = nil
    ) -> SchibstedAccountClient {
        SchibstedAccountClient(
            configuration: SchibstedConfiguration(
                environment: .pre, clientId: TestIdentityProvider.schibstedClientID,
                redirectURI: TestIdentityProvider.schibstedRedirectURI),
            appIdentifierPrefix: appIdentifierPrefix, tracker: tracker, storage: storage, vendorStore: vendorStore,
            transport: transport ?? idp.transport, logger: RecordingLogger(), clock: idp.clock)
    }

    /// The query parameters of an authorization request.
    private func parameters(_ url: URL?) -> [String: String] {
        Dictionary(FormEncoding.decode(url?.query ?? ""), uniquingKeysWith: { a, _ in a })
    }

    @Test(
        "N5: the shared vendor-format item's updatedAt is when this app obtained its tokens (as both vendor SDKs stamp it); a later resume or isLoggedIn does not restamp it, so opening the app never puts its account first in other apps"
    )
    func sharedItemStampedOnlyWhenTokensChange() async throws {
        let clock = ManualClock()
        let idp = TestIdentityProvider.schibsted(clock: clock)
        let store = InMemoryVendorStore()
        let storage = InMemoryTokenStorage()
        let app = client(idp, appIdentifierPrefix: "ABCDE12345", storage: storage, vendorStore: store)
        let user = try await app.login(with: HeadlessUserAgent(transport: idp.transport))
        func stamp() async throws -> Date {
            try SDK6UserSession.decode(try #require(await store.genericPassword(service: "com.schibsted.account", account: TestIdentityProvider.schibstedClientID))).updatedAt
        }
        let signedIn = try await stamp()
        #expect(abs(signedIn.timeIntervalSince(await user.session.credential.updatedAt)) < 0.001)
        clock.advance(by: 600)
        #expect(try await app.resumeLastLoggedInUser() != nil)
        #expect(await app.isLoggedIn)
        #expect(try await stamp() == signedIn, "restamped by a resume")
    }

    // MARK: MFA checked against amr

    @Test("The vendor's AMR vectors — eid-se with amr [eid] accepted, with [eid-se] refused, otp without amr refused")
    func amrVectors() {
        // IdTokenValidator.swift 6.x :124-139 and 5.1.3 :71-73.
        #expect(MFAType.eidSE.isSatisfiedForTesting(by: ["eid"]))
        #expect(!MFAType.eidSE.isSatisfiedForTesting(by: ["eid-se"]))
        #expect(!MFAType.otp.isSatisfiedForTesting(by: []))
        #expect(MFAType.otp.isSatisfiedForTesting(by: ["otp"]))
        for country in [MFAType.eidDK, .eidFI, .eidNO, .eidSE] {
            #expect(country.isSatisfiedForTesting(by: ["pwd", "eid"]), "\(country)")
        }
    }

    @Test("The emulator reports a country eID as eid, as the real server; a login asking for eid-dk succeeds")
    func emulatorReportsEID() async throws {
        let idp = TestIdentityProvider.schibsted(clock: ManualClock())
        let client = client(idp)
        let user = try await client.login(with: HeadlessUserAgent(transport: idp.transport), withMFA: .eidDK)
        #expect(await user.session.idTokenClaims?.authenticationMethods == ["eid"])
    }

    // MARK: The ID token's issuer with a trailing slash

    @Test("The emulator's issuer ends in /, as the real server's; sign-in and a refresh that brings a new ID token both accept it")
    func refreshWithTrailingSlashIssuer() async throws {
        let idp = TestIdentityProvider.schibsted(clock: ManualClock())
        #expect(idp.configuration.issuer.absoluteString == "https://identity-pre.schibsted.com/")
        let storage = InMemoryTokenStorage()
        let client = client(idp, storage: storage)
        let user = try await client.login(with: HeadlessUserAgent(transport: idp.transport))
        #expect(await user.session.idTokenClaims?.issuer == "https://identity-pre.schibsted.com/")
        let before = await user.session.credential
        let refreshed = try await user.session.refresh()
        #expect(refreshed.accessToken != before.accessToken)
        #expect(refreshed.idToken != nil && refreshed.idToken != before.idToken)
        // Stored under the configured issuer, so the next start finds it.
        #expect(await storage.storedKeys().map(\.issuer) == ["https://identity-pre.schibsted.com"])
        #expect(try await client.resumeLastLoggedInUser() != nil)
    }

    // MARK: Simplified login: the assertion and the shared keychain

    /// The news app (another client of the vendor) logs in; its session is written as account-sdk-ios-web writes it.
    private func newsAppOnVendorSDK(_ idp: TestIdentityProvider, format: VendorFormat) async throws -> (InMemoryVendorStore, Credential) {
        let newsStorage = InMemoryTokenStorage()
        let news = SchibstedAccountClient(
            configuration: SchibstedConfiguration(
                environment: .pre, clientId: TestIdentityProvider.schibstedSecondClientID,
                redirectURI: URL(string: "com.example.news:/login")!),
            storage: newsStorage, vendorStore: nil, transport: idp.transport, logger: RecordingLogger(), clock: idp.clock)
        _ = try await news.login(with: HeadlessUserAgent(transport: idp.transport))
        let key = try #require(await newsStorage.storedKeys().first)
        let credential = try #require(await newsStorage.credential(for: key))
        let store = InMemoryVendorStore()
        await store.setGenericPassword(
            format.json(credential, clientID: TestIdentityProvider.schibstedSecondClientID, now: idp.clock.now()),
            service: "com.schibsted.account", account: TestIdentityProvider.schibstedSecondClientID)
        return (store, credential)
    }

    @Test(
        "Simplified login end to end — a vendor-SDK app's session in the shared keychain, POST /api/2/user/auth/token with its bearer, assertion + prompt=select_account",
        arguments: [VendorFormat.v6, .v5])
    func simplifiedLoginFromVendorSDKApp(format: VendorFormat) async throws {
        let idp = TestIdentityProvider.schibsted(clock: ManualClock())
        let (vendorStore, news) = try await newsAppOnVendorSDK(idp, format: format)
        let transport = RecordingTransport(idp.transport)
        let storage = InMemoryTokenStorage()
        let tracker = RecordingTracker()
        let app = client(idp, appIdentifierPrefix: "ABCDE12345", tracker: tracker, storage: storage, vendorStore: vendorStore, transport: transport)
        let manager = SimplifiedLoginManager(client: app, env: .pre, sharedStorage: InMemoryTokenStorage())
        let offered = try #require(try await manager.latestSharedAccount())
        #expect(offered.writtenByVendorSDK && offered.clientId == TestIdentityProvider.schibstedSecondClientID)
        #expect(offered.uuid == news.subject)

        // The other app's tokens never reach a log line through the account.
        var dumped = ""
        dump(offered, to: &dumped)
        for text in [dumped, String(describing: offered), String(reflecting: offered)] {
            #expect(!text.contains(news.accessToken.reveal()) && !text.contains(news.refreshToken?.reveal() ?? "\u{0}"))
        }
        let user = try await manager.continueAs(offered, with: HeadlessUserAgent(transport: transport))
        #expect(await user.uuid == news.subject)
        let assertionCall = try #require(await transport.exchanges(pathSuffix: "/api/2/user/auth/token").first)
        #expect(assertionCall.request.httpMethod == "POST")
        #expect(assertionCall.request.url?.absoluteString == "https://identity-pre.schibsted.com/api/2/user/auth/token")
        #expect(assertionCall.request.value(forHTTPHeaderField: "Authorization") == "Bearer \(news.accessToken.reveal())")
        let authorizeURL = try #require(await transport.exchanges(pathSuffix: "/oauth/authorize").last?.request.url)
        let authorize = parameters(authorizeURL)
        #expect(authorize["assertion"]?.hasPrefix("as_") == true)
        #expect(authorize["prompt"] == "select_account" && authorize["acr_values"] == nil)
        #expect(await storage.storedKeys().map(\.clientID) == [TestIdentityProvider.schibstedClientID])
        let tracked = await tracker.events
        #expect(tracked.contains(.simplifiedLoginOffered) && tracked.contains(.simplifiedLoginContinued))
        // The other app's item is left as it was.
        #expect(await vendorStore.genericPassword(service: "com.schibsted.account", account: TestIdentityProvider.schibstedSecondClientID) != nil)
    }

    @Test(
        "An expired shared token fails simplified login as the vendor SDK does: no refresh with another app's token, the owner's item untouched", arguments: [VendorFormat.v6, .v5])
    func expiredSharedTokenFailsWithoutRefresh(format: VendorFormat) async throws {
        // SchibstedAuthenticator.assertionForSimplifiedLogin (6.x) asks with a plain URL session: "we do not want to
        // attempt a token refresh with a refresh token from another app".
        let clock = ManualClock()
        let idp = TestIdentityProvider.schibsted(clock: clock)
        let (vendorStore, _) = try await newsAppOnVendorSDK(idp, format: format)
        let before = try #require(await vendorStore.genericPassword(service: "com.schibsted.account", account: TestIdentityProvider.schibstedSecondClientID))
        clock.advance(by: 7200)
        let transport = RecordingTransport(idp.transport)
        let storage = InMemoryTokenStorage()
        let app = client(idp, storage: storage, vendorStore: vendorStore, transport: transport)
        let manager = SimplifiedLoginManager(client: app, sharedStorage: InMemoryTokenStorage())
        let error = await #expect(throws: AuthError.self) {
            _ = try await manager.requestSimplifiedLogin(with: HeadlessUserAgent(transport: transport))
        }
        #expect(error?.code == .httpError && error?.httpStatus == 401)

        #expect(await transport.exchanges(pathSuffix: "/api/2/user/auth/token").map(\.status) == [401])
        #expect(await transport.exchanges(pathSuffix: "/oauth/token").isEmpty)
        #expect(await transport.exchanges(pathSuffix: "/oauth/authorize").isEmpty)
        // The owner's item is byte for byte what it wrote, and this app stored nothing.
        #expect(await vendorStore.genericPassword(service: "com.schibsted.account", account: TestIdentityProvider.schibstedSecondClientID) == before)
        #expect(await storage.storedKeys().isEmpty)
    }

    @Test("The emulator refuses an exchange code as an assertion, and an assertion twice")
    func emulatorRefusesShortcut() async throws {
        let idp = TestIdentityProvider.schibsted(clock: ManualClock())
        let client = client(idp)
        let user = try await client.login(with: HeadlessUserAgent(transport: idp.transport))
        let code = try await user.oneTimeCode(clientId: TestIdentityProvider.schibstedClientID)
        for assertion in [code.reveal(), "as_forged"] {
            let request = try await client.authClient.prepareSignIn(options: SignInOptions(additionalParameters: ["assertion": assertion]))
            let error = await #expect(throws: AuthError.self) {
                _ = try await client.authClient.completeSignIn(redirect: try await HeadlessUserAgent(transport: idp.transport).authorize(request))
            }
            #expect(error?.code == .authorizationFailed, "\(assertion)")
        }
    }

    @Test(
        "An assertion endpoint answering an error, garbage or no assertion is a specific error, and nothing is stored",
        arguments: [
            (500, #"{"error":"server_error"}"#, "http_error"),
            (200, "<html>not json</html>", "invalid_response"),
            (200, #"{"data":{"code":"oc_123"}}"#, "invalid_response"),
            (200, #"{"data":{"assertion":""}}"#, "invalid_response")
        ])
    func hostileAssertionEndpoint(status: Int, body: String, code: String) async throws {
        let idp = TestIdentityProvider.schibsted(clock: ManualClock())
        let (vendorStore, _) = try await newsAppOnVendorSDK(idp, format: .v6)
        let host = try #require(SchibstedEnvironment.pre.serverURL.host)
        let hostile = InProcessTransport().adding(host: host) { request in
            guard request.url?.path == "/api/2/user/auth/token" else { return try await idp.transport.send(request) }
            let response = HTTPResponse.make(status: status, headers: ["Content-Type": "application/json"])
            return (Data(body.utf8), response)
        }
        let storage = InMemoryTokenStorage()
        let app = client(idp, storage: storage, vendorStore: vendorStore, transport: hostile)
        let manager = SimplifiedLoginManager(client: app, sharedStorage: InMemoryTokenStorage())
        let error = await #expect(throws: AuthError.self) { _ = try await manager.requestSimplifiedLogin(with: HeadlessUserAgent(transport: idp.transport)) }
        #expect(error?.code.rawValue == code)
        #expect(await storage.isEmpty)
        // No login was left pending by the failure.
        _ = try await app.getLoginSession()
    }

    @Test("Simplified login keeps the one-login-at-a-time rule")
    func simplifiedLoginRespectsLock() async throws {
        let idp = TestIdentityProvider.schibsted(clock: ManualClock())
        let (vendorStore, _) = try await newsAppOnVendorSDK(idp, format: .v6)
        let app = client(idp, vendorStore: vendorStore)
        _ = try await app.getLoginSession()
        let manager = SimplifiedLoginManager(client: app, sharedStorage: InMemoryTokenStorage())
        let offered = try #require(try await manager.latestSharedAccount())
        let error = await #expect(throws: AuthError.self) { _ = try await manager.continueAs(offered, with: HeadlessUserAgent(transport: idp.transport)) }
        #expect(error?.schibstedError == .login(.previousSessionInProgress))
        let wrongEnvironment = SimplifiedLoginManager(client: app, env: .proCom)
        let envError = await #expect(throws: AuthError.self) { _ = try await wrongEnvironment.latestSharedAccount() }
        #expect(envError?.code == .invalidConfiguration)
    }

    /// Records the authorization requests it is shown, then browses like `HeadlessUserAgent`.
    private actor RecordingUserAgent: UserAgent {
        private let browser: HeadlessUserAgent
        private(set) var requests: [AuthorizationRequest] = []
        init(transport: any HTTPTransport) { browser = HeadlessUserAgent(transport: transport) }
        func authorize(_ request: AuthorizationRequest) async throws -> URL {
            requests.append(request)
            return try await browser.authorize(request)
        }
    }

    @Test(
        "Continue-as sends x_domain_id (a new UUID per login, as SDK 6, or the manager's) and the manager's state and extra scopes, ephemeral unless withSSO: true (as SDK 6); the other-account login adds withMFA and loginHint"
    )
    func simplifiedLoginOptions() async throws {
        let idp = TestIdentityProvider.schibsted(clock: ManualClock())
        let (vendorStore, news) = try await newsAppOnVendorSDK(idp, format: .v6)

        // Defaults: a fresh x_domain_id for each continue-as login, an ephemeral web session (SDK 6
        // SimplifiedLoginViewModel.continueAs: prefersEphemeralWebBrowserSession: true), no extra scopes, no MFA, no hint.
        let plainAgent = RecordingUserAgent(transport: idp.transport)
        let plainApp = client(idp, vendorStore: vendorStore)
        let plain = SimplifiedLoginManager(client: plainApp, sharedStorage: InMemoryTokenStorage())
        for _ in 0..<2 {
            let account = try #require(try await plain.latestSharedAccount())
            #expect(try await plain.continueAs(account, with: plainAgent).uuid == news.subject)
        }
        let plainRequests = await plainAgent.requests
        try #require(plainRequests.count == 2)
        let domainIds = plainRequests.map { parameters($0.url)["x_domain_id"] }
        #expect(domainIds.allSatisfy { $0.flatMap(UUID.init(uuidString:)) != nil })
        #expect(domainIds[0] != domainIds[1])
        for request in plainRequests {
            let query = parameters(request.url)
            #expect(Set(query["scope"]?.split(separator: " ").map(String.init) ?? []) == ["openid", "offline_access"])
            #expect(query["acr_values"] == nil && query["login_hint"] == nil && query["prompt"] == "select_account")
            #expect(request.prefersEphemeralSession)
        }
        // The other-account login keeps the vendor's withSSO: true default; withSSO: true opts continue-as into SSO (SDK 5).
        _ = try await plain.loginWithAnotherAccount(with: plainAgent)
        #expect(await plainAgent.requests.last?.prefersEphemeralSession == false)
        let sso = SimplifiedLoginManager(client: plainApp, withSSO: true, sharedStorage: InMemoryTokenStorage())
        #expect(try await sso.continueAs(try #require(try await sso.latestSharedAccount()), with: plainAgent).uuid == news.subject)
        #expect(await plainAgent.requests.last?.prefersEphemeralSession == false)

        // The vendor manager's options.
        let xDomainId = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!
        let state = "simplified-login-state-0123456789"
        let agent = RecordingUserAgent(transport: idp.transport)
        let storage = InMemoryTokenStorage()
        let app = client(idp, storage: storage, vendorStore: vendorStore)
        let manager = SimplifiedLoginManager(
            client: app, withMFA: .otp, state: state, loginHint: "kari@example.no", xDomainId: xDomainId,
            extraScopeValues: ["profile"], withSSO: false, sharedStorage: InMemoryTokenStorage())
        let account = try #require(try await manager.latestSharedAccount())
        #expect(try await manager.continueAs(account, with: agent).uuid == news.subject)
        let continued = try #require(await agent.requests.last)
        let query = parameters(continued.url)
        #expect(query["x_domain_id"] == xDomainId.uuidString && query["state"] == state && continued.state == state)
        #expect(Set(query["scope"]?.split(separator: " ").map(String.init) ?? []) == ["openid", "offline_access", "profile"])
        #expect(query["assertion"] != nil && query["prompt"] == "select_account")
        #expect(query["acr_values"] == nil && query["login_hint"] == nil)
        #expect(continued.prefersEphemeralSession)
        #expect(await storage.storedKeys().count == 1)

        // The state was the manager's one login: a second one is refused before the browser opens.
        let reused = await #expect(throws: AuthError.self) { _ = try await manager.continueAs(account, with: agent) }
        #expect(reused?.code == .invalidConfiguration)
        #expect(await agent.requests.count == 1)

        // Beside "Continue as": a normal login with every option.
        let other = SimplifiedLoginManager(
            client: app, withMFA: .otp, loginHint: "kari@example.no", xDomainId: xDomainId, extraScopeValues: ["profile"],
            withSSO: false, sharedStorage: InMemoryTokenStorage())
        _ = try await other.loginWithAnotherAccount(with: agent)
        let normal = try #require(await agent.requests.last)
        let normalQuery = parameters(normal.url)
        #expect(normalQuery["acr_values"] == "otp" && normalQuery["prompt"] == nil && normalQuery["assertion"] == nil)
        #expect(normalQuery["login_hint"] == "kari@example.no" && normalQuery["x_domain_id"] == xDomainId.uuidString)
        #expect(normal.prefersEphemeralSession)
    }

    @Test(
        "requestSimplifiedLogin(with:) does not ask the user (unlike the vendor's, which only shows the sheet): it logs in as the newest shared account at once, or returns nil and stores nothing"
    )
    func requestSimplifiedLoginLogsInAtOnce() async throws {
        let idp = TestIdentityProvider.schibsted(clock: ManualClock())
        let nobody = InMemoryTokenStorage()
        let empty = SimplifiedLoginManager(client: client(idp, storage: nobody), sharedStorage: InMemoryTokenStorage())
        #expect(try await empty.requestSimplifiedLogin(with: HeadlessUserAgent(transport: idp.transport)) == nil)
        #expect(await nobody.isEmpty)

        let (vendorStore, news) = try await newsAppOnVendorSDK(idp, format: .v6)
        let agent = RecordingUserAgent(transport: idp.transport)
        let storage = InMemoryTokenStorage()
        let manager = SimplifiedLoginManager(client: client(idp, storage: storage, vendorStore: vendorStore), sharedStorage: InMemoryTokenStorage())
        let user = try #require(try await manager.requestSimplifiedLogin(with: agent))
        #expect(await user.uuid == news.subject)
        let requests = await agent.requests
        #expect(requests.count == 1 && parameters(requests.first?.url)["assertion"] != nil)
        let subject = try #require(news.subject)
        #expect(await storage.storedKeys().map(\.account) == [subject])
    }

    @Test("Sessions of another environment, and unreadable items, are never offered")
    func onlyThisEnvironment() async throws {
        let store = InMemoryVendorStore()
        await store.setGenericPassword(
            Data(
                #"{"userTokens":{"accessToken":"a","refreshToken":"r","idTokenClaims":{"iss":"https://login.schibsted.com/","sub":"u","legacy_user_id":"1","aud":["c"],"exp":1}},"updatedAt":800000000}"#
                    .utf8), service: "com.schibsted.account", account: "c")
        await store.setGenericPassword(Data("not json".utf8), service: "com.schibsted.account", account: "d")
        let idp = TestIdentityProvider.schibsted(clock: ManualClock())
        let app = client(idp, vendorStore: store)
        #expect(try await SimplifiedLoginManager(client: app).latestSharedAccount() == nil)
    }

    // MARK: The vendor SDK's own stored session is adopted

    @Test("The session account-sdk-ios-web stored for this client id is moved into storage at resume, once, and works", arguments: [VendorFormat.v6, .v5])
    func vendorSessionAdopted(format: VendorFormat) async throws {
        let idp = TestIdentityProvider.schibsted(clock: ManualClock())
        // Tokens the vendor SDK obtained for this very client, stored in its format.
        let earlier = InMemoryTokenStorage()
        _ = try await client(idp, storage: earlier).login(with: HeadlessUserAgent(transport: idp.transport))
        let credential = try #require(await earlier.credential(for: earlier.storedKeys()[0]))
        let store = InMemoryVendorStore()
        await store.setGenericPassword(
            format.json(credential, clientID: TestIdentityProvider.schibstedClientID, now: idp.clock.now()),
            service: "com.schibsted.account", account: TestIdentityProvider.schibstedClientID)

        let storage = InMemoryTokenStorage()
        let app = client(idp, storage: storage, vendorStore: store)
        let user = try #require(try await app.resumeLastLoggedInUser())
        #expect(await user.uuid == credential.subject)
        #expect(await user.userId == "12345678")
        #expect(await store.isEmpty)
        #expect(await storage.storedKeys().map(\.issuer) == ["https://identity-pre.schibsted.com"])
        let profile = try await user.fetchProfileData()
        #expect(profile.uuid == credential.subject)
    }

    @Test(
        "An unreadable vendor item is left in place and nothing is stored",
        arguments: [
            #"{"userTokens":{"accessToken":""}}"#,
            #"{"userTokens":{"accessToken":"a","refreshToken":"r","idTokenClaims":{"iss":"https://identity-pre.schibsted.com/","sub":"u"}},"updatedAt":1e300}"#,
            #"{"userTokens":{"accessToken":"a","refreshToken":"r","idTokenClaims":{"iss":"https://identity-pre.schibsted.com/","sub":"u"},"expiration":-1e300},"updatedAt":800000000}"#,
            #"{"userTokens":{"accessToken":"a","idTokenClaims":{"sub":"u"}},"updatedAt":800000000}"#,
            #"[1,2,3]"#
        ])
    func unreadableVendorItem(item: String) async throws {
        let idp = TestIdentityProvider.schibsted(clock: ManualClock())
        let store = InMemoryVendorStore()
        await store.setGenericPassword(Data(item.utf8), service: "com.schibsted.account", account: TestIdentityProvider.schibstedClientID)
        let storage = InMemoryTokenStorage()
        let app = client(idp, storage: storage, vendorStore: store)
        #expect(try await app.resumeLastLoggedInUser() == nil)
        let (vendorLeft, nothingStored) = (await !store.isEmpty, await storage.isEmpty)
        #expect(vendorLeft && nothingStored)
    }

    // MARK: The manual custom-scheme flow

    @Test("Dismissing the sheet (cancelLoginSession) ends the pending login at once; its state can never be used")
    func cancelClearsPending() async throws {
        let idp = TestIdentityProvider.schibsted(clock: ManualClock())
        let tracker = RecordingTracker()
        let client = client(idp, tracker: tracker)
        let abandoned = try await client.getLoginSession()
        let callback = try await HeadlessUserAgent(transport: idp.transport).authorize(abandoned)
        await client.cancelLoginSession()
        // A new login starts at once (no 600 s lock) …
        let next = try await client.getLoginSession()
        // … and the abandoned request's callback is refused.
        let error = await #expect(throws: AuthError.self) { _ = try await client.handleAuthenticationResponse(url: callback) }
        #expect(error?.schibstedError == .login(.unsolicitedResponse))
        _ = try await client.handleAuthenticationResponse(url: try await HeadlessUserAgent(transport: idp.transport).authorize(next))
        #expect(await tracker.events.contains(.loginCancelled))
    }

    @Test("A browser that fails or is dismissed in login(with:) leaves no pending login")
    func dismissedBrowser() async throws {
        let idp = TestIdentityProvider.schibsted(clock: ManualClock())
        let client = client(idp)
        let error = await #expect(throws: AuthError.self) { _ = try await client.login(with: DismissedSheet()) }
        #expect(error?.code == .userCancelled)
        _ = try await client.login(with: HeadlessUserAgent(transport: idp.transport))
    }

    @Test("The vendor SDK's BankID redirect {scheme}:/bankId is not handled and leaves the login pending; cancel is checked after the URL-is-ours check")
    func bankIDAndCancelOrder() async throws {
        let idp = TestIdentityProvider.schibsted(clock: ManualClock())
        let client = client(idp)
        let request = try await client.getLoginSession()
        let bankID = URL(string: "com.example.schibsted:/bankId")!
        #expect(!client.handles(bankID))
        let error = await #expect(throws: AuthError.self) { _ = try await client.handleAuthenticationResponse(url: bankID) }
        #expect(error?.code == .redirectMismatch && error?.message.contains("BankID") == true)
        // Someone else's URL with "cancel" in its path is not ours: the pending login survives.
        let foreign = URL(string: "https://evil.example/login/cancel")!
        #expect(!client.handles(foreign))
        let foreignError = await #expect(throws: AuthError.self) { _ = try await client.handleAuthenticationResponse(url: foreign) }
        #expect(foreignError?.code == .redirectMismatch)
        // A path merely containing the letters is not a cancellation either.
        #expect(!client.handles(URL(string: "com.example.schibsted:/login/cancelled-order")!))
        // The login still completes.
        _ = try await client.handleAuthenticationResponse(url: try await HeadlessUserAgent(transport: idp.transport).authorize(request))
    }

    // MARK: Authorization parameters

    @Test("x_domain_id and a caller-chosen state (SDK 5) are sent; a short or reused state is refused")
    func xDomainIDAndState() async throws {
        let idp = TestIdentityProvider.schibsted(clock: ManualClock())
        let client = client(idp)
        let xDomainId = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!
        let state = "app-chosen-state-0123456789abcdef"
        let request = try await client.getLoginSession(state: state, xDomainId: xDomainId)
        let query = parameters(request.url)
        #expect(query["x_domain_id"] == "6F9619FF-8B86-D011-B42D-00C04FC964FF")
        #expect(query["state"] == state && request.state == state)
        let user = try await client.handleAuthenticationResponse(url: try await HeadlessUserAgent(transport: idp.transport).authorize(request))
        #expect(await user.session.isSignedIn)

        let reused = await #expect(throws: AuthError.self) { _ = try await client.getLoginSession(state: state) }
        #expect(reused?.code == .invalidConfiguration)
        let short = await #expect(throws: AuthError.self) { _ = try await client.getLoginSession(state: "abc123") }
        #expect(short?.code == .invalidConfiguration && short?.message.contains("22") == true)
        let unsafe = await #expect(throws: AuthError.self) { _ = try await client.getLoginSession(state: "0123456789012345678901&prompt=none") }
        #expect(unsafe?.code == .invalidConfiguration)
    }

    @Test("The emulator's profile is the real camelCase {\"data\": …} shape, and it decodes")
    func camelCaseProfile() async throws {
        let idp = TestIdentityProvider.schibsted(clock: ManualClock())
        let transport = RecordingTransport(idp.transport)
        let client = client(idp, transport: transport)
        let user = try await client.login(with: HeadlessUserAgent(transport: idp.transport))
        let profile = try await user.fetchProfileData()
        #expect(profile.userId == "12345678" && profile.displayName == "Kari Nordmann" && profile.pairId == "pair-8f1d2c")
        let exchange = try #require(await transport.exchanges(pathSuffix: "/api/2/user/\(profile.uuid ?? "")").first)
        let data = try #require(try JSONValue.parseObject(exchange.responseBody)["data"]?.objectValue)
        #expect(data["displayName"] != nil && data["display_name"] == nil && data["pairId"] != nil)
    }

    @Test(
        "The profile exposes the vendor's fields and tolerates what the vendor tolerates (false for a date, [] for a dictionary, 0000-00-00, booleans as strings, a field of the wrong type)"
    )
    func profileAsTheVendorDecodesIt() async throws {
        // SchibstedAccountAPIResponsesTests.swift (5.1.3): the full-profile vector, field by field.
        let full = try JSONDecoder().decode(UserProfileResponse.self, from: Data(vendorFullProfile.utf8))
        #expect(full.uuid == "96085e85-349b-4dbf-9809-fa721e7bae46" && full.userId == "12345" && full.status == 1)
        #expect(full.email == "test@example.com" && full.emailVerifiedDate == "1970-01-01 00:00:00")
        let email = try #require(full.emails?.first)
        #expect(full.emails?.count == 1 && email.value == "test@example.com" && email.type == "other")
        #expect(email.isPrimary == true && email.isVerified == true && email.verifiedTime == "1970-01-01 00:00:00")
        #expect(full.phoneNumber == "+46123456" && full.phoneNumberVerifiedDate == nil)
        let phone = try #require(full.phoneNumbers?.first)
        #expect(phone.value == "+46123456" && phone.type == "other" && phone.isPrimary == false && phone.isVerified == false && phone.verifiedTime == nil)
        #expect(full.displayName == "Unit test")
        #expect(full.name == UserProfileResponse.Name(givenName: "Unit", familyName: "Test", formatted: "Unit Test"))
        #expect(
            full.addresses == [
                "home": UserProfileResponse.Address(
                    formatted: "12345 Test, Sverige", streetAddress: "Test", postalCode: "12345", locality: "Test locality",
                    region: "Test region", country: "Sverige", type: .home)
            ])
        #expect(full.gender == "withheld" && full.birthdate == "1970-01-01 00:00:00")
        #expect(full.accounts == ["client1": UserProfileResponse.Account(id: "client1", accountName: "Example", domain: "example.com", connected: "1970-01-01 00:00:00")])
        #expect(full.merchants == [12345, 54321])
        #expect(full.published == "1970-01-01 00:00:00" && full.verified == "1970-01-01 00:00:00" && full.updated == "1971-01-01 00:00:00")
        #expect(full.passwordChanged == "1970-01-01 00:00:00" && full.lastAuthenticated == "1970-01-01 00:00:00" && full.lastLoggedIn == "1970-01-01 00:00:00")
        #expect(full.locale == "sv_SE" && full.utcOffset == "+02:00" && full.pairId == "12345" && full.sdrn == "sdrn:schibsted:user:12345")
        // What it encodes decodes to the same profile.
        #expect(try JSONDecoder().decode(UserProfileResponse.self, from: JSONEncoder().encode(full)) == full)

        // The vendor's tolerance vectors: [] for addresses, false for verification dates, 0000-00-00.
        let odd = try JSONDecoder().decode(
            UserProfileResponse.self, from: Data(#"{"addresses": [], "emailVerified": false, "phoneNumberVerified": false, "birthday": "0000-00-00"}"#.utf8))
        #expect(odd.addresses == [:] && odd.accounts == [:])
        #expect(odd.emailVerifiedDate == nil && odd.phoneNumberVerifiedDate == nil && odd.birthdate == nil)
        // StringBool: true, false, "true", "false", and any other string is false.
        for (json, expected) in [("true", true), ("false", false), (#""true""#, true), (#""false""#, false), (#""notTrue""#, false)] {
            let profile = try JSONDecoder().decode(UserProfileResponse.self, from: Data(#"{"emails": [{"primary": \#(json)}]}"#.utf8))
            #expect(profile.emails?.first?.isPrimary == expected, "\(json)")
        }
        // A field of the wrong type is nil, never the whole profile lost; an unreadable dictionary is empty.
        let wrong = try JSONDecoder().decode(
            UserProfileResponse.self, from: Data(#"{"uuid": 5, "status": "1", "merchants": "x", "email": "a@b.c", "accounts": {"c": {"connected": 1}}}"#.utf8))
        #expect(wrong.uuid == nil && wrong.status == nil && wrong.merchants == nil && wrong.email == "a@b.c" && wrong.accounts == [:])
        // Something that is not an object is still an error.
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(UserProfileResponse.self, from: Data("[1]".utf8)) }

        // The emulator sends those odd values on the wire, and fetchProfileData decodes them as the vendor does.
        let idp = TestIdentityProvider.schibsted(clock: ManualClock())
        let user = try await client(idp).login(with: HeadlessUserAgent(transport: idp.transport))
        let profile = try await user.fetchProfileData()
        #expect(profile.uuid == idp.configuration.user.subject && profile.userId == "12345678" && profile.status == 1)
        #expect(profile.emailVerifiedDate == nil && profile.addresses == [:] && profile.birthdate == nil)
        #expect(profile.emails?.first?.isPrimary == true && profile.emails?.first?.isVerified == false)
        #expect(profile.name?.givenName == "Kari" && profile.sdrn == "sdrn:schibsted.com:user:12345678")
    }

    // MARK: External ids: the vendors' vectors

    @Test("External id vectors of SDK 5 (ClientTests) and SDK 6 (SchibstedAuthenticatorTests), both labels, optional as the vendor's")
    func externalIDVectors() {
        let client = client(TestIdentityProvider.schibsted(clock: ManualClock()))
        let v5: String? = client.getExternalId(pairId: "pairId", externalParty: "externalParty", suffix: "optionalSuffix")
        #expect(v5 == "e0b2b31df36848059b44ac0ee6784607b003a3688ac6bbdb196d8465bbc8b281")
        #expect(client.getExternalId(pairId: "pairId", externalParty: "externalParty", optionalSuffix: "optionalSuffix") == v5)
        #expect(client.getExternalId(pairId: "pairId", externalParty: "externalParty") == "386eb5f9c3e56843ff83e43fa3d69fc4c2b2072f8e8036332baefb04e96f28b9")
        #expect(client.externalId(pairId: "12345", externalParty: "sourcepoint") == "403bfebc8ef54946c8f4f4ca0e5074d13ce7faf4ac2861e55fee2873f22b01b8")
        #expect(client.externalId(pairId: "12345", externalParty: "schibsted", suffix: "suffix") == "55e732d1ea6a6885cb6ca85ad82b5aca867b4615d7fcb5111c9524c67e9e9f89")
        // SDK 6 keeps an empty suffix; SDK 5 drops it.
        #expect(client.externalId(pairId: "a", externalParty: "b", suffix: "") != client.getExternalId(pairId: "a", externalParty: "b", suffix: ""))
    }

    @Test("wire webSessionURL: the vendor's form body vector and /session/<code> on the environment's server")
    func webSessionURLVector() async throws {
        let idp = TestIdentityProvider.schibsted(clock: ManualClock())
        let transport = RecordingTransport(idp.transport)
        let user = try await client(idp, transport: transport).login(with: HeadlessUserAgent(transport: idp.transport))
        let url = try await user.webSessionURL(clientId: "a70ed9c041334b712c599a526", redirectURI: URL(string: "a70ed9c041334b712c599a526:/login")!)
        let exchange = try #require(await transport.exchanges(pathSuffix: "/api/2/oauth/exchange").first)
        let body = String(decoding: exchange.request.httpBody ?? Data(), as: UTF8.self).split(separator: "&").map(String.init)
        #expect(body.contains("clientId=a70ed9c041334b712c599a526"))
        #expect(body.contains("redirectUri=a70ed9c041334b712c599a526%3A%2Flogin"))
        #expect(body.contains("type=session"))
        #expect(url.absoluteString.hasPrefix("https://identity-pre.schibsted.com/session/oc_"))
    }

    // MARK: Hooks: delegates, imported tokens, tracking, environment

    @Test("UserDelegate.userDidLogout for an explicit logout and for a forced one (refresh token rejected)")
    func logoutDelegates() async throws {
        let idp = TestIdentityProvider.schibsted(clock: ManualClock())
        let client = client(idp)
        let explicit = LogoutCounter()
        let user = try await client.login(with: HeadlessUserAgent(transport: idp.transport))
        await user.delegates.addDelegate(explicit)
        try await user.logout()
        #expect(await explicit.waitForLogouts(1))
        #expect(await !user.isLoggedIn)

        let clock = ManualClock()
        let forcedIdP = TestIdentityProvider.schibsted(clock: clock)
        let forcedClient = self.client(forcedIdP)
        let forced = LogoutCounter()
        let second = try await forcedClient.login(with: HeadlessUserAgent(transport: forcedIdP.transport))
        await second.delegates.addDelegate(forced)
        await forcedIdP.update { $0.tokenResponseReplacement = (400, Data(#"{"error":"invalid_grant"}"#.utf8), [:]) }
        clock.advance(by: 7200)
        _ = try? await second.session.validAccessToken()
        #expect(await forced.waitForLogouts(1))
    }

    @Test(
        "Simplified login stays two-way, as between vendor-SDK apps: with appIdentifierPrefix the shared item is never deleted at adoption, and this app's session is kept there in a UserSession that SDK 5 and SDK 6 both decode, updated on refresh, removed at logout",
        arguments: [VendorFormat.v6, .v5])
    func sharedSessionMirroredForVendorApps(format: VendorFormat) async throws {
        let idp = TestIdentityProvider.schibsted(clock: ManualClock())
        let (vendorKey, group) = ("com.schibsted.account", "ABCDE12345.com.schibsted.simplifiedLogin")
        let earlier = InMemoryTokenStorage()
        _ = try await client(idp, storage: earlier).login(with: HeadlessUserAgent(transport: idp.transport))
        let previous = try #require(await earlier.credential(for: earlier.storedKeys()[0]))
        let store = InMemoryVendorStore()
        let written = format.json(previous, clientID: TestIdentityProvider.schibstedClientID, now: idp.clock.now())
        await store.setGenericPassword(written, service: vendorKey, account: TestIdentityProvider.schibstedClientID)

        // Adopted, but the item the vendor's other apps read stays.
        let storage = InMemoryTokenStorage()
        let app = client(idp, appIdentifierPrefix: "ABCDE12345", storage: storage, vendorStore: store)
        #expect(try await app.resumeLastLoggedInUser() != nil)
        #expect(await storage.storedKeys().count == 1)
        let kept = try #require(await store.genericPassword(service: vendorKey, account: TestIdentityProvider.schibstedClientID))
        #expect(try SDK6UserSession.decode(kept).userTokens.idTokenClaims.sub == previous.subject)

        // A login here is written in the vendor's format, into the shared group, decodable by both SDKs.
        let user = try await app.login(with: HeadlessUserAgent(transport: idp.transport))
        let credential = await user.session.credential
        let mirrored = try #require(await store.genericPassword(service: vendorKey, account: TestIdentityProvider.schibstedClientID))
        #expect(await store.accessGroup(service: vendorKey, account: TestIdentityProvider.schibstedClientID) == group)
        let v6 = try SDK6UserSession.decode(mirrored)
        let v5 = try SDK5UserSession.decode(mirrored)
        #expect(v6.userTokens.accessToken == credential.accessToken.reveal() && v6.userTokens.refreshToken == credential.refreshToken?.reveal())
        #expect(v6.userTokens.idTokenClaims.iss == "https://identity-pre.schibsted.com/" && v6.userTokens.idTokenClaims.legacy_user_id == "12345678")
        #expect(v6.userTokens.idTokenClaims.aud == [TestIdentityProvider.schibstedClientID] && v6.userTokens.expiration != nil)
        #expect(v5.clientId == TestIdentityProvider.schibstedClientID && v5.userTokens.idToken == credential.idToken?.reveal())
        #expect(v5.userTokens.idTokenClaims.sub == credential.subject && v5.updatedAt == v6.updatedAt)

        // The vendor's other apps (here one on this package) offer it for simplified login.
        let news = SchibstedAccountClient(
            configuration: SchibstedConfiguration(
                environment: .pre, clientId: TestIdentityProvider.schibstedSecondClientID,
                redirectURI: URL(string: "com.example.news:/login")!),
            storage: InMemoryTokenStorage(), vendorStore: store, transport: idp.transport, logger: RecordingLogger(), clock: idp.clock)
        let offered = try #require(try await SimplifiedLoginManager(client: news, sharedStorage: InMemoryTokenStorage()).latestSharedAccount())
        #expect(offered.clientId == TestIdentityProvider.schibstedClientID && offered.writtenByVendorSDK && offered.uuid == credential.subject)

        // A refresh is mirrored (delivered as an event, so waited for, bounded).
        let refreshed = try await user.session.refresh()
        var current = ""
        for _ in 0..<1000 {
            let data = await store.genericPassword(service: vendorKey, account: TestIdentityProvider.schibstedClientID)
            current = (try? data.map(SDK6UserSession.decode)?.userTokens.accessToken) ?? ""
            if current == refreshed.accessToken.reveal() { break }
            await Task.yield()
        }
        #expect(current == refreshed.accessToken.reveal())

        // Logout removes it, as the vendor SDK removes its item.
        try await user.logout()
        #expect(await store.genericPassword(service: vendorKey, account: TestIdentityProvider.schibstedClientID) == nil)
    }

    @Test(
        "Simplified login never shares an item SDK 6 cannot decode (it would break getSharedUser for every app): a session without refresh token is not written; without appIdentifierPrefix nothing is shared and adoption removes the vendor item"
    )
    func neverSharesUndecodableItem() async throws {
        let idp = TestIdentityProvider.schibsted(clock: ManualClock())
        let obtainer = InMemoryTokenStorage()
        _ = try await client(idp, storage: obtainer).login(with: HeadlessUserAgent(transport: idp.transport))
        let tokens = try #require(await obtainer.credential(for: obtainer.storedKeys()[0]))

        let store = InMemoryVendorStore()
        let shared = client(idp, appIdentifierPrefix: "ABCDE12345", vendorStore: store)
        _ = try await shared.login(accessToken: tokens.accessToken, refreshToken: nil, idToken: try #require(tokens.idToken), expiresIn: 600)
        #expect(await store.isEmpty)

        let unshared = client(idp, vendorStore: store)
        _ = try await unshared.login(with: HeadlessUserAgent(transport: idp.transport))
        #expect(await store.isEmpty)
        await store.setGenericPassword(
            VendorFormat.v6.json(tokens, clientID: TestIdentityProvider.schibstedClientID, now: idp.clock.now()),
            service: "com.schibsted.account", account: TestIdentityProvider.schibstedClientID)
        _ = try await client(idp, vendorStore: store).resumeLastLoggedInUser()
        #expect(await store.isEmpty)
    }

    @Test("Tokens obtained externally are validated in full before they are stored")
    func importedTokens() async throws {
        let idp = TestIdentityProvider.schibsted(clock: ManualClock())
        // The vendor README's external flow, run by hand: authorize, then the token request with X-OIDC: v1.
        let obtainer = InMemoryTokenStorage()
        _ = try await client(idp, storage: obtainer).login(with: HeadlessUserAgent(transport: idp.transport))
        let tokens = try #require(await obtainer.credential(for: obtainer.storedKeys()[0]))

        let storage = InMemoryTokenStorage()
        let client = client(idp, storage: storage)
        let user = try await client.login(accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, idToken: try #require(tokens.idToken), expiresIn: 600)
        #expect(await user.uuid == tokens.subject)
        #expect(await storage.storedKeys().count == 1)

        // A tampered ID token is refused and nothing is stored.
        let forgedStorage = InMemoryTokenStorage()
        let parts = try #require(tokens.idToken).reveal().split(separator: ".").map(String.init)
        let forged = Secret(parts[0] + "." + parts[1] + "." + String(parts[2].reversed()))
        let error = await #expect(throws: AuthError.self) {
            _ = try await self.client(idp, storage: forgedStorage).login(accessToken: tokens.accessToken, refreshToken: nil, idToken: forged)
        }
        #expect(error?.code == .invalidSignature || error?.code == .malformedIDToken)
        #expect(await forgedStorage.isEmpty)
    }

    @Test("Tokens obtained externally must be injected within 10 minutes of the ID token's iat: later they are refused with invalid_issued_at and nothing is stored")
    func importedTokensTooOld() async throws {
        let clock = ManualClock()
        let idp = TestIdentityProvider.schibsted(clock: clock)
        let obtainer = InMemoryTokenStorage()
        _ = try await client(idp, storage: obtainer).login(with: HeadlessUserAgent(transport: idp.transport))
        let tokens = try #require(await obtainer.credential(for: obtainer.storedKeys()[0]))
        let idToken = try #require(tokens.idToken)

        // Nine minutes after iat they are accepted.
        clock.advance(by: 9 * 60)
        let inTime = InMemoryTokenStorage()
        _ = try await client(idp, storage: inTime).login(accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, idToken: idToken, expiresIn: 3600)
        #expect(await inTime.storedKeys().count == 1)

        // Twelve minutes after: beyond 10 minutes and the 60 s clock skew (the ID token itself is valid for an hour).
        clock.advance(by: 3 * 60)
        let late = InMemoryTokenStorage()
        let error = await #expect(throws: AuthError.self) {
            _ = try await self.client(idp, storage: late).login(accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, idToken: idToken, expiresIn: 3600)
        }
        #expect(error?.code == .invalidIssuedAt)
        #expect(error?.schibstedError == .idToken(.expired))
        #expect(await late.isEmpty)
    }

    @Test("migration traps: Client, .preEid(.se) / .preBankId(.se) / .oneTimeCode / .bankId compile and mean the vendor's values")
    func migrationSpellings() async throws {
        let idp = TestIdentityProvider.schibsted(clock: ManualClock())
        let client: Client = client(idp)
        #expect(MFAType.preEid(.se) == .eidSE && MFAType.preBankId(.no) == .eidNO && MFAType.preEid(.dk) == .eidDK)
        #expect(MFAType.oneTimeCode == .otp && MFAType.bankId == .eid)
        let request = try await client.getLoginSession(withMFA: .preEid(.fi))
        #expect(parameters(request.url)["acr_values"] == "eid-fi")
    }

    @Test("wire user-context-from-token, frontend-jwt, SDRN: the session service's endpoints and the vendor's SDRN forms")
    func wireSessionServiceAndSDRN() async throws {
        let idp = TestIdentityProvider.schibsted(clock: ManualClock())
        let transport = RecordingTransport(idp.transport)
        let (vendorStore, news) = try await newsAppOnVendorSDK(idp, format: .v6)
        let app = client(idp, vendorStore: vendorStore, transport: transport)
        let manager = SimplifiedLoginManager(client: app, sharedStorage: InMemoryTokenStorage())
        let account = try #require(try await manager.latestSharedAccount())
        let context = try await manager.context(for: account)
        #expect(context.identifier == news.subject && context.displayText == "Kari Nordmann" && !context.clientName.isEmpty)
        let contextCall = try #require(await transport.exchanges(pathSuffix: "/user-context-from-token").first)
        #expect(contextCall.request.url?.host == "session-service.identity-pre.schibsted.com")
        #expect(contextCall.request.value(forHTTPHeaderField: "Authorization") == "Bearer \(news.accessToken.reveal())")

        let user = try await app.login(with: HeadlessUserAgent(transport: idp.transport))
        let jwt = try await user.frontendJWT()
        #expect(jwt.reveal().hasPrefix("eyJ"))
        #expect(await transport.exchanges(pathSuffix: "/frontend-jwt").first?.request.url?.host == "session-service.identity-pre.schibsted.com")
        #expect(await user.sdrn == "sdrn:schibsted.com:user:12345678")
        #expect(SchibstedEnvironment.proNo.sdrn(userId: "1") == "sdrn:spid.no:user:1")
        #expect(SchibstedEnvironment.proFi.sdrn(userId: "1") == "sdrn:schibsted.fi:user:1")
        #expect(SchibstedEnvironment.proCom.sdrn(userId: "1") == "sdrn:schibsted.com:user:1")
    }

    @Test("The default storage persists (the Keychain on Apple platforms, owner-only files elsewhere), not memory")
    func defaultStoragePersists() {
        let client = SchibstedAccountClient(configuration: SchibstedConfiguration(environment: .pre, clientId: "c", redirectURI: URL(string: "com.x:/l")!))
        #expect(!(client.authClient.storage is InMemoryTokenStorage))
        #if !canImport(Security)
            #expect(client.authClient.storage is FileTokenStorage)
        #endif
    }

    @Test("An authorization error keeps the vendor's name and its OAuth payload")
    func errorPayloads() async throws {
        let idp = TestIdentityProvider.schibsted(clock: ManualClock())
        await idp.update { $0.authorizationError = ("access_denied", "The user refused") }
        let client = client(idp)
        let error = await #expect(throws: AuthError.self) { _ = try await client.login(with: HeadlessUserAgent(transport: idp.transport)) }
        #expect(error?.schibstedError == .login(.authenticationErrorResponse))
        #expect(error?.oauthError == "access_denied")
        #expect(error?.message.contains("The user refused") == true)
        // The pending login is over: a new one may start.
        _ = try await client.getLoginSession()
    }

    @Test("wire token response: the emulator omits token_type as the vendor's fixtures do, and the login succeeds")
    func wireTokenResponseShape() async throws {
        let idp = TestIdentityProvider.schibsted(clock: ManualClock())
        let transport = RecordingTransport(idp.transport)
        _ = try await client(idp, transport: transport).login(with: HeadlessUserAgent(transport: idp.transport))
        let token = try #require(await transport.exchanges(pathSuffix: "/oauth/token").first)
        let body = try JSONValue.parseObject(token.responseBody)
        #expect(body["token_type"] == nil && body["access_token"] != nil && body["refresh_token"] != nil && body["expires_in"] != nil)
    }

    @Test("wire authorization URL vectors (URLBuilderTests): otp → acr_values=otp and no prompt; none → prompt=select_account; scope ⊇ openid offline_access; tracked")
    func wireAuthorizationURLVectors() async throws {
        let idp = TestIdentityProvider.schibsted(clock: ManualClock())
        let tracker = RecordingTracker()
        let client = client(idp, tracker: tracker)
        let otp = try await client.getLoginSession(withMFA: .otp)
        #expect(parameters(otp.url)["acr_values"] == "otp" && parameters(otp.url)["prompt"] == nil)
        let scopes = Set((parameters(otp.url)["scope"] ?? "").split(separator: " ").map(String.init))
        #expect(scopes.isSuperset(of: ["openid", "offline_access"]))
        #expect(parameters(otp.url)["code_challenge_method"] == "S256" && parameters(otp.url)["nonce"] != nil)
        await client.cancelLoginSession()
        let plain = try await client.getLoginSession()
        #expect(parameters(plain.url)["prompt"] == "select_account" && parameters(plain.url)["acr_values"] == nil)
        _ = try await client.handleAuthenticationResponse(url: try await HeadlessUserAgent(transport: idp.transport).authorize(plain))
        #expect(
            await tracker.events == [
                .loginStarted(mfa: .otp, withSSO: true, xDomainId: nil), .loginCancelled,
                .loginStarted(mfa: nil, withSSO: true, xDomainId: nil), .loginCompleted
            ])
    }

    @Test("clientConfiguration.env is the environment")
    func env() {
        let configuration = SchibstedConfiguration(environment: .proNo, clientId: "c", redirectURI: URL(string: "com.x:/l")!)
        #expect(configuration.env == .proNo && configuration.env == .norway)
    }
}

/// The full profile of the vendor's `SchibstedAccountAPIResponsesTests` (5.1.3), verbatim.
private let vendorFullProfile = """
    {
        "published": "1970-01-01 00:00:00",
        "gender": "withheld",
        "utcOffset": "+02:00",
        "addresses": {
            "home": {
                "type": "home",
                "formatted": "12345 Test, Sverige",
                "streetAddress": "Test",
                "locality": "Test locality",
                "region": "Test region",
                "postalCode": "12345",
                "country": "Sverige"
            }
        },
        "phoneNumbers": [
            {
                "value": "+46123456",
                "type": "other",
                "primary": "false",
                "verified": "false"
            }
        ],
        "phoneNumber": "+46123456",
        "emailVerified": "1970-01-01 00:00:00",
        "phoneNumberVerified": false,
        "lastAuthenticated": "1970-01-01 00:00:00",
        "lastLoggedIn": "1970-01-01 00:00:00",
        "verified": "1970-01-01 00:00:00",
        "uuid": "96085e85-349b-4dbf-9809-fa721e7bae46",
        "userId": "12345",
        "displayName": "Unit test",
        "email": "test@example.com",
        "birthday": "1970-01-01 00:00:00",
        "name": {
            "familyName": "Test",
            "givenName": "Unit",
            "formatted": "Unit Test"
        },
        "accounts": {
            "client1": {
                "id": "client1",
                "domain": "example.com",
                "accountName": "Example",
                "connected": "1970-01-01 00:00:00"
            }
        },
        "merchants": [
            12345,
            54321
        ],
        "locale": "sv_SE",
        "emails": [
            {
                "value": "test@example.com",
                "type": "other",
                "primary": "true",
                "verified": "true",
                "verifiedTime": "1970-01-01 00:00:00"
            }
        ],
        "updated": "1971-01-01 00:00:00",
        "passwordChanged": "1970-01-01 00:00:00",
        "status": 1,
        "pairId": "12345",
        "sdrn": "sdrn:schibsted:user:12345"
    }
    """

/// How account-sdk-ios-web 5.x and 6.x encode their `UserSession` (Foundation's `JSONEncoder`, dates as seconds
/// since 2001).
enum VendorFormat: String, Sendable, CustomStringConvertible {
    case v5, v6

    var description: String { rawValue }

    func json(_ credential: Credential, clientID: String, now: Date) -> Data {
        let claims: JSONValue = [
            "iss": "https://identity-pre.schibsted.com/", "sub": .string(credential.subject ?? ""),
            "legacy_user_id": "12345678", "aud": [.string(clientID)], "exp": .number(now.timeIntervalSince1970 + 3600),
            "nonce": "n0nce12345", "amr": ["pwd"]
        ]
        var tokens: [String: JSONValue] = [
            "accessToken": .string(credential.accessToken.reveal()),
            "refreshToken": .string(credential.refreshToken?.reveal() ?? ""),
            "idTokenClaims": claims
        ]
        var session: [String: JSONValue] = ["updatedAt": .number(now.timeIntervalSinceReferenceDate)]
        switch self {
        case .v6:
            tokens["expiration"] = .number((credential.expiresAt ?? now).timeIntervalSinceReferenceDate)
        case .v5:
            tokens["idToken"] = .string(credential.idToken?.reveal() ?? "")
            session["clientId"] = .string(clientID)
        }
        session["userTokens"] = .object(tokens)
        return (try? JSONValue.object(session).jsonData()) ?? Data()
    }
}

/// account-sdk-ios-web 6.x's `UserSession` as it declares it (Tokens/UserSession.swift, UserTokens.swift,
/// IdTokenClaims.swift at 6.5.1): `refreshToken`, `legacy_user_id`, `aud` and `exp` are required.
struct SDK6UserSession: Decodable {
    struct UserTokens: Decodable {
        let accessToken: String
        let refreshToken: String
        let idTokenClaims: Claims
        let expiration: Date?
    }
    let userTokens: UserTokens
    let updatedAt: Date

    static func decode(_ data: Data) throws -> Self { try JSONDecoder().decode(Self.self, from: data) }
}

/// account-sdk-ios-web 5.1.3's `UserSession` (Lib/Storage/SessionStorage.swift): `clientId` and `idToken` required.
struct SDK5UserSession: Decodable {
    struct UserTokens: Decodable {
        let accessToken: String
        let refreshToken: String?
        let idToken: String
        let idTokenClaims: Claims
    }
    let clientId: String
    let userTokens: UserTokens
    let updatedAt: Date

    static func decode(_ data: Data) throws -> Self { try JSONDecoder().decode(Self.self, from: data) }
}

/// Both versions' `IdTokenClaims` decoding: `aud` a string or an array.
struct Claims: Decodable {
    let iss: String
    let sub: String
    // swiftlint:disable:next identifier_name
    let legacy_user_id: String
    let aud: [String]
    let exp: Double
    let nonce: String?
    let amr: [String]?

    enum CodingKeys: String, CodingKey { case iss, sub, legacy_user_id, aud, exp, nonce, amr }

    init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        iss = try values.decode(String.self, forKey: .iss)
        sub = try values.decode(String.self, forKey: .sub)
        legacy_user_id = try values.decode(String.self, forKey: .legacy_user_id)
        if let single = try? values.decode(String.self, forKey: .aud) {
            aud = [single]
        } else {
            aud = try values.decode([String].self, forKey: .aud)
        }
        exp = try values.decode(Double.self, forKey: .exp)
        nonce = try values.decodeIfPresent(String.self, forKey: .nonce)
        amr = try values.decodeIfPresent([String].self, forKey: .amr)
    }
}

actor RecordingTracker: TrackingEventsHandler {
    private(set) var events: [SchibstedTrackingEvent] = []
    func track(_ event: SchibstedTrackingEvent) { events.append(event) }
}

/// A browser sheet the user closed.
struct DismissedSheet: UserAgent {
    func authorize(_ request: AuthorizationRequest) async throws -> URL {
        throw AuthError(.userCancelled, "The user closed the sheet.")
    }
}

actor LogoutCounter: UserDelegate {
    private var count = 0
    func userDidLogout() { count += 1 }
    /// Waits (yielding, bounded) until `expected` logouts arrived: delivery is asynchronous, on the delegate's actor.
    func waitForLogouts(_ expected: Int) async -> Bool {
        for _ in 0..<1000 where count < expected { await Task.yield() }
        return count == expected
    }
}
