import AuthCore
import AuthEmulators
import AuthGitHub
import AuthProviders
import AuthTesting
import Foundation
import Testing

@Suite("GitHub")
struct GitHubProviderTests {
    struct Harness {
        let emulator: ProviderEmulator
        let idp: TestIdentityProvider
        let clock: ManualClock
        let storage: InMemoryTokenStorage
        let transport: RecordingTransport
        let client: AuthClient

        func storedCount() async throws -> Int { await storage.storedKeys().count }
    }

    static func harness(
        expiringTokens: Bool = true,
        pollingSleep: (@Sendable (Duration) async throws -> Void)? = nil,
        transport wrap: (any HTTPTransport) -> any HTTPTransport = { $0 },
        configure: ((inout ProviderConfiguration) -> Void)? = nil
    ) throws -> Harness {
        let clock = ManualClock()
        let emulator = ProviderEmulator.github(clock: clock, expiringTokens: expiringTokens)
        var configuration = emulator.configuration
        configure?(&configuration)
        let provider = try ProviderRegistry.builtIn.provider(named: "github", configuration: configuration)
        let storage = InMemoryTokenStorage()
        let transport = RecordingTransport(wrap(emulator.transport))
        var options = AuthClient.Options()
        if let pollingSleep { options.pollingSleep = pollingSleep }
        let client = AuthClient(provider: provider, storage: storage, transport: transport, logger: RecordingLogger(), clock: clock, options: options)
        return Harness(emulator: emulator, idp: emulator.identityProvider!, clock: clock, storage: storage, transport: transport, client: client)
    }

    /// Signs in; returns the authorization request's query and the session.
    static func signIn(_ harness: Harness) async throws -> ([String: String], Session) {
        let request = try await harness.client.prepareSignIn()
        let redirect = try await harness.emulator.userAgent.authorize(request)
        return (query(request.url), try await harness.client.completeSignIn(redirect: redirect))
    }

