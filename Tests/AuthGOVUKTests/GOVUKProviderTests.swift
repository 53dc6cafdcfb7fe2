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

@Suite("GOV.UK One Login")
struct GOVUKProviderTests {
    private struct Harness {
        let emulator: ProviderEmulator
        let transport: RecordingTransport
        let client: AuthClient
        let login: OneLoginSession
    }

    private func harness(_ change: (inout ProviderConfiguration) -> Void = { _ in }) throws -> Harness {
        let emulator = ProviderEmulator.govUK(clock: ManualClock())
        var configuration = emulator.configuration
        change(&configuration)
        let transport = RecordingTransport(emulator.transport)
        let login = OneLoginSession(
            configuration: try GOVUKAppConfiguration(dictionary: configuration), storage: InMemoryTokenStorage(),
            transport: transport, logger: RecordingLogger(), clock: emulator.clock)
        return Harness(emulator: emulator, transport: transport, client: login.authClient, login: login)
    }

    // MARK: Configuration

    @Test("Defaults: scopes, vectors of trust, locale, ephemeral session")
    func defaults() throws {
        let configuration = try GOVUKAppConfiguration(
            authorizationEndpoint: URL(string: "https://oidc.account.gov.uk/authorize")!,
            tokenEndpoint: URL(string: "https://oidc.account.gov.uk/token")!,
            clientID: "client",
            redirectURI: URL(string: "https://app.example.gov.uk/redirect")!
        )
        #expect(configuration.scopes == ["openid", "email", "phone", "offline_access"])
        #expect(configuration.vectorsOfTrust == ["Cl.Cm.P0"])
        #expect(configuration.locale == .en)
        #expect(configuration.prefersEphemeralWebSession)
        #expect(configuration.effectiveIssuer.absoluteString == "https://oidc.account.gov.uk/")
        #expect(configuration.vectorsOfTrustParameter == #"["Cl.Cm.P0"]"#)
    }

    @Test("An environment in a dictionary means GOV.UK's token service, as the preset: its endpoints, scope openid, extras on refresh")
    func environments() throws {
        let fromDictionary = try GOVUKAppConfiguration(
            dictionary: ProviderConfiguration([
                "environment": "production", "clientID": "c", "redirectURI": "https://a.example/r", "locale": "cy"
            ]))
        #expect(fromDictionary.authorizationEndpoint.absoluteString == "https://token.account.gov.uk/authorize")
        #expect(fromDictionary.tokenEndpoint.absoluteString == "https://token.account.gov.uk/token")
        #expect(fromDictionary.jwksEndpoint?.absoluteString == "https://token.account.gov.uk/.well-known/jwks.json")
        #expect(fromDictionary.effectiveIssuer.absoluteString == "https://token.account.gov.uk")
        #expect(fromDictionary.scopes == [.openid] && fromDictionary.sendsTokenExtrasOnRefresh)
        #expect(fromDictionary.locale == .cy)
    }

    @Test("Each invalid key is its own clear error")
    func invalidConfigurations() {
        let cases: [([String: JSONValue], AuthError.Code, String)] = [
            (["environment": "production", "redirectURI": "https://a.example/r"], .missingConfigurationKey, "clientID"),
            (["environment": "production", "clientID": "c"], .missingConfigurationKey, "redirectURI"),
            (["clientID": "c", "redirectURI": "https://a.example/r"], .missingConfigurationKey, "authorizationEndpoint"),
            (["environment": "production", "clientID": "c", "redirectURI": "com.example:/r"], .invalidConfiguration, "https"),
            (["environment": "production", "clientID": "c", "redirectURI": "https://a.example/r", "locale": "fr"], .invalidConfiguration, "'en' or 'cy'"),
            (["environment": "production", "clientID": "c", "redirectURI": "https://a.example/r", "vectorsOfTrust": ["Cl.Cm", "X9"]], .invalidConfiguration, "'vectorsOfTrust'"),
            (["environment": "production", "clientID": "c", "redirectURI": "https://a.example/r", "scopes": "email"], .invalidConfiguration, "openid"),
            (["environment": "staging", "clientID": "c", "redirectURI": "https://a.example/r"], .invalidConfiguration, "production or integration"),
            (["environment": "production", "clientID": "c", "redirectURI": "https://a.example/r", "responseType": "token"], .invalidConfiguration, "'code'")
        ]
        for (values, code, fragment) in cases {
            let error = #expect(throws: AuthError.self) { try ProviderRegistry.builtIn.provider(named: "govuk", configuration: ProviderConfiguration(values)) }
            #expect(error?.code == code, "\(values)")
            #expect(error?.message.contains(fragment) == true, "\(error?.message ?? "") should mention \(fragment)")
            #expect(error?.providerID == "govuk")
        }
    }

