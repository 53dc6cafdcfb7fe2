import AuthCore
import AuthEmulators
import AuthOneLogin
import AuthProviders
import AuthTesting
import Foundation
import OneLoginCompat
import Testing

@Suite("OneLogin")
struct OneLoginTests {
    private let base = oneLoginTestConfiguration

    private struct Harness {
        let idp: TestIdentityProvider
        let clock: ManualClock
        let transport: RecordingTransport
        let storage: any TokenStorage
        let olOidc: OLOidc
    }

    private func harness(useSecureStorage: Bool = true, storage: (any TokenStorage)? = nil, config: [String: String]? = nil) async throws -> Harness {
        let clock = ManualClock()
        let idp = TestIdentityProvider.oneLogin(clock: clock)
        let transport = RecordingTransport(idp.transport)
        let storage = storage ?? InMemoryTokenStorage()
        let olOidc = try await OLOidc(
            configuration: try OneLoginConfiguration(dict: config ?? base),
            useSecureStorage: useSecureStorage,
            secureStorage: storage,
            transport: transport,
            logger: RecordingLogger(),
            clock: clock
        )
        return Harness(idp: idp, clock: clock, transport: transport, storage: storage, olOidc: olOidc)
    }

    private func signIn(_ harness: Harness) async throws {
        try await harness.olOidc.signIn(with: HeadlessUserAgent(transport: harness.idp.transport))
    }

    // MARK: Configuration

    @Test("Each required key missing is its own error naming the key; the vendor's case is configInvalid", arguments: ["issuer", "clientId", "redirectUri", "scopes"])
    func missingKey(key: String) {
        var values = base
        values[key] = nil
        let error = #expect(throws: AuthError.self) { try OneLoginConfiguration(dict: values) }
        #expect(error?.code == .missingConfigurationKey)
        #expect(error?.message.contains("'\(key)'") == true)
        #expect(error?.olOidcError == .configInvalid)
    }

    @Test("Scopes must contain openid; every other key becomes an authorization parameter")
    func scopesAndCustomParameters() throws {
        var values = base
        values["scopes"] = "profile email"
        let error = #expect(throws: AuthError.self) { try OneLoginConfiguration(dict: values) }
        #expect(error?.olOidcError == .configInvalid)

        var extra = base
        extra["audience"] = "contacts-api"
        let config = try OneLoginConfiguration(dict: extra)
        #expect(config.additionalParameters == ["resource": TestIdentityProvider.oneLoginResource, "audience": "contacts-api"])
        #expect(config.scopes == ["openid", "profile", "email"])
    }

    @Test("OL-Oidc.plist: found by default name, missing and corrupt files are distinct errors")
    func plistFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("onelogin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let missing = #expect(throws: AuthError.self) { try OneLoginConfiguration(in: directory) }
        #expect(missing?.olOidcError == .configFileNotFound)

        try Data("not a plist <<<".utf8).write(to: directory.appendingPathComponent("OL-Oidc.plist"))
        let corrupt = #expect(throws: AuthError.self) { try OneLoginConfiguration(in: directory) }
        #expect(corrupt?.olOidcError == .configFileParseFailure)

        let plist = try PropertyListSerialization.data(fromPropertyList: base, format: .xml, options: 0)
        try plist.write(to: directory.appendingPathComponent("OL-Oidc.plist"))
        let config = try OneLoginConfiguration(in: directory)
        #expect(config.clientId == TestIdentityProvider.oneLoginClientID)
        try plist.write(to: directory.appendingPathComponent("custom.plist"))
        #expect(try OneLoginConfiguration(plist: "custom", in: directory).issuer == config.issuer)
    }

    // MARK: Flow

