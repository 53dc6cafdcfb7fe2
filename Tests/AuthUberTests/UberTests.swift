import AuthAppSupport
import AuthCore
import AuthEmulators
import AuthProviders
import AuthTesting
import AuthUber
import Foundation
import Testing
import UberCompat

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An `UberAuth` for the emulated Uber service with the test client and redirect: the web agent and every request go
/// through `transport` (the emulator by default), time is the emulator's clock, storage is in memory unless given, and
/// no vendor store is read unless given.
func makeUberAuth(
    _ idp: TestIdentityProvider,
    transport: (any HTTPTransport)? = nil,
    agent: (any UserAgent)? = nil,
    apps: EmulatedAppHandoff? = nil,
    storage: any TokenStorage = InMemoryTokenStorage(),
    vendorStore: (any VendorStore)? = nil
) -> UberAuth {
    let transport = transport ?? idp.transport
    return UberAuth(
        configuration: UberConfiguration(clientID: TestIdentityProvider.uberClientID, redirectURI: TestIdentityProvider.uberRedirectURI),
        webAgent: agent ?? HeadlessUserAgent(transport: transport), appHandoff: apps, storage: storage,
        transport: transport, logger: RecordingLogger(), clock: idp.clock, vendorStore: vendorStore)
}

@Suite("Uber")
struct UberTests {
    private struct Harness {
        let idp: TestIdentityProvider
        let transport: RecordingTransport
        let apps: EmulatedAppHandoff
        let storage: InMemoryTokenStorage
        let uber: UberAuth
    }

    private func harness(installed: Set<String> = [], transport wrap: ((any HTTPTransport) -> any HTTPTransport)? = nil) async -> Harness {
        let clock = ManualClock()
        let idp = TestIdentityProvider.uber(clock: clock)
        let transport = RecordingTransport(wrap?(idp.transport) ?? idp.transport)
        let apps = TestIdentityProvider.uberApps(installedSchemes: installed, idp: idp)
        let storage = InMemoryTokenStorage()
        let uber = makeUberAuth(idp, transport: transport, apps: apps, storage: storage)
        await apps.onCallback { url in _ = uber.handle(url) }
        return Harness(idp: idp, transport: transport, apps: apps, storage: storage, uber: uber)
    }

    private func authorizeRequests(_ harness: Harness) async -> [URL] {
        await harness.transport.exchanges.compactMap(\.request.url).filter { $0.path.hasSuffix("/authorize") }
    }

    // MARK: Configuration and pure decisions

    @Test("The Info.plist Uber dictionary: ClientID and RedirectURI are required (errors, never a crash)")
    func configuration() throws {
        let full = try UberConfiguration(ProviderConfiguration(["Uber": ["ClientID": "id", "RedirectURI": "app://oauth/consumer", "DisplayName": "Rides"]]))
        #expect(full.clientID == "id" && full.displayName == "Rides")
        for missing in ["ClientID", "RedirectURI"] {
            var section: [String: JSONValue] = ["ClientID": "id", "RedirectURI": "app://oauth/consumer"]
            section[missing] = nil
            let error = #expect(throws: AuthError.self) { try ProviderRegistry.builtIn.provider(named: "uber", configuration: ProviderConfiguration(["Uber": .object(section)])) }
            #expect(error?.code == .missingConfigurationKey)
            #expect(error?.message.contains("'\(missing)'") == true)
        }
    }

    @Test("Route decision: first installed app in order, in app when none is or the list is empty")
    func routeDecision() {
        let installed: (Set<UberApp>) -> (UberApp) -> Bool = { set in { set.contains($0) } }
        #expect(UberRoute.decide(.inApp, canOpen: installed([.rides])) == .inApp)
        #expect(UberRoute.decide(.native, canOpen: installed([.eats, .driver])) == .native(.eats))
        #expect(UberRoute.decide(.native([.driver, .rides]), canOpen: installed([.rides, .driver])) == .native(.driver))
        #expect(UberRoute.decide(.native([.driver]), canOpen: installed([.rides])) == .inApp)
        #expect(UberRoute.decide(.native([]), canOpen: installed([.rides])) == .inApp)
        #expect(UberRoute.native(.rides).pathID == "riders" && UberRoute.inApp.pathID == "universal")
        #expect(UberRoute.candidates(.native, canOpen: { $0 != .rides }) == [.native(.eats), .native(.driver), .inApp])
        #expect(UberRoute.candidates(.inApp, canOpen: { _ in true }) == [.inApp])
    }

    @Test("Prompt is serialised 'login consent'; login is dropped for native routes")
    func promptRules() {
        #expect(UberRoute.inApp.promptValues([.consent, .login]) == ["login", "consent"])
        #expect(UberRoute.native(.eats).promptValues([.consent, .login]) == ["consent"])
        #expect(UberRoute.native(.eats).promptValues([.login]) == [])
    }

    @Test("Prefill is standard base64 of the JSON with absent fields omitted")
    func prefillEncoding() {
        let prefill = Prefill(email: "rider@example.com", phoneNumber: "+15555550100", firstName: "Ada")
        #expect(prefill.loginHint == "eyJlbWFpbCI6InJpZGVyQGV4YW1wbGUuY29tIiwiZmlyc3RfbmFtZSI6IkFkYSIsInBob25lIjoiKzE1NTU1NTUwMTAwIn0=")
    }

    // MARK: Flows

    @Test("In app with prefill: PAR first, request_uri on the universal authorize URL, state always sent, tokens returned")
    func inAppWithPrefill() async throws {
        let harness = await harness()
        let client = try await harness.uber.login(context: AuthContext(prompt: [.login, .consent], prefill: Prefill(email: "rider@example.com")))
        #expect(client.accessToken != nil && client.authorizationCode == nil)
        let par = try #require(await harness.transport.exchanges(pathSuffix: "/oauth/v2/par").first)
        #expect(par.formParameters["client_id"] == TestIdentityProvider.uberClientID)
        #expect(par.formParameters["response_type"] == "code")
        #expect(par.formParameters["login_hint"] == Prefill(email: "rider@example.com").loginHint)
        let authorize = try #require(await authorizeRequests(harness).first)
        #expect(authorize.path == "/oauth/v2/universal/authorize")
        let query = Dictionary(FormEncoding.decode(authorize.query ?? ""), uniquingKeysWith: { a, _ in a })
        #expect(query["request_uri"]?.hasPrefix("urn:ietf:params:oauth:request_uri:") == true)
        #expect(query["prompt"] == "login consent")
        #expect(query["state"] != nil && query["code_challenge_method"] == "S256")
    }