    // MARK: Authorization request

    @Test("vtr is the JSON array text, ui_locales the locale, govuk_signin_session_id only when set")
    func authorizationParameters() async throws {
        let plain = try harness()
        let request = try await plain.login.present()
        let query = try #require(URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.percentEncodedQuery)
        #expect(query.contains("vtr=%5B%22Cl.Cm.P0%22%5D"))
        let decoded = Dictionary(FormEncoding.decode(query), uniquingKeysWith: { a, _ in a })
        #expect(decoded["vtr"] == #"["Cl.Cm.P0"]"#)
        #expect(decoded["ui_locales"] == "en")
        #expect(decoded["govuk_signin_session_id"] == nil)
        #expect(decoded["scope"] == "openid")  // what GOV.UK's app asks its token service for
        #expect(request.prefersEphemeralSession)

        let welsh = try harness {
            $0["locale"] = "cy"
            $0["persistentSessionId"] = "persistent-123"
            $0["vectorsOfTrust"] = ["P2.Cl.Cm", "Cl.Cm"]
            $0["prefersEphemeralWebSession"] = false
        }
        let second = try await welsh.login.present()
        let params = Dictionary(FormEncoding.decode(second.url.query ?? ""), uniquingKeysWith: { a, _ in a })
        #expect(params["vtr"] == #"["P2.Cl.Cm", "Cl.Cm"]"#)  // the vendor writes Swift's array description
        #expect(params["ui_locales"] == "cy")
        #expect(params["govuk_signin_session_id"] == "persistent-123")
        #expect(!second.prefersEphemeralSession)
    }

    // MARK: present / finalise