    @Test("signIn uses discovery, sends the custom parameter, and exposes the parsed ID token")
    func signIn() async throws {
        let harness = try await harness()
        try await signIn(harness)
        let state = await harness.olOidc.olAuthState
        #expect(state.isAuthorized)
        #expect(state.refreshToken != nil)
        #expect(state.idTokenParsed?.subject == "38495820")
        #expect(state.idTokenParsed?["preferred_username"]?.stringValue == "jordan")
        #expect(await harness.transport.exchanges(pathSuffix: "/.well-known/openid-configuration").count == 1)
        #expect(await harness.transport.exchanges(pathSuffix: "/certs").count == 1)
    }

    @Test("The emulator refuses a sign-in without the custom parameter")
    func emulatorRequiresCustomParameter() async throws {
        var values = base
        values["resource"] = nil
        let harness = try await harness(config: values)
        let error = await #expect(throws: AuthError.self) { try await signIn(harness) }
        #expect(error?.code == .authorizationFailed)
        #expect(error?.oauthError == "invalid_request")
        #expect(error?.olOidcError == .authorizationError(error?.message ?? ""))
    }

    @Test("The ID token signature is verified (AppAuth did not)")
    func signatureVerified() async throws {
        let harness = try await harness()
        await harness.idp.update { $0.signing = .corruptSignature }
        let error = await #expect(throws: AuthError.self) { try await signIn(harness) }
        #expect(error?.code == .invalidSignature)
        #expect(await harness.olOidc.olAuthState.isAuthorized == false)
    }

    @Test("useSecureStorage saves every change and loads it at initialisation")
    func secureStorage() async throws {
        let storage = InMemoryTokenStorage()
        let first = try await harness(storage: storage)
        try await signIn(first)
        let signedIn = await first.olOidc.olAuthState.accessToken
        try await first.olOidc.refreshAccessToken()
        let refreshed = await first.olOidc.olAuthState.accessToken
        #expect(refreshed != signedIn)

        let second = try await harness(storage: storage)
        #expect(await second.olOidc.olAuthState.accessToken == refreshed)
    }

    @Test("Without secure storage nothing is written; manual write, read and delete work")
    func manualStorage() async throws {
        let keychain = InMemoryTokenStorage()
        let harness = try await harness(useSecureStorage: false, storage: keychain)
        try await signIn(harness)
        #expect(await keychain.isEmpty)

        try await harness.olOidc.writeToSecureStorage(keychain)
        #expect(await !keychain.isEmpty)
        let fresh = try await self.harness(useSecureStorage: false, storage: keychain)
        #expect(await fresh.olOidc.olAuthState.isAuthorized == false)
        #expect(try await fresh.olOidc.readFromSecureStorage(keychain))
        #expect(await fresh.olOidc.olAuthState.isAuthorized)
        try await fresh.olOidc.deleteFromSecureStorage(keychain)
        #expect(await keychain.isEmpty)
    }

    @Test("revokeToken sends RFC 7009 form bodies with the right token_type_hint to the discovered endpoint")
    func revokeToken() async throws {
        let harness = try await harness()
        try await signIn(harness)
        #expect(try await harness.olOidc.introspect())
        try await harness.olOidc.revokeToken(tokenType: .accessToken)
        try await harness.olOidc.revokeToken(tokenType: .refreshToken)
        let calls = await harness.transport.exchanges(pathSuffix: "/token/revocation")
        #expect(calls.count == 2)
        #expect(calls.map { $0.formParameters["token_type_hint"] } == ["access_token", "refresh_token"])
        #expect(calls.allSatisfy { $0.request.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded" })
        #expect(calls.allSatisfy { $0.formParameters["client_id"] == TestIdentityProvider.oneLoginClientID })
        #expect(try await harness.olOidc.introspect() == false)
    }

    @Test("getUserInfo refreshes first when the token expires within 60 seconds")
    func userInfoAutoRefresh() async throws {
        let harness = try await harness()
        try await signIn(harness)
        #expect(try await harness.olOidc.getUserInfo()["email"] == "jordan@example.com")
        #expect(await harness.idp.tokenRequestsByGrant["refresh_token"] == nil)
        harness.clock.advance(by: 3600 - 30)
        #expect(try await harness.olOidc.getUserInfo()["sub"] == "38495820")
        #expect(await harness.idp.tokenRequestsByGrant["refresh_token"] == 1)
    }