    @Test("A failed PAR continues without prefill")
    func failedPAR() async throws {
        let harness = await harness(transport: { base in
            InProcessTransport().adding(host: "auth.uber.com") { request in
                if request.url?.path == "/oauth/v2/par" { return (Data(), .make(status: 503)) }
                return try await base.send(request)
            }
        })
        let client = try await harness.uber.login(context: AuthContext(prefill: Prefill(email: "rider@example.com")))
        #expect(client.accessToken != nil)
        let authorize = try #require(await authorizeRequests(harness).first)
        #expect(authorize.query?.contains("request_uri") == false)
    }

    @Test("Native: hand-off to the first installed app's universal link, login prompt dropped, callback through handle(url)")
    func nativeHandoff() async throws {
        let harness = await harness(installed: ["ubereats", "uberdriver"])
        let client = try await harness.uber.login(context: AuthContext(authDestination: .native, prompt: [.login, .consent], prefill: Prefill(email: "x@y.z")))
        #expect(client.accessToken != nil)
        let opened = try #require(await harness.apps.opened.first)
        #expect(opened.path == "/oauth/v2/eats/authorize")
        let query = Dictionary(FormEncoding.decode(opened.query ?? ""), uniquingKeysWith: { a, _ in a })
        #expect(query["prompt"] == "consent")
        #expect(query["request_uri"] == nil, "prefill is in-app only")
        #expect(await harness.transport.exchanges(pathSuffix: "/oauth/v2/par").isEmpty)
        // The callback was consumed: a second delivery is not handled.
        #expect(harness.uber.handle(TestIdentityProvider.uberRedirectURI.appendingQuery([("code", "x"), ("state", "y")])) == false)
    }

    @Test("Native with no app installed, or an empty list, falls back to in app")
    func nativeFallback() async throws {
        for destination in [UberDestination.native, .native([])] {
            let harness = await harness(installed: [])
            let client = try await harness.uber.login(context: AuthContext(authDestination: destination))
            #expect(client.accessToken != nil)
            #expect(await harness.apps.opened.isEmpty)
            #expect(await authorizeRequests(harness).first?.path == "/oauth/v2/universal/authorize")
        }
    }

    @Test("An installed app that does not open leads to the next app of the destination, then in app (the vendor's order)")
    func appThatDoesNotOpenFallsBack() async throws {
        let harness = await harness(installed: ["uber", "ubereats"])
        await harness.apps.setRefusesToOpen(true)
        let client = try await harness.uber.login(context: AuthContext(authDestination: .native([.rides, .eats])))
        #expect(client.accessToken != nil)
        #expect(await harness.apps.opened.map(\.path) == ["/oauth/v2/riders/authorize", "/oauth/v2/eats/authorize"])
        #expect(await authorizeRequests(harness).last?.path == "/oauth/v2/universal/authorize")
    }

    @Test("A native login never hangs: the timeout, cancel() and task cancellation end it, and the next login runs")
    func nativeLoginNeverHangs() async throws {
        let clock = ManualClock()
        let idp = TestIdentityProvider.uber(clock: clock)
        let apps = TestIdentityProvider.uberApps(installedSchemes: ["uber"], idp: idp)  // no callback wired: it never comes
        let uber = makeUberAuth(idp, apps: apps)
        func waiting() async throws {
            for _ in 0..<10_000 where !uber.appCallbacks.isWaiting { await Task.yield() }
            try #require(uber.appCallbacks.isWaiting)
        }
        let native = AuthContext(authDestination: .native([.rides]))
        let timedOut = Task { try await uber.login(context: native) }
        try await waiting()
        clock.advance(by: Double(AppCallbackWaiter.defaultTimeout.components.seconds) + 1)
        let timeout = await #expect(throws: AuthError.self) { _ = try await timedOut.value }
        #expect(timeout?.code == .timedOut && timeout?.uberAuthError == .cancelled)

        let cancelled = Task { try await uber.login(context: native) }
        try await waiting()
        #expect(uber.cancel())
        let byCancel = await #expect(throws: AuthError.self) { _ = try await cancelled.value }
        #expect(byCancel?.code == .userCancelled && byCancel?.uberAuthError == .cancelled)

        let dropped = Task { try await uber.login(context: native) }
        try await waiting()
        dropped.cancel()
        let byTask = await #expect(throws: AuthError.self) { _ = try await dropped.value }
        #expect(byTask?.code == .signInCancelled)
        #expect(clock.sleeperCount == 0, "no timer left behind")

        let client = try await uber.login(context: AuthContext(authDestination: .inApp))
        #expect(client.accessToken != nil, "not stuck in existingAuthSession")
    }

    @Test("Without code exchange the result holds only the code (and the PKCE verifier for the backend); nothing is stored")
    func codeOnly() async throws {
        let harness = await harness()
        let client = try await harness.uber.login(context: AuthContext(shouldExchangeAuthCode: false))
        #expect(client.authorizationCode != nil && client.codeVerifier != nil)
        #expect(client.accessToken == nil && client.refreshToken == nil && client.tokenType == nil)
        #expect(await harness.transport.exchanges(pathSuffix: "/oauth/v2/token").isEmpty)
        #expect(await harness.storage.isEmpty)
    }

    @Test("handle(url) ignores URLs that are not the redirect; a forged callback to the redirect is handled, then refused")
    func handleOnlyTheRedirect() async throws {
        let clock = ManualClock()
        let idp = TestIdentityProvider.uber(clock: clock)
        let apps = TestIdentityProvider.uberApps(installedSchemes: ["uber"], idp: idp)  // no callback wired: stays pending
        let uber = makeUberAuth(idp, apps: apps)
        let first = Task { try await uber.login(context: AuthContext(authDestination: .native([.rides]))) }
        while await apps.opened.isEmpty { await Task.yield() }
        #expect(uber.handle(URL(string: "com.example.rides://other/path?code=x")!) == false)
        #expect(uber.handle(URL(string: "https://evil.example/oauth/consumer?code=x")!) == false)
        // Deliver a forged callback with a wrong state: handled (it is the redirect URI) but rejected by the engine.
        #expect(uber.handle(TestIdentityProvider.uberRedirectURI.appendingQuery([("code", "stolen"), ("state", "forged")])))
        let outcome = await #expect(throws: AuthError.self) { _ = try await first.value }
        #expect(outcome?.uberAuthError == .invalidAuthCode)
    }

