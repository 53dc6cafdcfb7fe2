import AuthCore
import AuthEmulators
import AuthProviders
import AuthSignInWithApple
import AuthTesting
import Foundation
import Testing

/// The shared set-up of the Sign in with Apple tests: an emulator, a client with its provider and storage.
struct AppleHarness {
    let emulator: ProviderEmulator
    let idp: TestIdentityProvider
    let clock: ManualClock
    let storage: InMemoryTokenStorage
    let provider: SignInWithAppleProvider
    let client: AuthClient

    /// A web client (the Services ID); `clientID` replaces it (the bundle id for native sign-ins); the provider's
    /// client secrets are stamped with `providerClock` (the emulator's by default).
    init(clientID: String? = nil, providerClock: (any WallClock)? = nil, lifetime: Double? = nil) throws {
        let clock = ManualClock()
        emulator = ProviderEmulator.apple(clock: clock)
        idp = try #require(emulator.identityProvider)
        self.clock = clock
        var configuration = emulator.configuration
        if let clientID { configuration["client_id"] = .string(clientID) }
        if let lifetime { configuration["client_secret_lifetime"] = .number(lifetime) }
        provider = try SignInWithAppleProvider(configuration: configuration, clock: providerClock ?? clock)
        storage = InMemoryTokenStorage()
        client = AuthClient(provider: provider, storage: storage, transport: emulator.transport, logger: RecordingLogger(), clock: clock)
    }

    /// Runs the browser part of a sign-in: the authorization URL's query, and the callback URL a web app rebuilds
    /// from the posted form.
    func authorize(options: SignInOptions = SignInOptions()) async throws -> (query: [String: String], callback: URL) {
        let request = try await client.prepareSignIn(options: options)
        let callback = try await emulator.userAgent.authorize(request)
        return (Self.query(request.url), callback)
    }

    /// A full sign-in: the callback's parameters and the session.
    func signIn() async throws -> ([String: String], Session) {
        let (_, callback) = try await authorize()
        return (Self.query(callback), try await client.completeSignIn(redirect: callback))
    }

    /// How many credentials are stored.
    func storedCount() async -> Int { await storage.storedKeys().count }