    @Test("deleteTokens clears the local session without calling the server")
    func deleteTokens() async throws {
        let harness = try await harness()
        try await signIn(harness)
        try await harness.olOidc.deleteTokens()
        #expect(await harness.olOidc.olAuthState.isAuthorized == false)
        #expect(try await harness.storage.storedKeys().isEmpty)
        #expect(await harness.transport.exchanges(pathSuffix: "/token/revocation").isEmpty)
        let error = await #expect(throws: AuthError.self) { _ = try await harness.olOidc.getUserInfo() }
        #expect(error?.olOidcError == .gettingAccessTokenError)
    }

    @Test("Registered as onelogin; AuthError maps to the vendor's names")
    func registryAndMapping() throws {
        let provider = try ProviderRegistry.builtIn.provider(named: "onelogin", configuration: ProviderEmulator.oneLogin().configuration)
        #expect(provider is OneLoginProvider)
        #expect(AuthError(.network, "x").olOidcError == .httpRequestFailed("x"))
        #expect(AuthError(.invalidResponse, "x").olOidcError == .jsonSerializationError)
        #expect(AuthError(.invalidGrant, "x").olOidcError == .fetchingFreshTokenError("x"))
        // Mapped from the error's fields, never from its message text.
        #expect(AuthError(.discoveryFailed, "x", endpoint: "token_endpoint").olOidcError == .tokenEndpointUndeclared)
        #expect(AuthError(.discoveryFailed, "The discovery document has no 'token_endpoint'.").olOidcError == .unknownError)
        #expect(AuthError(.endpointUnavailable, "x", endpoint: "userinfo_endpoint").olOidcError == .userEndpointUndeclared)
        #expect(AuthError(.subjectMismatch, "x", endpoint: "token_endpoint").olOidcError == .fetchingFreshTokenError("x"))
        #expect((try? ProviderMetadata(document: ["issuer": "https://i.example", "authorization_endpoint": "https://i.example/a"])) == nil)
        do {
            _ = try ProviderMetadata(document: ["issuer": "https://i.example", "authorization_endpoint": "https://i.example/a"])
        } catch let error as AuthError {
            #expect(error.olOidcError == .tokenEndpointUndeclared)
        }
        #expect(AuthError(.storageFailed, "x").olOidcError == .unknownError)
    }
}

@Suite("OneLoginProvider conformance")
struct OneLoginProviderConformanceTests {
    @Test("Passes the provider conformance suite against its emulator")
    func conformance() async throws {
        let report = try await ProviderConformance.check(OneLoginProvider.self, emulator: .oneLogin(clock: ManualClock()))
        #expect(report.passed.contains("PKCE S256") && report.passed.contains("replayed redirect refused"))
        #expect(report.passed.contains("sign-out clears storage") && report.passed.contains("no secrets logged"))
    }

    @Test("Tokens stay Bearer when the tenant advertises DPoP, as with the vendor SDK (which never used it); dpop: .whenAdvertised opts in")
    func bearerUnlessDPoPOptedIn() async throws {
        let clock = ManualClock()
        let idp = TestIdentityProvider.oneLogin(clock: clock, dpop: .init())
        let configuration = try OneLoginConfiguration(ProviderEmulator.oneLogin(clock: clock).configuration)
        for (usage, bound) in [(DPoPUsage.never, false), (.whenAdvertised, true)] {
            let provider = usage == .never ? OneLoginProvider(configuration: configuration) : OneLoginProvider(configuration: configuration, dpop: usage)
            let client = AuthClient(provider: provider, storage: InMemoryTokenStorage(), transport: idp.transport, clock: clock)
            let session = try await client.signIn(with: HeadlessUserAgent(transport: idp.transport))
            let credential = await session.credential
            #expect(credential.tokenType == (bound ? "DPoP" : "Bearer"), "\(usage)")
            #expect((credential.dpopKey != nil) == bound, "\(usage)")
        }
    }
}