    @Test("A second login while the first waits for the app is not refused: it completes, the first ends cancelled, and nothing of the first is stored or accepted later")
    func secondLoginReplacesWaitingOne() async throws {
        let idp = TestIdentityProvider.uber(clock: ManualClock())
        let apps = TestIdentityProvider.uberApps(installedSchemes: ["uber"], idp: idp)
        let storage = InMemoryTokenStorage()
        let uber = makeUberAuth(idp, apps: apps, storage: storage)
        await apps.onCallback { url in _ = uber.handle(url) }
        await apps.setNeverCallsBack(true)  // the user leaves the Uber app without approving
        let native = AuthContext(authDestination: .native([.rides]))
        let first = Task { try await uber.login(context: native) }
        // Waiting, and the app opened: the waiter registers the hand-off before the app is asked to open.
        for _ in 0..<100_000 {
            if uber.appCallbacks.isWaiting, await !apps.opened.isEmpty { break }
            await Task.yield()
        }
        try #require(uber.appCallbacks.isWaiting)
        let firstLink = try #require(await apps.opened.first)
        let firstState = try #require(FormEncoding.decode(firstLink.query ?? "").first { $0.0 == "state" }?.1)

        // The retry, at once (the vendor's native path has no in-progress guard), and this time the user approves.
        await apps.setNeverCallsBack(false)
        let second = try await uber.login(context: native)
        #expect(second.accessToken != nil)
        let error = await #expect(throws: AuthError.self) { _ = try await first.value }
        #expect(error?.code == .signInSuperseded && error?.uberAuthError == .cancelled)
        #expect(await apps.opened.count == 2 && !uber.appCallbacks.isWaiting)

        // Only the second login's tokens are stored, and the first's `state` is forgotten: a late callback is refused.
        let keys = await storage.storedKeys()
        #expect(keys.count == 1)
        let key = try #require(keys.first)
        let stored = try #require(await storage.credential(for: key))
        #expect(stored.accessToken == second.accessToken)
        let late = TestIdentityProvider.uberRedirectURI.appendingQuery([("code", "late"), ("state", firstState)])
        let refused = await #expect(throws: AuthError.self) { _ = try await uber.authClient.completeAuthorization(redirect: late) }
        #expect(refused?.code == .stateMismatch)
    }

    @Test("The emulator refuses prompt=login on a native path")
    func emulatorStrict() async throws {
        let idp = TestIdentityProvider.uber()
        let pkce = PKCE.generate()
        var request = CapturedRequest(
            url: URL(string: "https://auth.uber.com/oauth/v2/riders/authorize")!.appendingQuery([
                ("client_id", TestIdentityProvider.uberClientID), ("redirect_uri", TestIdentityProvider.uberRedirectURI.absoluteString),
                ("response_type", "code"), ("state", "s"), ("prompt", "login"),
                ("code_challenge", pkce.challenge), ("code_challenge_method", "S256")
            ]))
        request.httpMethod = "GET"
        #expect(await idp.handle(request).1.value(forHTTPHeaderField: "Location")?.contains("error=invalid_request") == true)
    }

    @Test("Logout deletes the stored token; error names map to UberAuthError")
    func logoutAndErrors() async throws {
        let harness = await harness()
        _ = try await harness.uber.login()
        #expect(await !harness.storage.isEmpty)
        try await harness.uber.logout()
        #expect(await harness.storage.isEmpty)
        #expect(AuthError(.userCancelled, "x").uberAuthError == .cancelled)
        #expect(AuthError(.authorizationFailed, "x", oauthError: "access_denied").uberAuthError == .oAuth(.accessDenied))
        // HTTP answers as the vendor's NetworkProvider maps them (U61): any non-2xx from /token is oAuth(invalidRequest),
        // an undecodable 2xx serviceError.
        #expect(AuthError(.tokenRequestFailed, "x", oauthError: "invalid_scope").uberAuthError == .oAuth(.invalidRequest))
        #expect(AuthError(.serverError, "x").uberAuthError == .oAuth(.invalidRequest))
        #expect(AuthError(.invalidResponse, "x").uberAuthError == .serviceError)
        let storage = AuthError(.storageFailed, "x")
        #expect(storage.uberAuthError == .other(storage))
    }
}

@Suite("UberProvider conformance")
struct UberProviderConformanceTests {
    @Test("Passes the provider conformance suite against its emulator")
    func conformance() async throws {
        let report = try await ProviderConformance.check(UberProvider.self, emulator: .uber(clock: ManualClock()))
        #expect(report.passed.contains("PKCE S256") && report.passed.contains("replayed redirect refused"))
        #expect(report.passed.contains("sign-out clears storage") && report.passed.contains("no secrets logged"))
    }
}

@Suite("Uber token responses as the vendor accepts them")
struct UberTokenResponseTests {
    @Test("A token response without token_type, with scope as an array, is accepted for Uber; plain OpenID Connect still refuses it")
    func missingTokenTypeAndArrayScope() async throws {
        let clock = ManualClock()
        let idp = TestIdentityProvider.uber(clock: clock)
        let transport = InProcessTransport().adding(host: "auth.uber.com") { request in
            let (data, response) = try await idp.transport.send(request)
            guard request.url?.path.hasSuffix("/oauth/v2/token") == true, var body = try? JSONValue.parseObject(data) else { return (data, response) }
            body["token_type"] = nil
            body["scope"] = ["profile", "history"]
            return (try JSONValue.object(body).jsonData(), response)
        }
        let storage = InMemoryTokenStorage()
        let uber = makeUberAuth(idp, transport: transport, storage: storage)
        let client = try await uber.login(context: AuthContext(authDestination: .inApp))
        #expect(client.tokenType == "Bearer" && client.scope == ["profile", "history"])

        let body = Data(#"{"access_token":"a","expires_in":60}"#.utf8)
        let refused = #expect(throws: AuthError.self) { try TokenResponse(json: body) }
        #expect(refused?.code == .invalidResponse && refused?.message.contains("token_type") == true)
        #expect(try TokenResponse(json: body, tokenTypeWhenAbsent: "Bearer").tokenType == "Bearer")
    }
}

/// The Uber apps' callbacks: as Uber documents the SSO hand-off (`state` echoed), and the code-only shape of the vendor
/// SDK's own tests as a tolerance that is never the only way a login works.
@Suite("Uber native app callbacks")
struct UberStatelessCallbackTests {
    private actor Callbacks {
        var urls: [URL] = []
        func add(_ url: URL) { urls.append(url) }
    }

