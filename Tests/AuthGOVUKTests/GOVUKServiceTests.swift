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

/// GOV.UK One Login for a government web service, against the emulator that answers like GOV.UK's simulator.
@Suite("GOV.UK One Login for services")
struct GOVUKServiceTests {
    private struct Harness {
        let idp: TestIdentityProvider
        let clock: ManualClock
        let transport: RecordingTransport
        let storage: InMemoryTokenStorage
        let client: AuthClient

        func signIn() async throws -> Session {
            try await client.signIn(with: HeadlessUserAgent(transport: transport))
        }
    }

    private func harness(_ change: (inout [String: JSONValue]) -> Void = { _ in }) throws -> Harness {
        let clock = ManualClock()
        let idp = TestIdentityProvider.govUKService(clock: clock)
        var values = ProviderEmulator.govUKService(clock: clock).configuration.values
        change(&values)
        let provider = try ProviderRegistry.builtIn.provider(named: "govuk", configuration: ProviderConfiguration(values))
        let transport = RecordingTransport(idp.transport)
        let storage = InMemoryTokenStorage()
        let client = AuthClient(provider: provider, storage: storage, transport: transport, logger: RecordingLogger(), clock: clock)
        return Harness(idp: idp, clock: clock, transport: transport, storage: storage, client: client)
    }

    private func authError(_ body: () async throws -> Void) async -> AuthError? {
        do {
            try await body()
            return nil
        } catch {
            return error as? AuthError
        }
    }

    // MARK: Configuration

