import AuthCore
import AuthEmulators
import AuthGOVUK
import AuthProviders
import AuthTesting
import Foundation
import GOVUKCompat
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// GOV.UK One Login's app side against the vendor's SDK (mobile-ios-authentication), its tests, and the vendor's own
/// app (mobile-ios-one-login-app), which signs in at GOV.UK's secure token service.
@Suite("GOV.UK One Login: faithful to mobile-ios-authentication")
struct GOVUKVendorFidelityTests {
    static let authorize = URL(string: "https://token.integration.account.gov.uk/authorize")!
    static let token = URL(string: "https://token.integration.account.gov.uk/token")!
    static let issuer = URL(string: "https://token.integration.account.gov.uk")!
    static let redirect = "https://app.example.gov.uk/oauth/redirect"

    @Test("The vendor README's configuration compiles — Scope enum, redirect and vector as text, no token endpoint")
    func seedConfiguration() throws {
        let url = Self.authorize
        let configuration = try GOVUKAppConfiguration(
            authorizationEndpoint: url,
            responseType: .code,
            scopes: [.openid, .email, .phone, .offline_access],
            clientID: "someClientID",
            prefersEphemeralWebSession: true,
            redirectURI: Self.redirect,
            vectorsOfTrust: "Cl.Cm.P0",
            locale: .en)
        #expect(configuration.tokenEndpoint == Self.token)
        #expect(configuration.scopes == [.openid, .email, .phone, .offline_access])
        #expect(configuration.scopeValues == ["openid", "email", "phone", "offline_access"])
        #expect(GOVUKAppConfiguration.Scope(rawValue: "profile") == .custom("profile"))
        let error = #expect(throws: AuthError.self) {
            try GOVUKAppConfiguration(authorizationEndpoint: url, clientID: "c", redirectURI: "someRedirectURI", vectorsOfTrust: "Cl.Cm")
        }
        #expect(error?.code == .invalidConfiguration)
    }

    @Test("The vendor's test vector (LoginSessionConfigurationTests): vtr, ui_locales and govuk_signin_session_id as the vendor writes them")
    func vendorTestVector() async throws {
        let configuration = try await GOVUKAppConfiguration(
            authorizationEndpoint: Self.authorize, tokenEndpoint: Self.token, clientID: "1234", redirectURI: Self.redirect,
            vectorsOfTrust: ["Cl.Cm.P0"], locale: .en, persistentSessionId: "123456789"
        )
        let parameters = GOVUKProvider(configuration: configuration).authorizationParameters(for: Self.request(configuration))
        #expect(parameters == ["vtr": #"["Cl.Cm.P0"]"#, "ui_locales": "en", "govuk_signin_session_id": "123456789"])
    }

    @Test("Several vectors are written as the vendor writes them; PCL200/PCL250 are accepted, unknown forms refused")
    func vectorsOfTrust() throws {
        let configuration = try GOVUKAppConfiguration(
            authorizationEndpoint: Self.authorize, tokenEndpoint: Self.token, clientID: "c", redirectURI: URL(string: Self.redirect)!,
            vectorsOfTrust: ["PCL200.Cl.Cm", "PCL250.Cl.Cm", "P2.Cl.Cm"]
        )
        #expect(configuration.vectorsOfTrustParameter == #"["PCL200.Cl.Cm", "PCL250.Cl.Cm", "P2.Cl.Cm"]"#)
        for bad in ["Cl.Cm.P22", "Cl.Cm.PCL", "Cl.Xyzw", "Cl..Cm", "cl.cm"] {
            #expect(throws: AuthError.self, "\(bad)") {
                try GOVUKAppConfiguration(
                    authorizationEndpoint: Self.authorize, tokenEndpoint: Self.token, clientID: "c",
                    redirectURI: URL(string: Self.redirect)!, vectorsOfTrust: [bad]
                )
            }
        }
    }

    /// Counts how often the app's token extras are computed.
    actor Counter {
        private(set) var value = 0
        func next() -> [String: String] {
            value += 1
            return ["attestation": "proof-\(value)"]
        }
    }

    @Test(
        "The vendor-shaped initializer computes token extras at each code exchange (AppAuthSessionAdditionalTests) and never sends them on refresh, which GOV.UK's token service refuses"
    )
    func tokenExtrasPerExchange() async throws {
        let clock = ManualClock()
        let idp = TestIdentityProvider.govUK(clock: clock)
        let transport = RecordingTransport(idp.transport)
        let counter = Counter()
        let configuration = try await GOVUKAppConfiguration(
            authorizationEndpoint: Self.authorize, tokenEndpoint: Self.token, issuer: Self.issuer, scopes: [.openid],
            clientID: TestIdentityProvider.govUKClientID, redirectURI: TestIdentityProvider.govUKRedirectURI.absoluteString,
            tokenParameters: await counter.next(),
            tokenHeaders: TestIdentityProvider.govUKAttestationHeaders
        )
        let storage = InMemoryTokenStorage()
        let login = OneLoginSession(configuration: configuration, storage: storage, transport: transport, logger: RecordingLogger(), clock: clock)
        for _ in 0..<2 { _ = try await login.present(with: HeadlessUserAgent(transport: idp.transport)) }
        let session = try #require(await login.session)
        let stored = await storage.credential(for: session.storageKey)
        let refusal = await #expect(throws: AuthError.self) { try await session.refresh() }
        #expect(refusal?.oauthError == "invalid_request" && refusal?.httpStatus == 400)
        let tokenRequests = await transport.exchanges.filter { $0.request.url?.path == "/token" }
        #expect(tokenRequests.map { $0.formParameters["attestation"] } == ["proof-1", "proof-2", nil])
        #expect(
            tokenRequests.map { $0.request.value(forHTTPHeaderField: "OAuth-Client-Attestation") }
                == ["emulated-client-attestation", "emulated-client-attestation", nil])
        #expect(await counter.value == 2)
        #expect(await storage.credential(for: session.storageKey)?.accessToken == stored?.accessToken, "the refused refresh stored nothing")
    }

    /// A web session that shows the page and never returns by itself: it ends only when its task is cancelled (the
    /// app closed it), and reports the request it was given.
    actor StallingWebSession: UserAgent {
        private(set) var request: AuthorizationRequest?
        private(set) var closed = false
        func authorize(_ request: AuthorizationRequest) async throws -> URL {
            self.request = request
            while !Task.isCancelled { await Task.yield() }
            closed = true
            throw AuthError(.userCancelled, "closed")
        }
    }

    @Test("On iOS 16–17.3 the universal link reaches the app, finalise(callback:) closes the web session, and present(with:) returns the same tokens")
    func appFinalisesAndClosesWebSession() async throws {
        let clock = ManualClock()
        let idp = TestIdentityProvider.govUK(clock: clock)
        let configuration = try await GOVUKAppConfiguration(
            authorizationEndpoint: Self.authorize, tokenEndpoint: Self.token, issuer: Self.issuer, scopes: [.openid],
            clientID: TestIdentityProvider.govUKClientID, redirectURI: TestIdentityProvider.govUKRedirectURI.absoluteString,
            tokenHeaders: TestIdentityProvider.govUKAttestationHeaders
        )
        let login = OneLoginSession(
            configuration: configuration, storage: InMemoryTokenStorage(), transport: idp.transport,
            logger: RecordingLogger(), clock: clock)
        let webSession = StallingWebSession()
        let presented = Task { try await login.present(with: webSession) }
        var request: AuthorizationRequest?
        for _ in 0..<10_000 where request == nil {
            request = await webSession.request
            await Task.yield()
        }
        // The user signs in; the callback arrives as a universal link in the scene delegate, not in the web session.
        let callback = try await HeadlessUserAgent(transport: idp.transport).authorize(try #require(request))
        let finalised = try await login.finalise(callback: callback)
        let returned = try await presented.value
        #expect(await webSession.closed, "the app closed the web session")
        #expect(finalised.accessToken == returned.accessToken && finalised.accessToken.reveal().isEmpty == false)
        let again = await #expect(throws: AuthError.self) { _ = try await login.finalise(callback: callback) }
        #expect(again?.code == .signInInProgress, "the callback is used once")
    }

    struct AttestationUnavailable: Error {}

    @Test("An attestation that cannot be computed fails the exchange before anything is sent; nothing stored")
    func tokenExtrasFailure() async throws {
        let clock = ManualClock()
        let idp = TestIdentityProvider.govUK(clock: clock)
        let configuration = try await GOVUKAppConfiguration(
            authorizationEndpoint: Self.authorize, tokenEndpoint: Self.token, scopes: [.openid],
            clientID: TestIdentityProvider.govUKClientID, redirectURI: TestIdentityProvider.govUKRedirectURI.absoluteString,
            tokenHeaders: try { () throws -> [String: String]? in throw AttestationUnavailable() }()
        )
        let storage = InMemoryTokenStorage()
        do {
            _ = try await OneLoginSession(configuration: configuration, storage: storage, transport: idp.transport, clock: clock).present(
                with: HeadlessUserAgent(transport: idp.transport))
            Issue.record("the sign-in succeeded")
        } catch let error as AuthError {
            #expect(error.code == .tokenRequestFailed)
            #expect(error.message.contains("nothing was sent"))
        }
        #expect(await idp.tokenRequestsByGrant.isEmpty)
        #expect(await storage.isEmpty)
    }

    @Test("present(configuration:) per call — this call's locale, the same storage")
    func presentWithConfiguration() async throws {
        let emulator = ProviderEmulator.govUK(clock: ManualClock())
        let storage = InMemoryTokenStorage()
        let login = OneLoginSession(
            configuration: try GOVUKAppConfiguration(dictionary: emulator.configuration),
            storage: storage, transport: emulator.transport, clock: emulator.clock)
        let welsh = try GOVUKAppConfiguration(dictionary: emulator.configuration.merging(["locale": "cy"]))
        let request = try await login.present(configuration: welsh)
        #expect(URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "ui_locales" }?.value == "cy")
        let tokens = try await login.finalise(callback: try await emulator.userAgent.authorize(request))
        #expect(tokens.idToken != nil)
        #expect(await storage.storedKeys().count == 1)
    }

    @Test("UserInfo decodes GOV.UK's documented JSON; a missing *_verified fails as the vendor's Codable type does")
    func userInfoDecoding() throws {
        let documented = Data(
            """
            {"sub": "urn:fdc:gov.uk:2022:56P4CMsGh_02YOlWpd8PAOI-2sVlB2nsNU7mcLZYhYw=", "email": "test@example.com",
             "email_verified": true, "phone_number": "+441406946277", "phone_number_verified": true, "updated_at": 1311280970}
            """.utf8)
        let decoded = try JSONDecoder().decode(UserInfo.self, from: documented)
        #expect(decoded.email == "test@example.com" && decoded.phoneNumberVerified && decoded.phoneNumber == "+441406946277")
        let object = try JSONValue.parseObject(documented)
        let claims = UserInfoClaims(subject: object["sub"]?.stringValue ?? "", claims: object)
        #expect(try UserInfo(claims) == decoded)

        for missing in ["email_verified", "phone_number_verified", "email"] {
            var changed = object
            changed[missing] = nil
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(UserInfo.self, from: try JSONValue.object(changed).jsonData()) }
            let error = #expect(throws: AuthError.self) { try UserInfo(UserInfoClaims(subject: "s", claims: changed)) }
            #expect(error?.code == .missingClaim)
            #expect(error?.message.contains("'\(missing)'") == true)
        }
    }

    /// What an app's tests substitute for the real services.
    struct StubUserService: UserServicing {
        func fetchUserInfo() async throws -> UserInfo {
            UserInfo(sub: "s", email: "e@example.gov.uk", emailVerified: true, phoneNumber: nil, phoneNumberVerified: false)
        }
    }

    /// An app's stand-in for the login session, written as the vendor app's tests write theirs
    /// (`Tests/UnitTests/Mocks/Sessions+Services/Authentication/MockLoginSession.swift` of mobile-ios-one-login-app).
    @MainActor
    final class MockLoginSession: GOVUKCompat.LoginSession {
        var sessionConfiguration: LoginSessionConfiguration?
        var didCallPerformLoginFlow = false
        var errorFromFinalise: (any Error)?
        var finalisedURL: URL?

        func performLoginFlow(configuration: LoginSessionConfiguration) async throws -> GOVUKCompat.TokenResponse {
            sessionConfiguration = configuration
            didCallPerformLoginFlow = true
            return GOVUKCompat.TokenResponse(
                accessToken: "access", refreshToken: "refresh", idToken: "id", tokenType: "Bearer",
                expiryDate: Date(timeIntervalSince1970: 1_800_000_000))
        }

        func finalise(redirectURL: URL) throws {
            finalisedURL = redirectURL
            if let errorFromFinalise { throw errorFromFinalise }
        }
    }

    /// App code written against the vendor's protocol: it signs in with whatever `LoginSession` it is given.
    @MainActor
    static func signIn(with session: any GOVUKCompat.LoginSession, configuration: LoginSessionConfiguration) async throws -> GOVUKCompat.TokenResponse {
        try await session.performLoginFlow(configuration: configuration)
    }

    @Test("An app's tests stub LoginSession and UserServicing as against the vendor's: performLoginFlow returns a TokenResponse, finalise(redirectURL:) throws")
    @MainActor
    func protocolsForStubs() async throws {
        let mock = MockLoginSession()
        let configuration = try GOVUKAppConfiguration(dictionary: ProviderEmulator.govUK().configuration)
        let tokens = try await Self.signIn(with: mock, configuration: configuration)
        #expect(mock.didCallPerformLoginFlow && mock.sessionConfiguration?.clientID == TestIdentityProvider.govUKClientID)
        #expect(tokens.accessToken.reveal() == "access" && tokens.refreshToken?.reveal() == "refresh" && tokens.tokenType == "Bearer")
        mock.errorFromFinalise = AuthError(.redirectMismatch, "not ours")
        #expect(throws: AuthError.self) { try mock.finalise(redirectURL: TestIdentityProvider.govUKRedirectURI) }
        #expect(mock.finalisedURL == TestIdentityProvider.govUKRedirectURI)

        let service: any UserServicing = StubUserService()
        #expect(try await service.fetchUserInfo().email == "e@example.gov.uk")
    }

    @Test("AppAuthSession is the real LoginSession: finalise(redirectURL:) from the scene delegate completes performLoginFlow and closes the web session")
    @MainActor
    func appAuthSessionFinalisesWithRedirectURL() async throws {
        let emulator = ProviderEmulator.govUK(clock: ManualClock())
        let configuration = try GOVUKAppConfiguration(dictionary: emulator.configuration)
        let storage = InMemoryTokenStorage()
        let webSession = StallingWebSession()
        let login = AppAuthSession(
            session: OneLoginSession(
                configuration: configuration, storage: storage, transport: emulator.transport,
                clock: emulator.clock),
            userAgent: webSession)
        let idle = #expect(throws: AuthError.self) { try login.finalise(redirectURL: TestIdentityProvider.govUKRedirectURI) }
        #expect(idle?.code == .signInInProgress, "no login in progress")
        let flow = Task { @MainActor in try await Self.signIn(with: login, configuration: configuration) }
        var request: AuthorizationRequest?
        for _ in 0..<10_000 where request == nil {
            request = await webSession.request
            await Task.yield()
        }
        let callback = try await emulator.userAgent.authorize(try #require(request))
        try login.finalise(redirectURL: callback)
        let tokens = try await flow.value
        #expect(tokens.idToken != nil && tokens.refreshToken != nil)
        #expect(await webSession.closed, "finalise closed the web session")
        #expect(await storage.storedKeys().count == 1)
    }

    @Test("An issuer configured with a trailing slash the ID token's iss lacks still signs in and refreshes")
    func refreshWithTrailingSlashDifference() async throws {
        let emulator = ProviderEmulator.govUK(clock: ManualClock())
        let configuration = try GOVUKAppConfiguration(dictionary: emulator.configuration.merging(["issuer": "https://token.integration.account.gov.uk/"]))
        let client = AuthClient(provider: GOVUKProvider(configuration: configuration), transport: emulator.transport, clock: emulator.clock)
        let session = try await client.signIn(with: emulator.userAgent)
        let before = await session.credential.accessToken
        let refreshed = try await session.refresh()
        #expect(refreshed.accessToken != before)
        #expect(await session.idTokenClaims?.issuer == "https://token.integration.account.gov.uk")
    }

    static func request(_ configuration: GOVUKAppConfiguration) -> SignInContext {
        SignInContext(
            options: SignInOptions(),
            metadata: ProviderMetadata(issuer: issuer.absoluteString, authorizationEndpoint: authorize, tokenEndpoint: token),
            scopes: configuration.scopeValues,
            redirectURI: configuration.redirectURI
        )
    }
}

extension ProviderConfiguration {
    /// This configuration with `changes` applied.
    func merging(_ changes: [String: JSONValue]) -> ProviderConfiguration {
        ProviderConfiguration(values.merging(changes) { _, new in new })
    }
}