    /// A native login through the emulated Uber (rides) app, the callbacks it sent recorded.
    private func nativeLogin(appsDropState: Bool, context: AuthContext = AuthContext(authDestination: .native([.rides])))
        async throws -> (UberClient, [URL], TestIdentityProvider)
    {
        let clock = ManualClock()
        let idp = TestIdentityProvider.uber(clock: clock)
        let apps = TestIdentityProvider.uberApps(installedSchemes: ["uber"], idp: idp, callsBackWithoutState: appsDropState)
        let uber = makeUberAuth(idp, apps: apps)
        let callbacks = Callbacks()
        await apps.onCallback { url in
            await callbacks.add(url)
            _ = uber.handle(url)
        }
        let client = try await uber.login(context: context)
        return (client, await callbacks.urls, idp)
    }

    @Test("The Uber apps call back with the code and the request's state, as Uber documents the SSO hand-off; the login is matched by its state")
    func appCallbackEchoesState() async throws {
        let (client, callbacks, _) = try await nativeLogin(appsDropState: false)
        #expect(client.accessToken != nil)
        let callback = try #require(callbacks.first)
        let names = URLComponents(url: callback, resolvingAgainstBaseURL: false)?.queryItems?.map(\.name).sorted()
        #expect(names == ["code", "state"], "developer.uber.com account-linking: <redirect_uri>?code=…&state=<your_state>")
    }

    @Test("Tolerance: a callback with the code alone (the vendor's test://app?code=123 shape) still completes the one pending PKCE login")
    func codeOnlyCallbackTolerated() async throws {
        let (client, callbacks, _) = try await nativeLogin(appsDropState: true)
        #expect(client.accessToken != nil)
        let callback = try #require(callbacks.first)
        #expect(URLComponents(url: callback, resolvingAgainstBaseURL: false)?.queryItems?.map(\.name) == ["code"])
    }

    @Test("A cancelled or failed in-app login is forgotten at once: the next native login, even through an app that drops state, is not made ambiguous by it")
    func abandonedInAppLoginDoesNotBlockNativeLogin() async throws {
        /// The in-app web session: the user closes it (ASWebAuthenticationSession's `user_cancelled`), then it breaks
        /// with a non-auth error, then it works.
        actor Attempts {
            var count = 0
            func next() -> Int {
                count += 1
                return count
            }
        }
        struct ClosingThenWorking: UserAgent {
            struct Broken: Error {}
            let attempts = Attempts()
            let working: HeadlessUserAgent
            func authorize(_ request: AuthorizationRequest) async throws -> URL {
                switch await attempts.next() {
                case 1: throw AuthError(.userCancelled, "The user closed the sign-in page.", providerID: request.providerID)
                case 2: throw Broken()
                default: return try await working.authorize(request)
                }
            }
        }
        let clock = ManualClock()
        let idp = TestIdentityProvider.uber(clock: clock)
        let apps = TestIdentityProvider.uberApps(installedSchemes: ["uber"], idp: idp, callsBackWithoutState: true)
        let uber = makeUberAuth(idp, agent: ClosingThenWorking(working: HeadlessUserAgent(transport: idp.transport)), apps: apps)
        await apps.onCallback { url in _ = uber.handle(url) }

        let closed = await #expect(throws: AuthError.self) { _ = try await uber.login(context: AuthContext(authDestination: .inApp)) }
        #expect(closed?.uberAuthError == .cancelled)
        let broken = await #expect(throws: AuthError.self) { _ = try await uber.login(context: AuthContext(authDestination: .inApp)) }
        #expect(broken?.code == .authorizationFailed)
        // Two in-app logins left pending would make this state-less callback match three logins: missing_state.
        let client = try await uber.login(context: AuthContext(authDestination: .native([.rides])))
        #expect(client.accessToken != nil)
        #expect(await apps.opened.count == 1)
    }

    @Test("Tolerance never stands alone: a code-only callback for a login without PKCE is refused, where the documented callback with state succeeds")
    func codeOnlyCallbackNeverTheOnlyWay() async throws {
        var backend = AuthContext(authDestination: .native([.rides]), shouldExchangeAuthCode: false)
        backend.backendExchangeUsesPKCE = false
        let (client, _, _) = try await nativeLogin(appsDropState: false, context: backend)
        #expect(client.authorizationCode != nil && client.codeVerifier == nil)
        let refused = await #expect(throws: AuthError.self) { _ = try await nativeLogin(appsDropState: true, context: backend) }
        #expect(refused?.code == .missingState, "without state, only PKCE protects the code: a login without it is never a candidate")
    }

    @Test("Without state, a callback is attributed only when exactly one login is pending; a wrong state is always refused")
    func attributionRules() async throws {
        let clock = ManualClock()
        let idp = TestIdentityProvider.uber(clock: clock)
        let client = AuthClient(
            provider: UberProvider(configuration: UberConfiguration(clientID: TestIdentityProvider.uberClientID, redirectURI: TestIdentityProvider.uberRedirectURI)),
            storage: InMemoryTokenStorage(), transport: idp.transport, clock: clock)
        let stateless = TestIdentityProvider.uberRedirectURI.appendingQuery([("code", "123")])

        let first = try await client.prepareSignIn()
        let second = try await client.prepareSignIn()
        let ambiguous = await #expect(throws: AuthError.self) { _ = try await client.completeAuthorization(redirect: stateless) }
        #expect(ambiguous?.code == .missingState && ambiguous?.message.contains("not exactly one") == true)

        await client.abandon(first)
        let forged = await #expect(throws: AuthError.self) {
            _ = try await client.completeAuthorization(redirect: stateless.appendingQuery([("state", "forged")]))
        }
        #expect(forged?.code == .stateMismatch, "a state that is not the pending one is refused, never ignored")

        await client.abandon(second)
        // Exactly one pending: attributed to it and redeemed — the made-up code then fails at the token endpoint,
        // where PKCE binds a code to its login.
        let attributed = await #expect(throws: AuthError.self) { _ = try await client.signIn(with: FixedRedirect(stateless)) }
        #expect(attributed?.code == .invalidGrant)

        // Without the provider's opt-in, state stays required (ProviderConformance checks every built-in provider).
        #expect(OpenIDLikeProvider().behavior.acceptsResponsesWithoutState == false)
    }