    @Test("A configuration with a private key is a service: GOVUKServiceProvider with private_key_jwt, vtr, claims")
    func serviceConfiguration() throws {
        let provider = try #require(try harness().client.provider as? GOVUKServiceProvider)
        #expect(provider.client.authenticationMethod == .privateKeyJWT)
        #expect(provider.configuration.vectorsOfTrust == [VectorOfTrust(.medium, .p2)])
        #expect(provider.configuration.identityClaims == [.coreIdentity, .address, .returnCode])
        #expect(provider.configuration.didController == "did:web:oidc.integration.account.gov.uk")
        let metadata = ProviderMetadata(
            issuer: "https://oidc.integration.account.gov.uk/",
            authorizationEndpoint: URL(string: "https://oidc.integration.account.gov.uk/authorize")!,
            tokenEndpoint: URL(string: "https://oidc.integration.account.gov.uk/token")!
        )
        let request = SignInContext(options: SignInOptions(), metadata: metadata, scopes: provider.client.scopes, redirectURI: provider.client.redirectURI)
        let parameters = provider.authorizationParameters(for: request)
        #expect(parameters["vtr"] == #"["Cl.Cm.P2"]"#)
        #expect(parameters["ui_locales"] == "en")
        let claims = try JSONValue.parseObject(Data(try #require(parameters["claims"]).utf8))
        #expect(
            Set(claims["userinfo"]?.objectValue?.keys.map { $0 } ?? []) == [
                "https://vocab.account.gov.uk/v1/coreIdentityJWT", "https://vocab.account.gov.uk/v1/address",
                "https://vocab.account.gov.uk/v1/returnCode"
            ])
        // Without key material the same id builds the app provider.
        let app = try ProviderRegistry.builtIn.provider(named: "govuk", configuration: ProviderEmulator.govUK().configuration)
        #expect(app is GOVUKProvider)
    }

    @Test("The real environments: issuer with its trailing slash, the identity issuer and the DID document")
    func environments() throws {
        let key = try ClientSigningKey(pem: GOVUKServiceKeys.clientKeyPEM, algorithm: .rs256)
        let configuration = try GOVUKServiceConfiguration(
            environment: .integration, clientID: "service", clientAuthentication: .privateKey(key),
            redirectURI: URL(string: "https://service.gov.uk/callback")!, vectorsOfTrust: [VectorOfTrust(.medium, .p2)],
            identityClaims: [.coreIdentity]
        )
        #expect(configuration.issuer.absoluteString == "https://oidc.integration.account.gov.uk/")
        #expect(configuration.identityIssuer == "https://identity.integration.account.gov.uk/")
        #expect(configuration.didDocumentURL.absoluteString == "https://identity.integration.account.gov.uk/.well-known/did.json")
        #expect(configuration.didController == "did:web:identity.integration.account.gov.uk")
        let production = try GOVUKServiceConfiguration(
            dictionary: ProviderConfiguration([
                "environment": "production", "client_id": "service", "client_secret": "s", "redirect_uri": "https://service.gov.uk/cb"
            ]))
        #expect(production.issuer.absoluteString == "https://oidc.account.gov.uk/")
        #expect(production.vectorsOfTrust == [VectorOfTrust(.medium)])
        guard case .clientSecret = production.clientAuthentication else {
            Issue.record("a client secret configures client_secret_post")
            return
        }
        #expect(GOVUKServiceProvider(configuration: production).client.authenticationMethod == .clientSecretPost)
    }

    @Test("What GOV.UK One Login would refuse is a configuration error that says what to fix")
    func configurationErrors() throws {
        let base: [String: JSONValue] = [
            "environment": "integration", "client_id": "service", "private_key": .string(GOVUKServiceKeys.clientKeyPEM),
            "redirect_uri": "https://service.gov.uk/callback"
        ]
        let cases: [([String: JSONValue], [String], String)] = [
            (["client_secret": "s", "vtr": ["Cl.Cm.P2"]], ["private_key"], "private_key_jwt"),
            (["scope": "openid email offline_access"], [], "offline_access"),
            (["vtr": ["Cl.Cm.P2", "Cl.Cm"]], [], "mix identity"),
            (["vtr": ["Cl.P2"]], [], "without Cl.Cm"),
            (["vtr": ["Cl.Cm.P5"]], [], "unknown level"),
            (["vtr": ["Cl.Cm.P1.P2"]], [], "more than one"),
            (["vtr": ["Cl.Cm.X9"]], [], "neither Cl, Cm"),
            (["claims": ["coreIdentityJWT"]], [], "come only with identity"),
            (["claims": ["shoeSize"], "vtr": ["Cl.Cm.P2"]], [], "Unknown GOV.UK identity claim"),
            (["private_key_alg": "ES256"], [], "as ES256 needs"),
            (["redirect_uri": "http://service.gov.uk/callback"], [], "must be https"),
            ([:], ["private_key"], "private key"),
            ([:], ["environment"], "'environment'")
        ]
        for (changes, removals, expected) in cases {
            var values = base
            for (key, value) in changes { values[key] = value }
            for key in removals { values[key] = nil }
            let error = #expect(throws: AuthError.self, "\(changes) \(removals)") {
                try GOVUKServiceConfiguration(dictionary: ProviderConfiguration(values))
            }
            #expect(error?.message.contains(expected) == true, "\(error?.message ?? "") lacks \(expected)")
            #expect(error?.message.contains("PRIVATE KEY") == false)
        }
        // An EC key is a valid client key elsewhere, but GOV.UK accepts RSA assertions only.
        let ecKey = try ClientSigningKey(pem: Self.testOnlyP256PEM, algorithm: .es256)
        let error = #expect(throws: AuthError.self) {
            try GOVUKServiceConfiguration(
                environment: .integration, clientID: "s", clientAuthentication: .privateKey(ecKey),
                redirectURI: URL(string: "https://service.gov.uk/cb")!
            )
        }
        #expect(error?.message.contains("not ES256") == true)
    }

    /// TEST ONLY. A P-256 key made for this test; it protects nothing.
    static let testOnlyP256PEM = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgBkEfhgArWlMn29e9
        BvQLHo/aSaGp2bO2+qDIo7N5ujihRANCAAQvcX2SOmrKoOFqopLR0OIt80fA5mmP
        T5NY9VuZBr8HfeB6wpJjh5UFElMe6guD4RdQp0aILBkNwF3EJfh4HTXz
        -----END PRIVATE KEY-----
        """

    /// TEST ONLY. An RSA key made for this test and registered nowhere; it protects nothing.
    static let testOnlyUnregisteredRSAPEM = """
        -----BEGIN PRIVATE KEY-----
        MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCwMOjVOZzgder3
        Y2aCEZnAY5Laf7JRKWxj4dN49X99T9/b4GqRiBrTHwXGtMl1gmFlBQfU0WIcQQEW
        z2HyJ9X6U0zFVng1hr+k5QkaxCFt4xR6GTRgFwW6G8Z4eL2WSSLcGXt14E5EY05l
        nN8vGKNuR5TNnS5jkn/NAo22FzYMZDftkTXn1Q/C0O+cXQtMRPxKbxqUDE69skDs
        1O1uV+TufUetsZ8ZisiyU0/G+WM6X1/TBBtx705c/+O9YfbThehpzVO9eQHiZdSv
        CLqLC3wklvLQwO6KurPbBPLCcofdt5YcgX8IZgeRbH1K2UX4nNB9nmH6NgqUwHrd
        tS3MhCqdAgMBAAECggEAH7OtMTB8maad8IViHGUuVP+VnNr9Kr1ZU19+vXTuy41j
        qhxnEGh86x/Z2jcNSKd8/sA4+IH0NUE9AO2vofKo/bGfTqKQXpEwSmsriDViDnOd
        a5q9YczCqwn0XBjdg/0E2LV9EWiarJNxt7bSMZctUNpwW868Wg4yEKE0/l6Oywuw
        1uBHwpEIPO3nllR3Q5HOwhlXhhModcrF0pukzk4Cgh8a8HMTBP/xiaR4dqz0CSEJ
        VeufWkBTeZH2Y2gJR+rSKOAIUZRvwjeG3bz1OmEEqLWNwngzjLXrWvbBP3ntZ/U3
        wGGG6VwZmj2xtcnRNHY04VY9Hm/pYbxvee8WHD4YAQKBgQDVTqEPWlXnv/ZREETP
        mnqW15mORmRDZRc8aYpjuxSEXL19DCgZLWEyPsgKE0tO7jb1RWBfE4muB/RlLfe7
        ae8Xls1QDoNCkZ7L3HMH9vd4MrOUjRXASob6Xn3yrCemZ3GB3b4TVkLQQEBqql/p
        GtgsU+e0BsxozomYeAQdr2D1fQKBgQDTdIldBohM3/w28ZuV1QYXNYYkdQXcmzoz
        dmg/2F50BLA5clcU22zVHUUPnridXs4M9se/BSJJ+TmxgTUoqAYY/l8p233hjySf
        dcIYMaQwMe1NEd4cbdjj2C7ayO/xDVDadnxm8aNTUKqY+jBEPdMG/r9lmYMqmJWv
        i5We+k+ToQKBgQDUOSrdT49wx/iVpo4Pzy5wrYlFmJtgwk9f99GMcDF1j5+nrlSm
        2BOAHh6Ah7nBihh75s5/Sb0NvTRXBmkXucn7ujoDkKzfqmpHgcmg/wIwQKGTBtvB
        OWUZ7LF6o/W/BeRUxP2713MaJxLwDRrnnaG+WKyK3Mi67eLQI3hU4IyjMQKBgEA/
        05EBcB6znAXxyY1wKaaZq8WeDQbn33pNiwWDL8feuNDrrgv3VA05FIfXeU7PxJnp
        ze17mNyTLnWBxe4xh5DGkZG9UHVdsgoFlNEXHEVMlkbpm+xVcCZixHHTxhwfKKcI
        g2ogF7kz9HIA6vOBOYKRmwQ67cDelfS929tvQQihAoGAdSLvAWo1tnAmfimWY5hg
        mpfnHkQIO/0Hlf2pEj64KV4H+l+w3xgBAmoXsrmvgPonvXFDgfWdRePyUfgHK1Vi
        Dcd/vEN05Ph21usA/mkx/4THnFDK/6yvqzvQe93f/joHFYo07zL47eqTMpBbY6q0
        5yhh1O0L6n7GzXfOhYNwCDA=
        -----END PRIVATE KEY-----
        """

    // MARK: The emulator answers like GOV.UK's simulator

    @Test("Discovery as the simulator serves it: trailing-slash issuer, cacheable, authorization_code only, no revocation")
    func discoveryDocument() async throws {
        let harness = try harness()
        let (data, response) = try await harness.transport.send(CapturedRequest(url: harness.idp.endpoint("/.well-known/openid-configuration")))
        let document = try JSONValue.parseObject(data)
        #expect(document["issuer"] == "https://oidc.integration.account.gov.uk/")
        #expect(document["token_endpoint"] == "https://oidc.integration.account.gov.uk/token")
        #expect(document["grant_types_supported"] == ["authorization_code"])
        #expect(document["token_endpoint_auth_methods_supported"] == ["private_key_jwt", "client_secret_post"])
        #expect(document["request_parameter_supported"] == true)
        #expect(document["ui_locales_supported"] == ["en", "cy"])
        #expect(document["revocation_endpoint"] == nil)
        #expect(document["introspection_endpoint"] == nil)
        #expect(response.value(forHTTPHeaderField: "Cache-Control") == "max-age=86400")
        let (did, didResponse) = try await harness.transport.send(CapturedRequest(url: harness.idp.endpoint("/.well-known/did.json")))
        #expect(try JSONValue.parseObject(did)["id"] == "did:web:oidc.integration.account.gov.uk")
        #expect(didResponse.value(forHTTPHeaderField: "Cache-Control") == "max-age=3600, private")
    }

    private func postToken(_ harness: Harness, _ form: [(String, String)], basic: String? = nil) async throws -> (status: Int, body: [String: JSONValue]) {
        var request = CapturedRequest(url: harness.idp.endpoint("/token"))
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        if let basic { request.setValue("Basic " + Data(basic.utf8).base64EncodedString(), forHTTPHeaderField: "Authorization") }
        request.httpBody = Data(FormEncoding.encode(form).utf8)
        let (data, response) = try await harness.transport.send(request)
        return (response.statusCode, try JSONValue.parseObject(data))
    }

    @Test("Bad token requests get the simulator's exact answers in its order (form first, then the client); a replayed jti is refused (strict)")
    func tokenEndpointAnswers() async throws {
        let harness = try harness()
        let key = try ClientSigningKey(pem: GOVUKServiceKeys.clientKeyPEM, algorithm: .rs256)
        let tokenEndpoint = harness.idp.endpoint("/token").absoluteString
        let client = TestIdentityProvider.govUKServiceClientID
        let grant = [("grant_type", "authorization_code"), ("code", "unknown"), ("redirect_uri", TestIdentityProvider.govUKServiceRedirectURI.absoluteString)]
        func assertion(audience: String, at date: Date? = nil) throws -> [(String, String)] {
            let token = try ClientAssertion.make(clientID: client, audience: audience, key: key, now: date ?? harness.clock.now())
            return [("client_assertion_type", ClientAssertion.type), ("client_assertion", token.reveal())]
        }

        let none = try await postToken(harness, grant + [("client_id", client)])
        #expect(none.status == 400 && none.body["error"] == "invalid_request")
        #expect(none.body["error_description"] == "Invalid token authentication method used")
        let basic = try await postToken(harness, grant, basic: "\(TestIdentityProvider.govUKServiceSecretClientID):\(TestIdentityProvider.govUKServiceSecret)")
        #expect(basic.status == 400 && basic.body["error_description"] == "Invalid token authentication method used")

        let elsewhere = try await postToken(harness, grant + (try assertion(audience: "https://other.example/token")))
        #expect(elsewhere.status == 400 && elsewhere.body["error"] == "invalid_client")
        let expired = try await postToken(harness, grant + (try assertion(audience: tokenEndpoint, at: harness.clock.now().addingTimeInterval(-600))))
        #expect(expired.status == 400 && expired.body["error"] == "invalid_grant")
        #expect(expired.body["error_description"] == "private_key_jwt has expired")

        // The issuer (with its slash) is an accepted audience too; the code is unknown, so invalid_grant after authentication.
        let good = try assertion(audience: "https://oidc.integration.account.gov.uk/")
        let first = try await postToken(harness, grant + good)
        #expect(first.status == 400 && first.body["error"] == "invalid_grant")
        let replayed = try await postToken(harness, grant + good)
        #expect(replayed.status == 400 && replayed.body["error"] == "invalid_client")
        #expect(
            await harness.idp.clientAuthenticationFailures == [
                "no client authentication", "unsupported authentication method", "wrong audience", "expired or too long-lived", "replayed jti"
            ])

        let refresh = try await postToken(harness, [("grant_type", "refresh_token"), ("refresh_token", "x")] + (try assertion(audience: tokenEndpoint)))
        #expect(refresh.status == 400 && refresh.body["error"] == "unsupported_grant_type" && refresh.body["error_description"] == "Unsupported grant type")

        // The form is checked before the client, in the simulator's order: grant_type, redirect_uri, code.
        let failuresBefore = await harness.idp.clientAuthenticationFailures.count
        for (form, description) in [
            ([("code", "c"), ("redirect_uri", "https://x.example/cb")], "Request is missing grant_type parameter"),
            ([("grant_type", "authorization_code"), ("code", "c")], "Request is missing redirect_uri parameter"),
            ([("grant_type", "authorization_code"), ("redirect_uri", "https://x.example/cb")], "Request is missing code parameter")
        ] {
            // No client authentication at all: the form's problem is what the simulator reports.
            let answer = try await postToken(harness, form + [("client_id", client)])
            #expect(answer.status == 400 && answer.body["error"] == "invalid_request" && answer.body["error_description"] == .string(description))
        }
        #expect(await harness.idp.clientAuthenticationFailures.count == failuresBefore, "the client was never authenticated")

        // Unknown clients: 400 by client_secret_post, 401 by assertion; a wrong secret is "Invalid client secret".
        let unknownPost = try await postToken(harness, grant + [("client_id", "nobody"), ("client_secret", "s")])
        #expect(unknownPost.status == 400 && unknownPost.body["error"] == "invalid_client" && unknownPost.body["error_description"] == "Client authentication failed")
        let stranger = try ClientAssertion.make(clientID: "nobody", audience: tokenEndpoint, key: key, now: harness.clock.now())
        let unknownAssertion = try await postToken(harness, grant + [("client_assertion_type", ClientAssertion.type), ("client_assertion", stranger.reveal())])
        #expect(unknownAssertion.status == 401 && unknownAssertion.body["error"] == "invalid_client")
        let wrongSecret = try await postToken(harness, grant + [("client_id", TestIdentityProvider.govUKServiceSecretClientID), ("client_secret", "wrong")])
        #expect(wrongSecret.status == 400 && wrongSecret.body["error"] == "invalid_client" && wrongSecret.body["error_description"] == "Invalid client secret")
    }

    @Test(
        "Authorization requests the simulator refuses come back with its error and description, with state only where it echoes it",
        arguments: [
            (["vtr": #"["Cl.Cm.P9"]"#], "invalid_request", "Request vtr not valid", true),
            (["vtr": #"["Cl.Cm.P2","Cl.Cm"]"#], "invalid_request", "Request vtr not valid", true),
            (["vtr": #"["Cl.Cm.P1"]"#], "invalid_request", "Request vtr not valid", true),
            (["nonce": ""], "invalid_request", "Request is missing nonce parameter", true),
            (["scope": "openid offline_access"], "invalid_scope", "Invalid, unknown or malformed scope", true),
            (["claims": #"{"userinfo":{"https://vocab.account.gov.uk/v1/shoeSize":null}}"#], "invalid_request", "Request contains invalid claims", true),
            (["request_uri": "https://service.example.gov.uk/request.jwt"], "request_uri_not_supported", "Request URI parameter not supported", true),
            (["response_type": "token"], "unsupported_response_type", "Unsupported response type", true),
            // Requests it cannot parse, and a missing state: no state in the answer.
            (["scope": "email"], "invalid_request", "Invalid Request", false),
            (["response_type": "foo"], "invalid_request", "Invalid Request", false),
            (["prompt": "bogus"], "invalid_request", "Invalid Request", false),
            (["claims": "{x"], "invalid_request", "Invalid Request", false),
            (["state": ""], "invalid_request", "Request is missing state parameter", false)
        ])
    func authorizationAnswers(_ change: [String: String], _ error: String, _ description: String, _ stateEchoed: Bool) async throws {
        let harness = try harness()
        let request = try await harness.client.prepareSignIn()
        var components = try #require(URLComponents(url: request.url, resolvingAgainstBaseURL: false))
        var items = components.queryItems ?? []
        for (name, value) in change {
            items.removeAll { $0.name == name }
            if !value.isEmpty { items.append(URLQueryItem(name: name, value: value)) }
        }
        components.queryItems = items
        let (_, response) = try await harness.transport.send(CapturedRequest(url: try #require(components.url)))
        let location = try #require(response.value(forHTTPHeaderField: "Location").flatMap(URLComponents.init(string:)))
        #expect(location.queryItems?.first { $0.name == "error" }?.value == error)
        #expect(location.queryItems?.first { $0.name == "error_description" }?.value == description)
        #expect(location.queryItems?.first { $0.name == "state" }?.value == (stateEchoed ? request.state : nil))
        #expect(location.queryItems?.contains { $0.name == "iss" } == false)
    }

    @Test("An error GOV.UK returns without state is refused as missing_state, naming GOV.UK's error so the developer sees why; nothing is stored")
    func statelessErrorNamed() async throws {
        let harness = try harness()
        let request = try await harness.client.prepareSignIn()
        var components = try #require(URLComponents(url: request.url, resolvingAgainstBaseURL: false))
        components.queryItems = (components.queryItems ?? []).filter { $0.name != "scope" } + [URLQueryItem(name: "scope", value: "email")]
        let (_, response) = try await harness.transport.send(CapturedRequest(url: try #require(components.url)))
        let redirect = try #require(response.value(forHTTPHeaderField: "Location").flatMap(URL.init(string:)))
        let error = await authError { _ = try await harness.client.completeSignIn(redirect: redirect) }
        #expect(error?.code == .missingState)
        #expect(error?.oauthError == "invalid_request")
        #expect(error?.message.contains("'invalid_request: Invalid Request'") == true)
        #expect(await harness.storage.storedKeys().isEmpty)
    }

    @Test(
        "User info refuses a bad token as GOV.UK does — 401, empty body, WWW-Authenticate with invalid_token (plain Bearer without a token) — and the session says to sign in again"
    )
    func userInfoRefusal() async throws {
        let harness = try harness()
        let session = try await harness.signIn()
        let userInfoURL = harness.idp.endpoint(try #require(harness.idp.configuration.paths.userinfo))
        var bad = HTTPRequest(method: .get, url: userInfoURL)
        bad.headerFields[.authorization] = "Bearer not-a-token"
        let (badBody, badResponse) = try await harness.transport.send(bad, body: nil)
        #expect(badResponse.status.code == 401 && badBody.isEmpty)
        #expect(badResponse.headerFields[.wwwAuthenticate] == #"Bearer error="invalid_token", error_description="Invalid access token""#)
        let (noneBody, noneResponse) = try await harness.transport.send(HTTPRequest(method: .get, url: userInfoURL), body: nil)
        #expect(noneResponse.status.code == 401 && noneBody.isEmpty && noneResponse.headerFields[.wwwAuthenticate] == "Bearer")

        await harness.idp.revokeAccessTokens()
        let error = await authError { _ = try await session.userInfo() }
        #expect(error?.code == .notSignedIn)
    }

    @Test("An unsupported ui_locales is not refused: GOV.UK's simulator only logs it")
    func unsupportedLocaleAccepted() async throws {
        let harness = try harness()
        let request = try await harness.client.prepareSignIn()
        var components = try #require(URLComponents(url: request.url, resolvingAgainstBaseURL: false))
        components.queryItems = (components.queryItems ?? []).filter { $0.name != "ui_locales" } + [URLQueryItem(name: "ui_locales", value: "fr")]
        let (_, response) = try await harness.transport.send(CapturedRequest(url: try #require(components.url)))
        let location = try #require(response.value(forHTTPHeaderField: "Location").flatMap(URLComponents.init(string:)))
        #expect(location.queryItems?.contains { $0.name == "code" } == true)
        #expect(location.queryItems?.contains { $0.name == "error" } == false)
    }

    // MARK: Sign-in and identity

    @Test("Identity (P2) sign-in: private_key_jwt, no refresh token, verified core identity, typed address")
    func identitySignIn() async throws {
        let harness = try harness()
        let session = try await harness.signIn()
        let credential = await session.credential
        #expect(credential.refreshToken == nil)
        #expect(credential.expiresAt == harness.clock.now().addingTimeInterval(180))
        #expect(await session.idTokenClaims?["vot"] == "Cl.Cm")
        #expect(await harness.idp.clientAuthenticationFailures.isEmpty)
        #expect(await harness.idp.tokenRequestsByGrant == ["authorization_code": 1])

        let info = try await session.govUKUserInfo()
        let identity = try #require(info.coreIdentity)
        #expect(identity.levelOfConfidence == .p2)
        #expect(identity.currentName?.givenNames == ["GEOFFREY"])
        #expect(identity.currentName?.familyName == "HEARNSHAW")
        #expect(identity.birthDates == ["1955-04-19"])
        #expect(identity.subject == credential.subject)
        #expect(info.email == "test@example.com")
        #expect(info.addresses.first?.postalCode == "GL1 5QB")
        #expect(info.addresses.first?.uprn == "100120472196")
        #expect(info.returnCodes.isEmpty)

        // The DID document is fetched once and cached for its max-age.
        _ = try await session.govUKUserInfo()
        #expect(await harness.idp.requestCounts["/.well-known/did.json"] == 1)
    }

    @Test("Identity not proved: no core identity, the return codes typed")
    func returnCodes() async throws {
        let harness = try harness()
        await harness.idp.setUser(TestIdentityProvider.govUKServiceUserWithoutIdentity(returnCodes: ["X"]))
        let session = try await harness.signIn()
        let info = try await session.govUKUserInfo()
        #expect(info.coreIdentity == nil)
        #expect(info.returnCodes == [ReturnCode(code: "X")])
    }

    @Test(
        "No refresh token: the session lasts as long as GOV.UK's three-minute access token — at t = 170 s the token still works, at t = 181 s sign in again, and no refresh is tried"
    )
    func sessionLifetime() async throws {
        let harness = try harness()
        let session = try await harness.signIn()
        _ = try await session.validAccessToken()
        harness.clock.advance(by: 170)
        let stillValid = try await session.validAccessToken()
        #expect(stillValid == (await session.credential.accessToken), "the same token, not a refresh")
        _ = try await session.userInfo()  // GOV.UK's user info still accepts it
        harness.clock.advance(by: 11)
        let error = await authError { _ = try await session.validAccessToken() }
        #expect(error?.code == .notSignedIn)
        #expect(error?.message.contains("GOV.UK One Login issued no refresh token") == true)
        #expect(error?.message.contains("sign in again") == true)
        #expect(await harness.idp.tokenRequestsByGrant["refresh_token"] == nil)
    }

    @Test("A signed request object is addressed to GOV.UK's authorization endpoint (aud = …/authorize, as GOV.UK requires) and GOV.UK accepts it")
    func signedRequestObject() async throws {
        let harness = try harness { $0["request_object"] = true }
        let request = try await harness.client.prepareSignIn()
        let items = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(Set(items.map(\.name)) == ["client_id", "response_type", "scope", "request"])
        let jws = try CompactJWS(parsing: try #require(items.first { $0.name == "request" }?.value))
        let claims = try JSONValue.parseObject(jws.payload)
        #expect(claims["aud"]?.stringValue == harness.idp.endpoint("/authorize").absoluteString)
        #expect(claims["aud"]?.stringValue != harness.idp.configuration.issuer.absoluteString)
        #expect(claims["iss"]?.stringValue == items.first { $0.name == "client_id" }?.value)
        #expect(claims["sub"] == nil)

        let session = try await harness.signIn()
        #expect(await session.idTokenClaims?["vot"] == "Cl.Cm")
        #expect(await harness.idp.requestObjectFailures.isEmpty)
    }

    @Test(
        "GOV.UK accepts client assertions signed with RS256 to RS512 and PS256 to PS512 (its simulator's list)",
        arguments: [
            "RS256", "RS384", "RS512", "PS256", "PS384", "PS512"
        ])
    func assertionAlgorithms(_ algorithm: String) async throws {
        let harness = try harness { $0["private_key_alg"] = .string(algorithm) }
        let session = try await harness.signIn()
        #expect(await session.credential.subject != nil)
        #expect(await harness.idp.clientAuthenticationFailures.isEmpty)
        let token = try #require(await harness.transport.exchanges(pathSuffix: "/token").last)
        let assertion = try CompactJWS(parsing: try #require(token.formParameters["client_assertion"]))
        #expect(assertion.header.algorithm == algorithm)
    }

    @Test("A GOV.UK One Login logout token (ES256 or RS256, no typ, no sid, the issuer with its slash) ends the service session; its replay is refused")
    func govUKLogoutToken() async throws {
        let harness = try harness()
        let session = try await harness.signIn()
        let subject = try #require(await session.credential.subject)
        let token = await harness.idp.logoutToken(subject: subject, clientID: TestIdentityProvider.govUKServiceClientID)
        let header = try CompactJWS(parsing: token).header
        #expect(header.type == nil, "GOV.UK's logout token header is kid and alg only")
        let claims = try JSONValue.parseObject(CompactJWS(parsing: token).payload)
        #expect(claims["sid"] == nil && claims["iss"]?.stringValue?.hasSuffix("/") == true)

        let result = try await harness.client.handleBackChannelLogout(token)
        #expect(result.subject == subject && result.endedAccounts.count == 1)
        #expect(await harness.storage.storedKeys().isEmpty)
        let replay = await authError { _ = try await harness.client.handleBackChannelLogout(token) }
        #expect(replay?.code == .invalidLogoutToken)
    }

    @Test("Hostile: a request object addressed to the issuer is refused as GOV.UK refuses it — access_denied with its state, no code")
    func requestObjectForTheIssuerRefused() async throws {
        let harness = try harness { $0["request_object"] = true }
        let request = try await harness.client.prepareSignIn()
        let items = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let genuine = try JSONValue.parseObject(CompactJWS(parsing: try #require(items.first { $0.name == "request" }?.value)).payload)
        var misaddressed = genuine
        misaddressed["aud"] = .string(harness.idp.configuration.issuer.absoluteString)
        let key = try ClientSigningKey(pem: GOVUKServiceKeys.clientKeyPEM, algorithm: .rs256)
        var components = try #require(URLComponents(url: request.url, resolvingAgainstBaseURL: false))
        components.queryItems =
            items.filter { $0.name != "request" }
            + [URLQueryItem(name: "request", value: try key.signedJWT(type: "oauth-authz-req+jwt", claims: misaddressed))]
        let (_, response) = try await harness.transport.send(CapturedRequest(url: try #require(components.url)))
        let location = try #require(response.value(forHTTPHeaderField: "Location").flatMap(URLComponents.init(string:)))
        #expect(location.queryItems?.first { $0.name == "error" }?.value == "access_denied")
        #expect(location.queryItems?.first { $0.name == "state" }?.value == request.state)
        #expect(location.queryItems?.contains { $0.name == "code" } == false)
        #expect(await harness.idp.requestObjectFailures == ["wrong aud"])
    }

    @Test("client_secret_post without identity signs in")
    func clientSecretPost() async throws {
        let harness = try harness {
            $0["private_key"] = nil
            $0["private_key_alg"] = nil
            $0["client_id"] = .string(TestIdentityProvider.govUKServiceSecretClientID)
            $0["client_secret"] = .string(TestIdentityProvider.govUKServiceSecret)
            $0["vtr"] = ["Cl.Cm"]
            $0["claims"] = nil
        }
        let session = try await harness.signIn()
        let info = try await session.govUKUserInfo()
        #expect(info.coreIdentity == nil)
        #expect(info.phoneNumber == "07123456789")
    }

    @Test("Logout as the simulator answers it: always 302, to the registered post-logout URI with state, else to gov.uk with error_code")
    func logout() async throws {
        let harness = try harness()
        let session = try await harness.signIn()
        let provider = try #require(harness.client.provider as? GOVUKServiceProvider)
        func location(_ url: URL) async throws -> String? {
            let (_, response) = try await harness.transport.send(CapturedRequest(url: url))
            #expect(response.statusCode == 302)
            return response.value(forHTTPHeaderField: "Location")
        }
        let registered = try await session.endSessionURL(postLogoutRedirectURI: provider.configuration.postLogoutRedirectURI, state: "bye")
        #expect(try await location(registered) == "https://service.example.gov.uk/signed-out?state=bye")
        let elsewhere = try await session.endSessionURL(postLogoutRedirectURI: URL(string: "https://evil.example/")!, state: "bye")
        #expect(
            try await location(elsewhere)
                == "https://gov.uk?state=bye&error_code=invalid_request&error_description=client%20registry%20does%20not%20contain%20post_logout_redirect_uri")
        let withoutHint = try await session.endSessionURL(postLogoutRedirectURI: provider.configuration.postLogoutRedirectURI, state: "bye", includingIDTokenHint: false)
        #expect(try await location(withoutHint) == "https://gov.uk?state=bye")
    }

    // MARK: Hostile

    @Test(
        "An ID token vot below the request, or without vot, is refused: vot_not_satisfied, nothing stored",
        arguments: [
            ["vot": JSONValue.string("Cl")], ["vot": .null], ["vot": "Cl.Xx"]
        ])
    func idTokenVot(_ overrides: [String: JSONValue]) async throws {
        let harness = try harness()
        await harness.idp.update { behavior in
            if overrides["vot"] == .null { behavior.idTokenClaimRemovals = ["vot"] } else { behavior.idTokenClaimOverrides = overrides }
        }
        let error = await authError { _ = try await harness.signIn() }
        #expect(error?.code == .vectorOfTrustNotSatisfied)
        #expect(await harness.storage.isEmpty)
    }

    @Test("An assertion signed with a key GOV.UK does not hold is refused: invalid_client, nothing stored, key not in the error")
    func unregisteredKey() async throws {
        let harness = try harness { $0["private_key"] = .string(Self.testOnlyUnregisteredRSAPEM) }
        let error = await authError { _ = try await harness.signIn() }
        #expect(error?.code == .tokenRequestFailed)
        #expect(error?.oauthError == "invalid_client")
        #expect(error?.httpStatus == 400)
        #expect(await harness.idp.clientAuthenticationFailures == ["bad signature"])
        #expect(await harness.storage.isEmpty)
        #expect(!String(describing: error).contains("PRIVATE KEY"))
    }

    @Test("The app provider refuses an ID token vot below its vectors of trust")
    func appVot() async throws {
        let emulator = ProviderEmulator.govUK(clock: ManualClock())
        let idp = TestIdentityProvider.govUK(clock: emulator.clock)
        var values = emulator.configuration.values
        values["vectorsOfTrust"] = ["Cl.Cm"]
        let storage = InMemoryTokenStorage()
        let client = AuthClient(
            provider: try ProviderRegistry.builtIn.provider(named: "govuk", configuration: ProviderConfiguration(values)),
            storage: storage, transport: idp.transport, logger: RecordingLogger(), clock: emulator.clock
        )
        await idp.update { $0.idTokenClaimOverrides = ["vot": "Cl"] }
        let error = await authError { _ = try await client.signIn(with: HeadlessUserAgent(transport: idp.transport)) }
        #expect(error?.code == .vectorOfTrustNotSatisfied)
        #expect(await storage.isEmpty)
    }

    struct HostileIdentity: Sendable, CustomTestStringConvertible {
        let description: String
        let code: AuthError.Code
        let make: @Sendable (_ subject: String, _ now: Date) -> String
        var testDescription: String { description }
    }

    /// The claims of an honest core identity JWT for the emulated service, changed by `change`.
    @Sendable static func claims(_ subject: String, _ now: Date, _ change: (inout [String: JSONValue]) -> Void = { _ in }) -> [String: JSONValue] {
        var claims = GOVUKServiceKeys.identitySigner.claims(
            audience: TestIdentityProvider.govUKServiceClientID, subject: subject,
            credential: GOVUKIdentitySigner.simulatorCredential, trustmark: "t", now: now
        )
        change(&claims)
        return claims
    }

    static let hostileIdentities: [HostileIdentity] = {
        let signer = GOVUKServiceKeys.identitySigner
        return [
            HostileIdentity(description: "signed by a key the DID document does not publish", code: .invalidSignature) { subject, now in
                GOVUKIdentitySigner.impostor(of: signer).jwt(Self.claims(subject, now))
            },
            HostileIdentity(description: "for another client", code: .invalidAudience) { subject, now in
                signer.jwt(Self.claims(subject, now) { $0["aud"] = "another-service" })
            },
            HostileIdentity(description: "for another user", code: .subjectMismatch) { _, now in
                signer.jwt(Self.claims("urn:fdc:gov.uk:2022:someone-else", now))
            },
            HostileIdentity(description: "expired", code: .tokenExpired) { subject, now in
                signer.jwt(Self.claims(subject, now) { $0["exp"] = .number(now.timeIntervalSince1970 - 3600) })
            },
            HostileIdentity(description: "from another issuer", code: .invalidIssuer) { subject, now in
                signer.jwt(Self.claims(subject, now) { $0["iss"] = "https://impostor.example/" })
            },
            HostileIdentity(description: "below the requested level (P1 for P2)", code: .vectorOfTrustNotSatisfied) { subject, now in
                signer.jwt(Self.claims(subject, now) { $0["vot"] = "P1" })
            },
            HostileIdentity(description: "naming a key of another controller", code: .unknownKeyID) { subject, now in
                signer.jwt(Self.claims(subject, now), headerOverrides: ["kid": "did:web:impostor.example#identity-key-1"])
            },
            HostileIdentity(description: "naming an unpublished key id", code: .unknownKeyID) { subject, now in
                signer.jwt(Self.claims(subject, now), headerOverrides: ["kid": .string(signer.controller + "#rotated-away")])
            },
            HostileIdentity(description: "with an RS256 header", code: .unsupportedAlgorithm) { subject, now in
                signer.jwt(Self.claims(subject, now), headerOverrides: ["alg": "RS256"])
            },
            HostileIdentity(description: "issued in the future", code: .invalidIssuedAt) { subject, now in
                signer.jwt(Self.claims(subject, now) { $0["nbf"] = .number(now.timeIntervalSince1970 + 3600) })
            },
            HostileIdentity(description: "without a credential subject", code: .malformedIdentityClaim) { subject, now in
                signer.jwt(Self.claims(subject, now) { $0["vc"] = ["type": ["VerifiableCredential"]] })
            }
        ]
    }()

    @Test("Hostile core identity JWTs are refused with their specific error", arguments: hostileIdentities)
    func hostileCoreIdentity(_ hostile: HostileIdentity) async throws {
        let harness = try harness()
        let session = try await harness.signIn()
        let subject = try #require(await session.credential.subject)
        let token = hostile.make(subject, harness.clock.now())
        await harness.idp.update { $0.userInfoOverrides = ["https://vocab.account.gov.uk/v1/coreIdentityJWT": .string(token)] }
        let error = await authError { _ = try await session.govUKUserInfo() }
        #expect(error?.code == hostile.code, "\(error?.message ?? "no error")")
        #expect(error?.message.contains("core identity JWT") == true)
    }

    @Test("Identity claims in the wrong shape are malformed_identity_claim")
    func malformedClaims() async throws {
        let harness = try harness()
        let session = try await harness.signIn()
        await harness.idp.update { $0.userInfoOverrides = ["https://vocab.account.gov.uk/v1/address": "26 Frampton Road"] }
        let error = await authError { _ = try await session.govUKUserInfo() }
        #expect(error?.code == .malformedIdentityClaim)
    }
}