    @Test("present then finalise(callback:) returns validated tokens; UserService reads the user from the verified ID token (the token service has no /userinfo)")
    func presentAndFinalise() async throws {
        let harness = try harness()
        let request = try await harness.login.present()
        let callback = try await harness.emulator.userAgent.authorize(request)
        let tokens = try await harness.login.finalise(callback: callback)
        #expect(tokens.tokenType == "Bearer")
        #expect(tokens.refreshToken != nil)
        #expect(tokens.idToken != nil)
        #expect(tokens.expiryDate != nil)

        let session = try #require(await harness.login.session)
        let claims = try #require(await session.idTokenClaims)
        #expect(claims["vot"]?.stringValue == "Cl.Cm")
        #expect(claims.issuer == "https://token.integration.account.gov.uk")

        let user = try await UserService(session: session).fetchUserInfo()
        #expect(
            user
                == UserInfo(
                    sub: "urn:fdc:gov.uk:2022:emulated-user", email: "citizen@example.gov.uk", emailVerified: true,
                    phoneNumber: nil, phoneNumberVerified: false))
        #expect(await harness.transport.exchanges(pathSuffix: "/userinfo").isEmpty, "GOV.UK's token service has no user-info endpoint")
        // No discovery document was ever requested.
        #expect(await harness.transport.exchanges(pathSuffix: "openid-configuration").isEmpty)
    }

    @Test("A callback that does not belong to the session is invalidRedirectURL with 'error: description'")
    func foreignCallback() async throws {
        let harness = try harness()
        let request = try await harness.login.present()
        let foreign = request.redirectURI.appendingQuery([("error", "access_denied"), ("error_description", "User declined"), ("state", "other")])
        let error = await #expect(throws: AuthError.self) { _ = try await harness.login.finalise(callback: foreign) }
        #expect(error?.govUKLoginError == .invalidRedirectURL(reason: "access_denied: User declined"))
        let wrongPlace = URL(string: "https://attacker.example/redirect?code=x&state=\(request.state)")!
        let second = await #expect(throws: AuthError.self) { _ = try await harness.login.finalise(callback: wrongPlace) }
        #expect(second?.govUKLoginError == .invalidRedirectURL(reason: "The callback does not belong to this login session."))
        #expect(await harness.transport.exchanges(pathSuffix: "/token").isEmpty)
    }

    @Test("finalise without present is an error")
    func finaliseWithoutPresent() async throws {
        let harness = try harness()
        let error = await #expect(throws: AuthError.self) {
            _ = try await harness.login.finalise(callback: TestIdentityProvider.govUKRedirectURI)
        }
        #expect(error?.code == .signInInProgress)
    }

    @Test("A token response without expires_in is refused and nothing is stored")
    func expiryRequired() async throws {
        let harness = try harness()
        let stripping = InProcessTransport().adding(host: "token.integration.account.gov.uk") { request in
            let (data, response) = try await harness.emulator.transport.send(request)
            guard request.url?.path == "/token", var body = try? JSONValue.parseObject(data) else { return (data, response) }
            body["expires_in"] = nil
            return (try JSONValue.object(body).jsonData(), response)
        }
        let storage = InMemoryTokenStorage()
        let configuration = try GOVUKAppConfiguration(dictionary: harness.emulator.configuration)
        let error = await #expect(throws: AuthError.self) {
            _ = try await OneLoginSession(configuration: configuration, storage: storage, transport: stripping, clock: harness.emulator.clock)
                .present(with: HeadlessUserAgent(transport: stripping))
        }
        #expect(error?.code == .invalidResponse)
        #expect(await storage.isEmpty)
    }

    @Test("Extra token parameters and headers are sent")
    func tokenExtras() async throws {
        let harness = try harness {
            $0["tokenParameters"] = ["app_integrity": "attested"]
            $0["tokenHeaders"] = .object(
                TestIdentityProvider.govUKAttestationHeaders.mapValues { .string($0) }
                    .merging(["X-Client-Attestation": "attestation-jwt"]) { old, _ in old })
        }
        _ = try await harness.login.present(with: harness.emulator.userAgent)
        let token = try #require(await harness.transport.exchanges(pathSuffix: "/token").first)
        #expect(token.formParameters["app_integrity"] == "attested")
        #expect(token.request.value(forHTTPHeaderField: "X-Client-Attestation") == "attestation-jwt")
    }

    @Test("The emulator rejects an authorization request without a valid vtr")
    func emulatorIsStrict() async throws {
        let idp = TestIdentityProvider.govUK(clock: ManualClock())
        let pkce = PKCE.generate()
        var base: [(String, String)] = [
            ("client_id", TestIdentityProvider.govUKClientID), ("redirect_uri", TestIdentityProvider.govUKRedirectURI.absoluteString),
            ("response_type", "code"), ("scope", "openid email"), ("state", "s"), ("nonce", "n"),
            ("code_challenge", pkce.challenge), ("code_challenge_method", "S256"), ("ui_locales", "en")
        ]
        for (vtr, accepted) in [(nil, false), ("Cl.Cm", false), (#"["Cl.Cm"]"#, true)] as [(String?, Bool)] {
            var query = base
            if let vtr { query.append(("vtr", vtr)) }
            var request = CapturedRequest(url: idp.endpoint("/authorize").appendingQuery(query))
            request.httpMethod = "GET"
            let location = await idp.handle(request).1.value(forHTTPHeaderField: "Location") ?? ""
            #expect(location.contains("code=") == accepted, "vtr \(vtr ?? "absent")")
        }
        base.removeAll { $0.0 == "ui_locales" }
        var request = CapturedRequest(url: idp.endpoint("/authorize").appendingQuery(base + [("vtr", #"["Cl.Cm"]"#)]))
        request.httpMethod = "GET"
        #expect(await idp.handle(request).1.value(forHTTPHeaderField: "Location")?.contains("error=invalid_request") == true)
    }

    @Test("User info for another subject is rejected (a configuration that names a user-info endpoint)")
    func userInfoSubjectMismatch() async throws {
        let harness = try harness { $0["userInfoEndpoint"] = "https://token.integration.account.gov.uk/userinfo" }
        _ = try await harness.login.present(with: harness.emulator.userAgent)
        // Tamper with the user info response through a hostile transport in front of the emulator.
        let hostile = InProcessTransport().adding(host: "token.integration.account.gov.uk") { request in
            let (data, response) = try await harness.emulator.transport.send(request)
            guard request.url?.path == "/userinfo" else { return (data, response) }
            return (Data(#"{"sub":"someone-else","email":"x@example.com"}"#.utf8), .make(status: 200, headers: ["Content-Type": "application/json"]))
        }
        let client = AuthClient(provider: harness.client.provider, storage: harness.client.storage, transport: hostile, clock: harness.emulator.clock)
        let restored = try #require(try await client.restoreSession())
        let error = await #expect(throws: AuthError.self) { _ = try await UserService(session: restored).fetchUserInfo() }
        #expect(error?.code == .subjectMismatch)
    }

    @Test("AuthError maps to the vendor's LoginError kinds")
    func errorMapping() {
        let cases: [(AuthError, LoginError)] = [
            (AuthError(.userCancelled, "x"), .userCancelled),
            (AuthError(.network, "x"), .network),
            (AuthError(.serverError, "x"), .serverError),
            (AuthError(.authorizationFailed, "x", oauthError: "access_denied"), .authorization(.accessDenied)),
            (AuthError(.authorizationFailed, "x", oauthError: "weird"), .authorization(.unknown)),
            (AuthError(.invalidGrant, "x", oauthError: "invalid_grant"), .token(.invalidGrant)),
            (AuthError(.tokenRequestFailed, "x", oauthError: "invalid_client"), .token(.invalidClient)),
            (AuthError(.invalidSignature, "x"), .token(.clientError)),
            (AuthError(.stateMismatch, "reason"), .invalidRedirectURL(reason: "reason")),
            (AuthError(.storageFailed, "disk"), .generic(description: "disk"))
        ]
        for (error, expected) in cases { #expect(error.govUKLoginError == expected, "\(error.code)") }
    }

    @Test("Registered by id in the built-in registry")
    func registry() throws {
        #expect(ProviderRegistry.builtIn.providerIDs.contains("govuk"))
        let provider = try ProviderRegistry.builtIn.provider(named: "GOVUK", configuration: ProviderEmulator.govUK().configuration)
        #expect(provider is GOVUKProvider)
        #expect(type(of: provider).displayName == "GOV.UK One Login")
    }
}

@Suite("GOVUKProvider conformance")
struct GOVUKProviderConformanceTests {
    @Test("Passes the provider conformance suite against its emulator")
    func conformance() async throws {
        let report = try await ProviderConformance.check(GOVUKProvider.self, emulator: .govUK(clock: ManualClock()))
        #expect(report.passed.contains("PKCE S256") && report.passed.contains("replayed redirect refused"))
        #expect(report.passed.contains("sign-out clears storage") && report.passed.contains("no secrets logged"))
    }
}