    @Test("Vendor vectors (AuthorizationCodeResponseParserTests): error=invalid_request is oAuth(invalidRequest); an unknown error is invalidAuthCode")
    func vendorCallbackErrors() {
        #expect(AuthError(.authorizationFailed, "x", oauthError: "invalid_request").uberAuthError == .oAuth(.invalidRequest))
        #expect(AuthError(.authorizationFailed, "x", oauthError: "unknown_error").uberAuthError == .invalidAuthCode)
        #expect(AuthError(.authorizationFailed, "x", oauthError: "server_error").uberAuthError == .oAuth(.serverError))
    }
}

/// A provider that overrides nothing: the protocol's defaults.
private struct OpenIDLikeProvider: AuthProvider {
    static let id: ProviderID = "plain"
    init() {}
    init(configuration: ProviderConfiguration) throws {}
    var client: ClientRegistration { ClientRegistration(clientID: "c", redirectURI: URL(string: "com.example:/cb")!, scopes: ["openid"]) }
    var endpointSource: EndpointSource { .discovery(issuer: URL(string: "https://idp.example")!) }
}

/// A user agent that answers every authorization with one fixed redirect (what a hostile or broken app could send).
private struct FixedRedirect: UserAgent {
    let redirect: URL
    init(_ redirect: URL) { self.redirect = redirect }
    func authorize(_ request: AuthorizationRequest) async throws -> URL { redirect }
}

/// UberAuth's stored token, moved once into this package's storage.
@Suite("Uber: the vendor SDK's stored token")
struct UberVendorSessionTests {
    /// What UberAuth's `KeychainUtility.save` writes: `JSONEncoder().encode(AccessToken)` (scope as an array).
    static let vendorJSON =
        #"{"access_token":"vendor-access-token","refresh_token":"vendor-refresh-token","token_type":"Bearer","expires_in":2592000,"scope":["profile","history"]}"#

    @Test("A user logged in with UberAuth is logged in after the switch, offline; the vendor's item is removed once adopted")
    func adopted() async throws {
        let clock = ManualClock()
        let vendor = InMemoryVendorStore()
        await vendor.setGenericPassword(Data(Self.vendorJSON.utf8), service: "com.uber.uber-ios-sdk", account: "UberAccessTokenKey")
        let storage = InMemoryTokenStorage()
        let offline = InProcessTransport().adding(host: "auth.uber.com") { _ in throw URLError(.notConnectedToInternet) }
        let uber = makeUberAuth(TestIdentityProvider.uber(clock: clock), transport: offline, storage: storage, vendorStore: vendor)
        #expect(await uber.isLoggedIn)
        let credential = try #require(await uber.session()?.credential)
        #expect(credential.accessToken.reveal() == "vendor-access-token" && credential.refreshToken?.reveal() == "vendor-refresh-token")
        #expect(credential.scopes == ["profile", "history"] && credential.expiresAt == nil, "expires_in had no issue time: unknown")
        #expect(await vendor.isEmpty)
        try await uber.logout()
        #expect(await uber.isLoggedIn == false)
    }

    @Test("A string scope is read too; a damaged item is left in place; nothing is adopted over an existing session")
    func variants() async throws {
        let clock = ManualClock()
        let idp = TestIdentityProvider.uber(clock: clock)
        let stringScope = InMemoryVendorStore()
        await stringScope.setGenericPassword(Data(#"{"access_token":"a","scope":"profile history"}"#.utf8), service: "com.uber.uber-ios-sdk", account: "UberAccessTokenKey")
        let adopted = try #require(await makeUberAuth(idp, storage: InMemoryTokenStorage(), vendorStore: stringScope).session())
        #expect(await adopted.credential.scopes == ["profile", "history"])

        let damaged = InMemoryVendorStore()
        await damaged.setGenericPassword(Data("not json".utf8), service: "com.uber.uber-ios-sdk", account: "UberAccessTokenKey")
        #expect(try await makeUberAuth(idp, storage: InMemoryTokenStorage(), vendorStore: damaged).session() == nil)
        #expect(await damaged.isEmpty == false)

        let storage = InMemoryTokenStorage()
        let signedIn = makeUberAuth(idp, storage: storage, vendorStore: InMemoryVendorStore())
        _ = try await signedIn.login(context: AuthContext(authDestination: .inApp))
        let late = InMemoryVendorStore()
        await late.setGenericPassword(Data(Self.vendorJSON.utf8), service: "com.uber.uber-ios-sdk", account: "UberAccessTokenKey")
        let session = try #require(await makeUberAuth(idp, storage: storage, vendorStore: late).session())
        #expect(await session.credential.accessToken.reveal() != "vendor-access-token")
        #expect(await late.isEmpty == false)
    }
}

/// A backend written for the vendor SDK's code-only mode.
@Suite("Uber backend exchange")
struct UberBackendExchangeTests {
    @Test("Vendor vector (AuthorizationCodeAuthProviderTests:72-87): without PKCE on request, no code_challenge is sent, and the backend redeems the code without a verifier")
    func withoutPKCE() async throws {
        let clock = ManualClock()
        let idp = TestIdentityProvider.uber(clock: clock)
        let transport = RecordingTransport(idp.transport)
        let uber = makeUberAuth(idp, transport: transport)
        var context = AuthContext(authDestination: .inApp, shouldExchangeAuthCode: false)
        context.backendExchangeUsesPKCE = false
        let client = try await uber.login(context: context)
        let authorize = try #require(await transport.exchanges.first { $0.request.url?.path.hasSuffix("/authorize") == true }?.request.url)
        let names = Set(URLComponents(url: authorize, resolvingAgainstBaseURL: false)?.queryItems?.map(\.name) ?? [])
        #expect(!names.contains("code_challenge") && !names.contains("code_challenge_method"))
        #expect(names.contains("state"), "state still protects the callback")
        let code = try #require(client.authorizationCode)
        #expect(client.codeVerifier == nil && client.accessToken == nil)

        // The backend, as written for the vendor SDK: code, client_id, redirect_uri, grant_type — no code_verifier.
        var redeem = CapturedRequest(url: URL(string: "https://auth.uber.com/oauth/v2/token")!)
        redeem.httpMethod = "POST"
        redeem.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        redeem.httpBody = Data(
            FormEncoding.encode([
                ("code", code.reveal()), ("client_id", TestIdentityProvider.uberClientID),
                ("redirect_uri", TestIdentityProvider.uberRedirectURI.absoluteString),
                ("grant_type", "authorization_code")
            ]).utf8)
        #expect(await idp.handle(redeem).1.statusCode == 200)
    }

    @Test("The vendor-style backend mode (no PKCE) works on the default native route: the Uber app's callback carries state, and the backend redeems the code without a verifier")
    func vendorBackendModeThroughTheApp() async throws {
        let clock = ManualClock()
        let idp = TestIdentityProvider.uber(clock: clock)
        let apps = TestIdentityProvider.uberApps(installedSchemes: ["uber"], idp: idp)
        let uber = makeUberAuth(idp, apps: apps)
        await apps.onCallback { url in _ = uber.handle(url) }
        var context = AuthContext(shouldExchangeAuthCode: false)  // .native, the vendor's default destination
        context.backendExchangeUsesPKCE = false
        let client = try await uber.login(context: context)
        let opened = try #require(await apps.opened.first)
        #expect(opened.path == "/oauth/v2/riders/authorize", "handed off to the Uber app, not in app")
        let names = Set(URLComponents(url: opened, resolvingAgainstBaseURL: false)?.queryItems?.map(\.name) ?? [])
        #expect(!names.contains("code_challenge") && names.contains("state"))
        let code = try #require(client.authorizationCode)
        #expect(client.codeVerifier == nil && client.accessToken == nil)

        var redeem = CapturedRequest(url: URL(string: "https://auth.uber.com/oauth/v2/token")!)
        redeem.httpMethod = "POST"
        redeem.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        redeem.httpBody = Data(
            FormEncoding.encode([
                ("code", code.reveal()), ("client_id", TestIdentityProvider.uberClientID),
                ("redirect_uri", TestIdentityProvider.uberRedirectURI.absoluteString),
                ("grant_type", "authorization_code")
            ]).utf8)
        #expect(await idp.handle(redeem).1.statusCode == 200)
    }

    @Test("A login requested without PKCE is never exchanged in the app, and never takes a callback without state")
    func withoutPKCEStaysCodeOnly() async throws {
        let clock = ManualClock()
        let idp = TestIdentityProvider.uber(clock: clock)
        let client = AuthClient(
            provider: UberProvider(configuration: UberConfiguration(clientID: TestIdentityProvider.uberClientID, redirectURI: TestIdentityProvider.uberRedirectURI)),
            storage: InMemoryTokenStorage(), transport: idp.transport, clock: clock)
        var options = SignInOptions()
        options.omitsPKCEForBackendExchange = true
        let request = try await client.prepareSignIn(options: options)
        let stateless = await #expect(throws: AuthError.self) {
            _ = try await client.completeAuthorization(redirect: TestIdentityProvider.uberRedirectURI.appendingQuery([("code", "123")]))
        }
        #expect(stateless?.code == .missingState)
        let exchanged = await #expect(throws: AuthError.self) {
            _ = try await client.completeSignIn(redirect: TestIdentityProvider.uberRedirectURI.appendingQuery([("code", "123"), ("state", request.state)]))
        }
        #expect(exchanged?.code == .invalidConfiguration && exchanged?.message.contains("completeAuthorization") == true)
    }
}