    static func query(_ url: URL) -> [String: String] {
        Dictionary((URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { first, _ in first }
    }

    /// `url` with its query parameter `name` set to `value`.
    static func replacing(_ name: String, with value: String, in url: URL) -> URL {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        components.queryItems = (components.queryItems ?? []).map { $0.name == name ? URLQueryItem(name: name, value: value) : $0 }
        return components.url!
    }

    // MARK: Registry and configuration

    @Test("'github' is a built-in provider with an emulator; fixed endpoints, no discovery, no ID token")
    func registeredByName() throws {
        #expect(ProviderRegistry.builtIn.providerIDs.contains("github"))
        #expect(ProviderEmulator.emulatedProviderIDs.contains("github"))
        #expect(ProviderEmulator.servedEmulatorNames.contains("github"))
        let provider = try ProviderRegistry.builtIn.provider(named: "github", configuration: ProviderEmulator.github().configuration)
        let github = try #require(provider as? GitHubProvider)
        #expect(GitHubProvider.displayName == "GitHub")
        #expect(github.client.scopes == ["read:user", "user:email"])
        #expect(github.client.authenticationMethod == .clientSecretPost)
        #expect(github.apiURL.absoluteString == "https://api.github.com")
        guard case .fixed(let metadata) = github.endpointSource else {
            Issue.record("GitHub has no discovery document; its endpoints are fixed")
            return
        }
        #expect(metadata.authorizationEndpoint.absoluteString == "https://github.com/login/oauth/authorize")
        #expect(metadata.tokenEndpoint.absoluteString == "https://github.com/login/oauth/access_token")
        #expect(metadata.deviceAuthorizationEndpoint?.absoluteString == "https://github.com/login/device/code")
        #expect(metadata.jwksURI == nil && metadata.userinfoEndpoint == nil && metadata.revocationEndpoint == nil)
    }

    @Test("Configuration: client_id and redirect_uri required; openid, a cleartext web_url and a bad allow_signup refused; GitHub Enterprise Server's API under /api/v3")
    func configuration() throws {
        for key in ["client_id", "redirect_uri"] {
            var values = ProviderEmulator.github().configuration
            values[key] = nil
            let error = #expect(throws: AuthError.self) { try GitHubProvider(configuration: values) }
            #expect(error?.code == .missingConfigurationKey && error?.configurationKey == key)
        }
        var openID = ProviderEmulator.github().configuration
        openID["scope"] = "openid read:user"
        #expect((#expect(throws: AuthError.self) { try GitHubProvider(configuration: openID) })?.configurationKey == "scope")
        var cleartext = ProviderEmulator.github().configuration
        cleartext["web_url"] = "http://github.example.com"
        #expect((#expect(throws: AuthError.self) { try GitHubProvider(configuration: cleartext) })?.code == .insecureEndpoint)
        var signup = ProviderEmulator.github().configuration
        signup["allow_signup"] = "maybe"
        #expect((#expect(throws: AuthError.self) { try GitHubProvider(configuration: signup) })?.configurationKey == "allow_signup")
        var enterprise = ProviderEmulator.github().configuration
        enterprise["web_url"] = "https://github.example.com"
        let server = try GitHubProvider(configuration: enterprise)
        #expect(server.apiURL.absoluteString == "https://github.example.com/api/v3")
        var deviceOnly = ProviderEmulator.github().configuration
        deviceOnly["client_secret"] = nil
        #expect(try GitHubProvider(configuration: deviceOnly).client.authenticationMethod == ClientRegistration.AuthenticationMethod.none)
    }

    // MARK: Sign-in

    @Test("Sign-in: PKCE S256, state and the exact redirect sent; the subject is the numeric user id, the profile login, name and primary verified email")
    func signsIn() async throws {
        let harness = try Self.harness(configure: {
            $0["allow_signup"] = false
            $0["login"] = "octocat"
        })
        let (query, session) = try await Self.signIn(harness)
        #expect(query["code_challenge_method"] == "S256")
        #expect(query["code_challenge"]?.count == 43)
        #expect((query["state"]?.count ?? 0) >= 32)
        #expect(query["redirect_uri"] == TestIdentityProvider.githubRedirectURI.absoluteString)
        #expect(query["scope"] == "read:user user:email")
        #expect(query["allow_signup"] == "false" && query["login"] == "octocat")
        #expect(query["nonce"] == nil)
        let credential = await session.credential
        #expect(credential.subject == "583231")
        #expect(credential.profile == ["login": "octocat", "name": "The Octocat", "email": "octocat@github.com"])
        #expect(credential.idToken == nil)
        #expect(credential.issuer == "https://github.com")
        #expect(try await harness.storedCount() == 1)
        // The code exchange carried the verifier and the secret in the form, and asked for JSON.
        let exchange = try #require(await harness.transport.exchanges(pathSuffix: "/login/oauth/access_token").first)
        #expect(exchange.formParameters["code_verifier"]?.count == 43)
        #expect(exchange.formParameters["client_secret"] == TestIdentityProvider.githubClientSecret)
        #expect(exchange.request.value(forHTTPHeaderField: "Accept") == "application/json")
        // The API requests carry the headers GitHub requires.
        for path in ["/user", "/user/emails"] {
            let api = try #require(await harness.transport.exchanges(pathSuffix: path).first)
            #expect(api.status == 200)
            #expect(api.request.url?.host == "api.github.com")
            #expect(api.request.value(forHTTPHeaderField: "Accept") == "application/vnd.github+json")
            #expect(api.request.value(forHTTPHeaderField: "X-GitHub-Api-Version") == "2022-11-28")
            #expect(api.request.value(forHTTPHeaderField: "User-Agent") == "swift-auth-providers")
            #expect(api.request.value(forHTTPHeaderField: "Authorization")?.hasPrefix("Bearer ") == true)
        }
    }

    @Test("A user whose primary email is not verified is refused with github_no_verified_email; nothing is stored")
    func unverifiedEmailRefused() async throws {
        let harness = try Self.harness()
        await harness.idp.setUser(TestIdentityProvider.githubUnverifiedUser)
        let request = try await harness.client.prepareSignIn()
        let redirect = try await harness.emulator.userAgent.authorize(request)
        let error = await #expect(throws: AuthError.self) { try await harness.client.completeSignIn(redirect: redirect) }
        #expect(error?.code == .githubNoVerifiedEmail)
        #expect(error?.providerID == "github")
        #expect(try await harness.storedCount() == 0)
    }

    // MARK: Token response shapes

    @Test("A token response GitHub sends form-encoded (a request without Accept: application/json) signs in the same")
    func formEncodedTokenResponse() async throws {
        let harness = try Self.harness(transport: { WithoutJSONAccept(base: $0) })
        let (_, session) = try await Self.signIn(harness)
        let exchange = try #require(await harness.transport.exchanges(pathSuffix: "/login/oauth/access_token").first)
        let body = String(decoding: exchange.responseBody, as: UTF8.self)
        #expect(body.hasPrefix("access_token=") && body.contains("&token_type=Bearer") && !body.contains("{"))
        #expect(body.contains("scope=read%3Auser%2Cuser%3Aemail"))
        let credential = await session.credential
        #expect(credential.subject == "583231")
        #expect(credential.expiresAt == harness.clock.now().addingTimeInterval(28800))
        #expect(credential.refreshToken != nil)
    }

    @Test("JSON when asked: the code exchange's answer is JSON with GitHub's comma-separated scope and no ID token")
    func jsonTokenResponse() async throws {
        let harness = try Self.harness()
        _ = try await Self.signIn(harness)
        let exchange = try #require(await harness.transport.exchanges(pathSuffix: "/login/oauth/access_token").first)
        let body = try JSONValue.parseObject(exchange.responseBody)
        #expect(body["scope"]?.stringValue == "read:user,user:email")
        #expect(body["id_token"] == nil)
        #expect(body["refresh_token_expires_in"]?.numberValue == 15_897_600)
    }

    // MARK: Hostile

    @Test("A reused code: GitHub's HTTP 200 bad_verification_code is an invalid_grant error, nothing stored")
    func reusedCode() async throws {
        let harness = try Self.harness()
        let first = try await harness.client.prepareSignIn()
        let redirect = try await harness.emulator.userAgent.authorize(first)
        _ = try await harness.client.completeSignIn(redirect: redirect)
        let firstKey = try #require(await harness.storage.storedKeys().first)
        await harness.storage.removeCredential(for: firstKey)
        // A second sign-in whose redirect carries the first one's code.
        let second = try await harness.client.prepareSignIn()
        let code = try #require(Self.query(redirect)["code"])
        let replayed = Self.replacing("state", with: try #require(Self.query(second.url)["state"]), in: redirect)
        #expect(Self.query(replayed)["code"] == code)
        let error = await #expect(throws: AuthError.self) { try await harness.client.completeSignIn(redirect: replayed) }
        #expect(error?.code == .invalidGrant)
        #expect(error?.oauthError == "bad_verification_code" && error?.httpStatus == 200)
        #expect(try await harness.storedCount() == 0)
    }

    @Test("A wrong PKCE verifier (another sign-in's code): bad_verification_code, nothing stored")
    func wrongVerifier() async throws {
        let harness = try Self.harness()
        let first = try await harness.client.prepareSignIn()
        let second = try await harness.client.prepareSignIn()
        let redirect = try await harness.emulator.userAgent.authorize(first)
        // The first request's code completes the second request, whose verifier does not match the challenge.
        let swapped = Self.replacing("state", with: try #require(Self.query(second.url)["state"]), in: redirect)
        let error = await #expect(throws: AuthError.self) { try await harness.client.completeSignIn(redirect: swapped) }
        #expect(error?.code == .invalidGrant && error?.oauthError == "bad_verification_code")
        #expect(try await harness.storedCount() == 0)
        #expect(await harness.transport.exchanges(pathSuffix: "/user").isEmpty)
    }

    @Test("A wrong state is refused before any token request; nothing stored")
    func wrongState() async throws {
        let harness = try Self.harness()
        let request = try await harness.client.prepareSignIn()
        let redirect = try await harness.emulator.userAgent.authorize(request)
        let forged = Self.replacing("state", with: "forged-state-value-forged-state-value", in: redirect)
        let error = await #expect(throws: AuthError.self) { try await harness.client.completeSignIn(redirect: forged) }
        #expect(error?.code == .stateMismatch)
        #expect(await harness.transport.exchanges(pathSuffix: "/login/oauth/access_token").isEmpty)
        #expect(try await harness.storedCount() == 0)
    }

    @Test("A wrong client secret: GitHub's HTTP 200 incorrect_client_credentials, the secret in no message, nothing stored")
    func wrongClientSecret() async throws {
        let harness = try Self.harness(configure: { $0["client_secret"] = "wrong-secret-canary" })
        let request = try await harness.client.prepareSignIn()
        let redirect = try await harness.emulator.userAgent.authorize(request)
        let error = await #expect(throws: AuthError.self) { try await harness.client.completeSignIn(redirect: redirect) }
        #expect(error?.code == .tokenRequestFailed && error?.oauthError == "incorrect_client_credentials" && error?.httpStatus == 200)
        #expect(!(error?.message.contains("wrong-secret-canary") ?? true))
        #expect(try await harness.storedCount() == 0)
    }

    // MARK: Expiring tokens

    @Test("A GitHub App's expiring token refreshes: a new pair, the old refresh token spent, subject and profile kept")
    func expiringTokensRefresh() async throws {
        let harness = try Self.harness()
        let (_, session) = try await Self.signIn(harness)
        let before = await session.credential
        #expect(before.expiresAt == harness.clock.now().addingTimeInterval(28800))
        harness.clock.advance(by: 28801)
        let token = try await session.validAccessToken()
        let after = await session.credential
        #expect(token != before.accessToken && after.accessToken == token)
        #expect(after.refreshToken != nil && after.refreshToken != before.refreshToken)
        #expect(after.subject == "583231" && after.profile == before.profile)
        #expect(await harness.idp.tokenRequestsByGrant["refresh_token"] == 1)
        // The spent refresh token is refused (GitHub's bad_refresh_token, HTTP 200), by a second client that still has it.
        let stale = AuthClient(
            provider: harness.client.provider, storage: InMemoryTokenStorage(), transport: harness.emulator.transport, clock: harness.clock)
        try await stale.storage.store(before, for: before.storageKey)
        let restored = try #require(try await stale.restoreSession())
        let error = await #expect(throws: AuthError.self) { try await restored.refresh() }
        #expect(error?.code == .invalidGrant && error?.oauthError == "bad_refresh_token" && error?.httpStatus == 200)
    }

    @Test("An OAuth app's token has no expiry and no refresh token, and works")
    func oauthAppTokens() async throws {
        let harness = try Self.harness(expiringTokens: false)
        let (_, session) = try await Self.signIn(harness)
        let credential = await session.credential
        #expect(credential.expiresAt == nil && credential.refreshToken == nil)
        harness.clock.advance(by: 86400 * 365)
        #expect(try await session.validAccessToken() == credential.accessToken)
    }
}

/// Forwards requests without `Accept: application/json`, as a client that does not ask for JSON sends them.
struct WithoutJSONAccept: HTTPTransport {
    let base: any HTTPTransport

    func send(_ request: HTTPRequest, body: Data?, limits: HTTPRequestLimits) async throws -> (Data, HTTPResponse) {
        var request = request
        if request.headerFields[.accept] == "application/json" { request.headerFields[.accept] = nil }
        return try await base.send(request, body: body, limits: limits)
    }
}