    /// `url`'s query parameters.
    static func query(_ url: URL) -> [String: String] {
        Dictionary((URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { first, _ in first }
    }

    /// A JWT's header and claims, unverified.
    static func decode(_ jwt: String) throws -> (header: [String: JSONValue], claims: [String: JSONValue]) {
        let parts = jwt.split(separator: ".").map(String.init)
        try #require(parts.count == 3)
        func object(_ part: String) throws -> [String: JSONValue] {
            var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while base64.count % 4 != 0 { base64 += "=" }
            return try JSONValue.parseObject(try #require(Data(base64Encoded: base64)))
        }
        return (try object(parts[0]), try object(parts[1]))
    }

    /// A token-endpoint or revocation POST with `form`, straight to the emulator.
    func post(_ path: String, _ form: [(String, String)]) async throws -> (status: Int, body: [String: JSONValue]) {
        var request = HTTPRequest(method: .post, url: idp.endpoint(path))
        request.headerFields[.contentType] = "application/x-www-form-urlencoded"
        let body = form.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&")
        let (data, response) = try await emulator.transport.send(request, body: Data(body.utf8))
        return (response.status.code, (try? JSONValue.parseObject(data)) ?? [:])
    }

    /// A client secret for `clientID` signed with the emulator's team key, valid for `lifetime` from `issuedAt`.
    func secret(clientID: String = TestIdentityProvider.appleServicesID, issuedAt: Date? = nil, lifetime: TimeInterval = 3600) throws -> String {
        try AppleIDServer.clientSecret(
            pem: try #require(emulator.configuration.string("private_key")), teamID: TestIdentityProvider.appleTeamID,
            keyID: TestIdentityProvider.appleKeyID, clientID: clientID, now: issuedAt ?? clock.now(), lifetime: lifetime
        )
    }
}

@Suite("Sign in with Apple")
struct SignInWithAppleProviderTests {
    // MARK: Registry and configuration

    @Test("'apple' is a built-in provider with an emulator; team_id, key_id and a private key are required")
    func registeredByName() throws {
        #expect(ProviderRegistry.builtIn.providerIDs.contains("apple"))
        #expect(ProviderRegistry.builtIn.displayName(for: "apple") == "Apple")
        #expect(ProviderEmulator.emulatedProviderIDs.contains("apple"))
        #expect(ProviderEmulator.servedEmulatorNames.contains("apple"))
        let served = try #require(ProviderEmulator.served("apple", at: URL(string: "http://127.0.0.1:8765")!))
        #expect(served.configuration.string("issuer") == "http://127.0.0.1:8765")
        #expect(served.configuration.string("redirect_uri") == TestIdentityProvider.loopbackRedirectURI.absoluteString)
        let configuration = ProviderEmulator.apple().configuration
        let provider = try #require(try ProviderRegistry.builtIn.provider(named: "apple", configuration: configuration) as? SignInWithAppleProvider)
        #expect(provider.issuer.absoluteString == "https://appleid.apple.com")
        #expect(provider.scopes == ["openid", "name", "email"])
        #expect(provider.idTokenPolicy.allowedAlgorithms == [.rs256])
        #expect(provider.client.authenticationMethod == .clientSecretPost)
        for key in ["client_id", "redirect_uri", "team_id", "key_id", "private_key"] {
            var values = configuration
            values[key] = nil
            let error = #expect(throws: AuthError.self) { try SignInWithAppleProvider(configuration: values) }
            #expect(error?.code == .missingConfigurationKey)
            #expect(error?.configurationKey == key)
        }
        var badKey = configuration
        badKey["private_key"] = "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----"
        let keyError = #expect(throws: AuthError.self) { try SignInWithAppleProvider(configuration: badKey) }
        #expect(keyError?.code == .invalidConfiguration)
        #expect(keyError?.message.contains("not a key") == false)
        var tooLong = configuration
        tooLong["client_secret_lifetime"] = .number(AppleClientSecret.maximumLifetime + 1)
        let lifetimeError = #expect(throws: AuthError.self) { try SignInWithAppleProvider(configuration: tooLong) }
        #expect(lifetimeError?.code == .invalidConfiguration)
        #expect(lifetimeError?.configurationKey == "client_secret_lifetime")
    }

    @Test("private_key_file reads the .p8 file")
    func keyFromFile() throws {
        var configuration = ProviderEmulator.apple().configuration
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("AuthKey_\(UUID().uuidString).p8")
        try Data(try #require(configuration.string("private_key")).utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        configuration["private_key"] = nil
        configuration["private_key_file"] = .string(file.path)
        let provider = try SignInWithAppleProvider(configuration: configuration)
        #expect(!provider.client.clientSecret!.reveal().isEmpty)
    }

    // MARK: Client secret

    @Test("The client secret is an ES256 JWT: kid, iss team id, aud appleid.apple.com, sub client id, exp = iat + lifetime")
    func clientSecretShape() throws {
        let harness = try AppleHarness()
        let secret = try #require(harness.provider.client.clientSecret).reveal()
        let (header, claims) = try AppleHarness.decode(secret)
        #expect(header["alg"]?.stringValue == "ES256")
        #expect(header["kid"]?.stringValue == TestIdentityProvider.appleKeyID)
        #expect(claims["iss"]?.stringValue == TestIdentityProvider.appleTeamID)
        #expect(claims["sub"]?.stringValue == TestIdentityProvider.appleServicesID)
        #expect(claims["aud"]?.stringValue == "https://appleid.apple.com")
        let issuedAt = try #require(claims["iat"]?.numberValue)
        #expect(issuedAt == harness.clock.now().timeIntervalSince1970.rounded(.down))
        #expect(claims["exp"]?.numberValue == issuedAt + AppleClientSecret.defaultLifetime)
        #expect(Set(claims.keys) == ["iss", "iat", "exp", "aud", "sub"])
        #expect(!String(describing: harness.provider.clientSecret).contains(secret))
    }

    @Test("The client secret is reused while fresh and renewed once less than a quarter of its lifetime is left")
    func clientSecretRenewal() throws {
        let harness = try AppleHarness(lifetime: 4000)
        let first = harness.provider.clientSecret.current()
        harness.clock.advance(by: 2000)
        #expect(harness.provider.clientSecret.current() == first)
        harness.clock.advance(by: 1001)
        let renewed = harness.provider.clientSecret.current()
        #expect(renewed != first)
        let claims = try AppleHarness.decode(renewed.reveal()).claims
        #expect(claims["iat"]?.numberValue == harness.clock.now().timeIntervalSince1970.rounded(.down))
        #expect(harness.provider.clientSecret.currentExpiry == harness.clock.now().addingTimeInterval(4000))
        // A clock that went back before the secret was issued gets a new one too.
        harness.clock.set(harness.clock.now().addingTimeInterval(-500))
        #expect(harness.provider.clientSecret.current() != renewed)
    }

    // MARK: Web sign-in (form_post)

    @Test("The web sign-in asks for form_post; the first sign-in's user JSON becomes the profile and a later sign-in keeps it")
    func formPostSignInKeepsFirstName() async throws {
        let harness = try AppleHarness()
        let (query, callback) = try await harness.authorize()
        #expect(query["response_mode"] == "form_post")
        #expect(query["scope"] == "openid name email")
        #expect(query["response_type"] == "code")
        #expect(query["code_challenge_method"] == "S256")
        #expect(query["nonce"] != nil)
        let posted = AppleHarness.query(callback)
        let user = try #require(posted["user"])
        #expect(user.contains("\"firstName\":\"Alex\""))
        let session = try await harness.client.completeSignIn(redirect: callback)
        let first = await session.credential
        #expect(first.subject == TestIdentityProvider.appleUser.subject)
        #expect(first.refreshToken != nil)
        #expect(first.profile?["name"] == "Alex Appleseed")
        #expect(first.profile?["given_name"] == "Alex")
        #expect(first.profile?["family_name"] == "Appleseed")
        #expect(first.profile?["email"] == "alex@example.com")
        #expect(first.profile?["email_verified"] == "true")
        #expect(first.profile?["is_private_email"] == "false")

        let (secondPosted, secondSession) = try await harness.signIn()
        #expect(secondPosted["user"] == nil)
        let second = await secondSession.credential
        #expect(second.profile?["name"] == "Alex Appleseed")
        #expect(second.profile?["given_name"] == "Alex")
        #expect(second.profile?["email"] == "alex@example.com")
        let stored = await harness.storage.credential(for: second.storageKey)
        #expect(stored?.profile?["name"] == "Alex Appleseed")
        #expect(await harness.storedCount() == 1)
        // The name survives a refresh too.
        let refreshed = try await secondSession.refresh()
        #expect(refreshed.profile?["family_name"] == "Appleseed")
    }

    @Test("Apple's claims are typed: a private relay address, email_verified and is_private_email sent as strings, real_user_status")
    func privateRelayClaims() async throws {
        let harness = try AppleHarness()
        await harness.idp.setUser(TestIdentityProvider.applePrivateRelayUser)
        let (posted, session) = try await harness.signIn()
        #expect(posted["user"]?.contains("x7k2q9mz4r@privaterelay.appleid.com") == true)
        let claims = AppleIDTokenClaims(try #require(await session.idTokenClaims))
        #expect(claims.email == "x7k2q9mz4r@privaterelay.appleid.com")
        #expect(claims.emailVerified == true)
        #expect(claims.isPrivateEmail == true)
        #expect(claims.realUserStatus == .unknown)
        #expect(claims.nonceSupported == true)
        let profile = await session.credential.profile
        #expect(profile?["is_private_email"] == "true")
        #expect(profile?["name"] == "Robin Relay")
    }

    @Test("Without name or email no form_post is asked for, and the emulator refuses those scopes without it")
    func formPostRequiredForNameAndEmail() async throws {
        let harness = try AppleHarness()
        #expect(SignInWithAppleProvider.needsFormPost(["openid"]) == false)
        let request = try await harness.client.prepareSignIn(options: SignInOptions(additionalParameters: ["response_mode": "query"]))
        let refused = try await harness.emulator.userAgent.authorize(request)
        #expect(AppleHarness.query(refused)["error"] == "invalid_request")
        let error = await #expect(throws: AuthError.self) { try await harness.client.completeSignIn(redirect: refused) }
        #expect(error?.code == .authorizationFailed)
        #expect(await harness.storedCount() == 0)
    }

    // MARK: Hostile

    @Test("HOSTILE: a client secret past its expiry is refused with invalid_client and the sign-in stores nothing")
    func expiredClientSecretRefused() async throws {
        // The provider's clock runs two days behind: its one-day secret expired a day ago by the server's clock.
        let emulatorNow = ManualClock().now()
        let late = ManualClock(emulatorNow.addingTimeInterval(-2 * 86_400))
        let harness = try AppleHarness(providerClock: late)
        let (_, callback) = try await harness.authorize()
        let error = await #expect(throws: AuthError.self) { try await harness.client.completeSignIn(redirect: callback) }
        #expect(error?.code == .tokenRequestFailed)
        #expect(error?.oauthError == "invalid_client")
        #expect(error?.httpStatus == 400)
        #expect(await harness.storedCount() == 0)
        #expect(await harness.idp.tokenRequestsByGrant["authorization_code"] == nil)
    }

    @Test("HOSTILE: the emulator refuses client secrets Apple refuses: over six months, expired, another client's, another key's")
    func clientSecretRules() async throws {
        let harness = try AppleHarness()
        func refresh(_ secret: String, clientID: String = TestIdentityProvider.appleServicesID) async throws -> (Int, String?) {
            let (status, body) = try await harness.post(
                "/auth/token",
                [
                    ("grant_type", "refresh_token"), ("refresh_token", "rt_unknown"), ("client_id", clientID), ("client_secret", secret)
                ])
            return (status, body["error"]?.stringValue)
        }
        // A valid secret reaches the grant check (an unknown refresh token).
        #expect(try await refresh(try harness.secret()) == (400, "invalid_grant"))
        #expect(try await refresh(try harness.secret(lifetime: AppleClientSecret.maximumLifetime + 1)) == (400, "invalid_client"))
        #expect(try await refresh(try harness.secret(issuedAt: harness.clock.now().addingTimeInterval(-7200))) == (400, "invalid_client"))
        #expect(try await refresh(try harness.secret(clientID: TestIdentityProvider.appleBundleID)) == (400, "invalid_client"))
        let otherTeam = ProviderEmulator.apple(clock: harness.clock)
        let foreign = try AppleIDServer.clientSecret(
            pem: try #require(otherTeam.configuration.string("private_key")), teamID: TestIdentityProvider.appleTeamID,
            keyID: TestIdentityProvider.appleKeyID, clientID: TestIdentityProvider.appleServicesID, now: harness.clock.now()
        )
        #expect(try await refresh(foreign) == (400, "invalid_client"))
        #expect(try await refresh("not-a-jwt") == (400, "invalid_client"))
        #expect(try await harness.post("/auth/revoke", [("client_id", TestIdentityProvider.appleServicesID), ("token", "x")]).status == 400)
    }

    @Test("HOSTILE: a forged user JSON changes neither the subject nor the email address; it is display data only")
    func userJSONCannotChangeIdentity() async throws {
        let harness = try AppleHarness()
        let (_, callback) = try await harness.authorize()
        let forged = #"{"name":{"firstName":"Mallory","lastName":"\u0000Evil"},"email":"mallory@evil.example","sub":"attacker"}"#
        var components = try #require(URLComponents(url: callback, resolvingAgainstBaseURL: false))
        components.queryItems = (components.queryItems ?? []).filter { $0.name != "user" } + [URLQueryItem(name: "user", value: forged)]
        let session = try await harness.client.completeSignIn(redirect: try #require(components.url))
        let credential = await session.credential
        #expect(credential.subject == TestIdentityProvider.appleUser.subject)
        #expect(credential.profile?["email"] == "alex@example.com")
        #expect(credential.profile?["name"] == "Mallory Evil")
        #expect(credential.storageKey.account == TestIdentityProvider.appleUser.subject)
        let user = try #require(AppleAuthorizedUser(json: forged))
        #expect(user.email == "mallory@evil.example")
        #expect(AppleAuthorizedUser(json: "not json") == nil)
    }

    // MARK: Revocation

    @Test("Sign-out revokes at /auth/revoke with the client secret; the revoked refresh token is refused afterwards")
    func revocation() async throws {
        let harness = try AppleHarness()
        let (_, session) = try await harness.signIn()
        let refreshToken = try #require(await session.credential.refreshToken)
        let report = try await session.signOut()
        #expect(report.revokedRefreshToken)
        #expect(report.revokedAccessToken)
        #expect(report.revocationError == nil)
        #expect(await harness.storedCount() == 0)
        let (status, body) = try await harness.post(
            "/auth/token",
            [
                ("grant_type", "refresh_token"), ("refresh_token", refreshToken.reveal()),
                ("client_id", TestIdentityProvider.appleServicesID), ("client_secret", try harness.secret())
            ])
        #expect(status == 400)
        #expect(body["error"]?.stringValue == "invalid_grant")
    }

    @Test("HOSTILE: a revocation with an expired client secret is refused with invalid_client")
    func revocationNeedsValidSecret() async throws {
        let late = ManualClock(ManualClock().now().addingTimeInterval(-2 * 86_400))
        let harness = try AppleHarness(providerClock: late)
        let error = await #expect(throws: AuthError.self) { try await harness.client.revoke(Secret("rt_anything"), hint: .refreshToken) }
        #expect(error?.oauthError == "invalid_client")
    }
}