/// What a migrating app sees of the vendor SDK, each pinned by a test, and the vendor's unit-test vectors.
@Suite("Uber vendor fidelity")
struct UberVendorFidelityTests {
    private func uber(installed: Set<String> = [], agent: (any UserAgent)? = nil) -> (UberAuth, TestIdentityProvider, RecordingTransport, EmulatedAppHandoff) {
        let clock = ManualClock()
        let idp = TestIdentityProvider.uber(clock: clock)
        let transport = RecordingTransport(idp.transport)
        let apps = TestIdentityProvider.uberApps(installedSchemes: installed, idp: idp)
        let uber = makeUberAuth(idp, transport: transport, agent: agent, apps: apps)
        return (uber, idp, transport, apps)
    }

    @Test("The vendor's .authorizationCode() exchanges the code by default (UberAuth 2.x: shouldExchangeAuthCode = true); AuthContext() is .native and exchanges too")
    func authorizationCodeFactoryExchangesByDefault() {
        let context = AuthContext()
        #expect(context.authDestination == .native && context.shouldExchangeAuthCode && context.backendExchangeUsesPKCE)
        let vendorShaped = AuthContext(authProvider: .authorizationCode())
        #expect(vendorShaped.authDestination == .native && vendorShaped.shouldExchangeAuthCode, "AuthProviding.authorizationCode(shouldExchangeAuthCode: Bool = true)")
        #expect(!AuthContext(authProvider: .authorizationCode(shouldExchangeAuthCode: false)).shouldExchangeAuthCode)
    }

    @Test("Uber's iOS SDK README's prefill example (.inApp, .authorizationCode(), prefill) logs in with tokens and stores them; the code is spent")
    func seedPrefillExampleStoresTokens() async throws {
        let clock = ManualClock()
        let idp = TestIdentityProvider.uber(clock: clock)
        let storage = InMemoryTokenStorage()
        let uber = makeUberAuth(idp, storage: storage)
        let prefill = Prefill(email: "jane@email.com", phoneNumber: "5555555555", firstName: "Jane", lastName: "Doe")
        let client = try await uber.login(context: AuthContext(authDestination: .inApp, authProvider: .authorizationCode(), prefill: prefill))
        #expect(client.accessToken != nil && client.authorizationCode == nil && client.codeVerifier == nil)
        #expect(await idp.tokenRequestsByGrant["authorization_code"] == 1)
        #expect(await !storage.isEmpty)
        #expect(await uber.isLoggedIn)
    }

    @Test("Any redirect URI is accepted, an https universal link included")
    func anyRedirect() throws {
        let configuration = try UberConfiguration(ProviderConfiguration(["Uber": ["ClientID": "c", "RedirectURI": "https://app.example.com/uber/callback"]]))
        #expect(configuration.redirectURI.absoluteString == "https://app.example.com/uber/callback")
    }

    @Test("The exchanged result carries token type, expires_in and the granted scope, and no refresh token for profile alone (Uber issues one only with offline_access)")
    func exchangedResultFieldsWithoutOfflineAccess() async throws {
        let (uber, _, transport, _) = uber()
        let client = try await uber.login(context: AuthContext(authDestination: .inApp))
        #expect(client.tokenType == "Bearer" && client.expiresIn == 3600)
        #expect(client.scope == ["profile"])
        #expect(client.refreshToken == nil)
        let token = try #require(await transport.exchanges(pathSuffix: "/oauth/v2/token").first)
        let body = try JSONValue.parseObject(token.responseBody)
        #expect(body["refresh_token"] == nil && body["scope"] == "profile", "the emulated server follows Uber's offline_access rule")
    }

    @Test("With offline_access in the scopes, Uber's token response carries a refresh token, and the session keeps it")
    func refreshTokenWithOfflineAccess() async throws {
        let clock = ManualClock()
        let idp = TestIdentityProvider.uber(clock: clock)
        var values = ProviderEmulator.uber(clock: clock).configuration.values
        var section = values["Uber"]?.objectValue ?? [:]
        section["Scopes"] = "profile offline_access"
        values["Uber"] = .object(section)
        let provider = try ProviderRegistry.builtIn.provider(named: "uber", configuration: ProviderConfiguration(values))
        let client = AuthClient(provider: provider, storage: InMemoryTokenStorage(), transport: idp.transport, clock: clock)
        let session = try await client.signIn(with: HeadlessUserAgent(transport: idp.transport))
        #expect(await session.credential.refreshToken != nil)
        #expect(await session.credential.scopes.contains("offline_access"))
    }

    @Test("With every app installed, .native hands off to Uber (rides) first")
    func defaultOrder() async throws {
        let (uber, _, _, apps) = uber(installed: ["uber", "ubereats", "uberdriver"])
        await apps.onCallback { url in _ = uber.handle(url) }
        _ = try await uber.login(context: AuthContext())
        #expect(await apps.opened.map(\.path) == ["/oauth/v2/riders/authorize"])
    }

    @Test("Prefill lastName is sent as last_name")
    func lastName() throws {
        let hint = Prefill(lastName: "Lovelace").loginHint
        let json = try JSONValue.parseObject(try #require(Data(base64Encoded: hint)))
        #expect(json == ["last_name": "Lovelace"])
    }

    @Test("A web agent's non-AuthError is still an AuthError (cancellation is cancelled)")
    func errorsAlwaysMapped() async throws {
        struct Cancelling: UserAgent { func authorize(_ request: AuthorizationRequest) async throws -> URL { throw CancellationError() } }
        struct Broken: UserAgent {
            struct Failure: Error {}
            func authorize(_ request: AuthorizationRequest) async throws -> URL { throw Failure() }
        }
        let cancelled = await #expect(throws: AuthError.self) { _ = try await uber(agent: Cancelling()).0.login(context: AuthContext(authDestination: .inApp)) }
        #expect(cancelled?.uberAuthError == .cancelled)
        let broken = await #expect(throws: AuthError.self) { _ = try await uber(agent: Broken()).0.login(context: AuthContext(authDestination: .inApp)) }
        #expect(broken?.code == .authorizationFailed && broken?.underlying != nil)
        let network = AuthError(.network, "x")
        #expect(network.uberAuthError == .other(network), "the vendor: a transport failure is .other(error)")
    }

    @Test("Vendor vectors (AuthorizeRequestTests, AuthorizationCodeAuthProviderTests): paths per app, query members, prompt encodings")
    func authorizeVectors() async throws {
        let configuration = UberConfiguration(clientID: "test_client_id", redirectURI: URL(string: "test://app")!)
        #expect(configuration.authorizeEndpoint("universal").absoluteString == "https://auth.uber.com/oauth/v2/universal/authorize")
        for (app, path) in [(UberApp.eats, "/oauth/v2/eats/authorize"), (.driver, "/oauth/v2/drivers/authorize"), (.rides, "/oauth/v2/riders/authorize")] {
            #expect(configuration.authorizeEndpoint(UberRoute.native(app).pathID).path == path)
        }
        // In app, prompt [.login, .consent] → prompt=login%20consent.
        let (inApp, _, transport, _) = uber()
        _ = try await inApp.login(context: AuthContext(authDestination: .inApp, prompt: [.consent, .login]))
        let authorize = try #require(await transport.exchanges.first { $0.request.url?.path.hasSuffix("/authorize") == true }?.request.url)
        #expect(authorize.path == "/oauth/v2/universal/authorize")
        #expect(authorize.query?.contains("prompt=login%20consent") == true)
        let names = Set(URLComponents(url: authorize, resolvingAgainstBaseURL: false)?.queryItems?.map(\.name) ?? [])
        #expect(names.isSuperset(of: ["response_type", "client_id", "code_challenge", "code_challenge_method", "redirect_uri", "prompt"]))
        // Native, prompt [.consent, .login] → prompt=consent.
        let (native, _, _, apps) = uber(installed: ["uber"])
        await apps.onCallback { url in _ = native.handle(url) }
        _ = try await native.login(context: AuthContext(authDestination: .native([.rides]), prompt: [.consent, .login]))
        let opened = try #require(await apps.opened.first)
        #expect(URLComponents(url: opened, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "prompt" }?.value == "consent")
    }

    @Test("Vendor vector (ParRequestTests): POST /oauth/v2/par with client_id, response_type=code and login_hint = base64(JSON of the prefill)")
    func parVector() async throws {
        let (uber, _, transport, _) = uber()
        let prefill = Prefill(email: "test@example.com", phoneNumber: "5555555555", firstName: "First", lastName: "Last")
        _ = try await uber.login(context: AuthContext(authDestination: .inApp, prefill: prefill))
        let par = try #require(await transport.exchanges(pathSuffix: "/oauth/v2/par").first)
        #expect(par.request.httpMethod == "POST")
        #expect(par.formParameters["client_id"] == TestIdentityProvider.uberClientID && par.formParameters["response_type"] == "code")
        let hint = try #require(par.formParameters["login_hint"])
        let json = try JSONValue.parseObject(try #require(Data(base64Encoded: hint)))
        #expect(json == ["email": "test@example.com", "phone": "5555555555", "first_name": "First", "last_name": "Last"])
    }
}

/// The vendor's LoginButton, its data source and delegate, through UberAuth.
@Suite("Uber LoginButton")
@MainActor
struct UberLoginButtonTests {
    final class Recorder: LoginButtonDataSource, LoginButtonDelegate {
        var context = AuthContext(authDestination: .native([.eats]), prompt: [.consent], prefill: Prefill(email: "a@b.c"))
        var logins: [Result<UberClient, UberAuthError>] = []
        var logouts: [Bool] = []
        func authContext(_ button: LoginButton) -> AuthContext { context }
        func loginButton(_ button: LoginButton, didLogoutWithSuccess success: Bool) { logouts.append(success) }
        func loginButton(_ button: LoginButton, didCompleteLoginWithResult result: Result<UberClient, UberAuthError>) { logins.append(result) }
    }

    /// A storage whose deletes fail, to surface a failed logout.
    actor UndeletableStorage: TokenStorage {
        let base = InMemoryTokenStorage()
        func credential(for key: StorageKey) async throws -> Credential? { await base.credential(for: key) }
        func store(_ credential: Credential, for key: StorageKey) async throws { await base.store(credential, for: key) }
        func removeCredential(for key: StorageKey) async throws { throw AuthError(.storageUnavailable, "locked") }
        func storedKeys() async throws -> [StorageKey] { await base.storedKeys() }
    }

    @Test("The data source's AuthContext drives the login through UberAuth (native app, prompt); the delegate gets the Client; the next tap logs out")
    func loginAndLogout() async throws {
        let idp = TestIdentityProvider.uber(clock: ManualClock())
        let apps = TestIdentityProvider.uberApps(installedSchemes: ["ubereats"], idp: idp)
        let uber = makeUberAuth(idp, apps: apps, storage: InMemoryTokenStorage())
        await apps.onCallback { url in _ = uber.handle(url) }
        let recorder = Recorder()
        let button = LoginButton()
        button.uberAuth = uber
        button.dataSource = recorder
        button.delegate = recorder
        await button.refresh()
        #expect(!button.isLoggedIn && button.title == "Sign in with Uber")

        await button.tap()
        #expect(await apps.opened.first?.path == "/oauth/v2/eats/authorize", "the data source's destination")
        guard case .success(let client)? = recorder.logins.last else {
            Issue.record("expected a login, got \(recorder.logins)")
            return
        }
        #expect(client.accessToken != nil && button.isLoggedIn && button.title == "Sign out")

        await button.tap()
        #expect(recorder.logouts == [true] && !button.isLoggedIn)
        #expect(await uber.isLoggedIn == false)
    }

    /// The `MyLoginButtonDataSource` of Uber's iOS SDK README, word for word: in app, `.authorizationCode()`, the full prefill.
    final class SeedDataSource: LoginButtonDataSource {
        func authContext(_ button: LoginButton) -> AuthContext {
            let prefill = Prefill(
                email: "jane@email.com",
                phoneNumber: "5555555555",
                firstName: "Jane",
                lastName: "Doe"
            )

            return AuthContext(
                authDestination: .inApp,
                authProvider: .authorizationCode(),
                prefill: prefill
            )
        }
    }

    @Test(
        "The LoginButtonDataSource of Uber's iOS SDK README (.inApp, .authorizationCode(), prefill) logs in with tokens against the emulator, stores them, and the button then shows Sign out"
    )
    func seedDataSourceShowsSignOut() async throws {
        let idp = TestIdentityProvider.uber(clock: ManualClock())
        let transport = RecordingTransport(idp.transport)
        let storage = InMemoryTokenStorage()
        let uber = makeUberAuth(idp, transport: transport, storage: storage)
        let dataSource = SeedDataSource()
        let recorder = Recorder()
        let button = LoginButton()
        button.uberAuth = uber
        button.dataSource = dataSource
        button.delegate = recorder
        await button.refresh()
        #expect(button.title == "Sign in with Uber")

        await button.tap()
        guard case .success(let client)? = recorder.logins.last else {
            Issue.record("expected a login, got \(recorder.logins)")
            return
        }
        #expect(client.accessToken != nil && client.authorizationCode == nil, "the vendor's factory exchanges the code")
        #expect(await transport.exchanges(pathSuffix: "/oauth/v2/par").count == 1, "the prefill was pushed")
        #expect(await !storage.isEmpty)
        #expect(await uber.isLoggedIn)
        #expect(button.isLoggedIn && button.title == "Sign out")
        withExtendedLifetime(dataSource) {}  // the button holds its data source weakly
    }

    @Test("A tap while a login waits for the Uber app is not ignored: the new login replaces the waiting one and the delegate hears only its result")
    func retryWhileWaitingForTheApp() async throws {
        let idp = TestIdentityProvider.uber(clock: ManualClock())
        let apps = TestIdentityProvider.uberApps(installedSchemes: ["ubereats"], idp: idp)
        let uber = makeUberAuth(idp, apps: apps, storage: InMemoryTokenStorage())
        await apps.onCallback { url in _ = uber.handle(url) }
        await apps.setNeverCallsBack(true)
        let recorder = Recorder()
        let button = LoginButton()
        button.uberAuth = uber
        button.dataSource = recorder
        button.delegate = recorder
        let firstTap = Task { await button.tap() }
        // Waiting, and the app opened (before the retry lets the app call back, so the first link is never answered).
        for _ in 0..<100_000 {
            if uber.appCallbacks.isWaiting, await !apps.opened.isEmpty { break }
            await Task.yield()
        }
        let opened = await apps.opened
        try #require(uber.appCallbacks.isWaiting && !opened.isEmpty)

        await apps.setNeverCallsBack(false)
        await button.tap()
        await firstTap.value
        #expect(recorder.logins.count == 1, "the replaced login is not reported: \(recorder.logins)")
        guard case .success(let client)? = recorder.logins.last else {
            Issue.record("expected a login, got \(recorder.logins)")
            return
        }
        #expect(client.accessToken != nil && button.isLoggedIn)
        #expect(await apps.opened.count == 2, "both logins went to the Uber Eats app")
    }

    @Test("A failed login reaches the delegate as UberAuthError; a failed logout as didLogoutWithSuccess false")
    func failures() async throws {
        let idp = TestIdentityProvider.uber(clock: ManualClock())
        let apps = TestIdentityProvider.uberApps(installedSchemes: [], idp: idp)
        let recorder = Recorder()
        recorder.context = AuthContext(authDestination: .inApp)
        let button = LoginButton()
        button.uberAuth = makeUberAuth(idp, apps: apps, storage: UndeletableStorage())
        button.dataSource = recorder
        button.delegate = recorder
        await idp.update { $0.authorizationError = ("access_denied", nil) }
        await button.tap()
        #expect(recorder.logins.last.flatMap { if case .failure(let error) = $0 { error } else { nil } } == .oAuth(.accessDenied))

        await idp.update { $0.authorizationError = nil }
        await button.tap()
        #expect(button.isLoggedIn)
        await button.tap()
        #expect(recorder.logouts == [false] && button.isLoggedIn, "the token is still stored: still logged in")
    }
}
