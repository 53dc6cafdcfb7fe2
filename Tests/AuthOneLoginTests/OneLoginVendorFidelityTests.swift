import AuthCore
import AuthEmulators
import AuthOneLogin
import AuthTesting
import Foundation
import OneLoginCompat
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// OneLogin against the vendor's SDK (OLOidc): each test pins one behaviour of OLOidc (or a documented difference
/// from it) and is named by that behaviour.
@Suite("OneLogin: faithful to OLOidc")
struct OneLoginVendorFidelityTests {
    private let base = oneLoginTestConfiguration

    private func olOidc(
        _ idp: TestIdentityProvider,
        transport: any HTTPTransport,
        storage: any TokenStorage,
        config: [String: String]? = nil
    ) async throws -> OLOidc {
        try await OLOidc(
            configuration: try OneLoginConfiguration(dict: config ?? base), secureStorage: storage, transport: transport,
            logger: RecordingLogger(), clock: idp.clock
        )
    }

    @Test(
        "Custom parameters that cannot work are configuration errors at load, naming the key",
        arguments: [
            "scope", "state", "client_id", "response_type", "nonce", "redirect_uri", "code_challenge"
        ])
    func customParameterEdges(_ key: String) throws {
        var config = base
        config[key] = "x"
        let error = #expect(throws: AuthError.self) { try OneLoginConfiguration(dict: config) }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.contains("'\(key)'") == true)
        var values = ProviderConfiguration(base.mapValues(JSONValue.string)).values
        values["max_age"] = 300
        let number = #expect(throws: AuthError.self) { try OneLoginConfiguration(ProviderConfiguration(values)) }
        #expect(number?.message.contains("'max_age' must be a string") == true)
    }

    @Test("OLOidc starts offline — the stored session is loaded without discovery or any request")
    func offlineStart() async throws {
        let idp = TestIdentityProvider.oneLogin(clock: ManualClock())
        let storage = InMemoryTokenStorage()
        let online = try await olOidc(idp, transport: idp.transport, storage: storage)
        try await online.signIn(with: HeadlessUserAgent(transport: idp.transport))
        let token = await online.olAuthState.accessToken

        // No route at all: every request would fail with cannotFindHost.
        let offline = RecordingTransport(InProcessTransport())
        let restarted = try await olOidc(idp, transport: offline, storage: storage)
        #expect(await restarted.olAuthState.accessToken == token)
        #expect(await restarted.olAuthState.idTokenParsed?.subject == "38495820")
        #expect(await offline.exchanges.isEmpty)
    }

    @Test("Without revocation and introspection endpoints in discovery, revoke and introspect use <token_endpoint>/revocation and /introspection, as the vendor SDK")
    func revocationFallback() async throws {
        let idp = TestIdentityProvider.oneLogin(clock: ManualClock())
        await idp.update { $0.discoveryOverrides = ["revocation_endpoint": .null, "introspection_endpoint": .null] }
        let transport = RecordingTransport(idp.transport)
        let olOidc = try await olOidc(idp, transport: transport, storage: InMemoryTokenStorage())
        try await olOidc.signIn(with: HeadlessUserAgent(transport: idp.transport))
        #expect(try await olOidc.introspect())
        try await olOidc.revokeToken(tokenType: .accessToken)
        #expect(try await olOidc.introspect() == false)
        #expect(await transport.exchanges(pathSuffix: "/token/revocation").count == 1)
        #expect(await transport.exchanges(pathSuffix: "/token/introspection").count == 2)
    }

    @Test("A configured issuer with a trailing slash signs in and refreshes (discovery names it without)")
    func trailingSlashIssuer() async throws {
        let idp = TestIdentityProvider.oneLogin(clock: ManualClock())
        var config = base
        config["issuer"] = "https://example.onelogin.com/oidc/2/"
        let olOidc = try await olOidc(idp, transport: idp.transport, storage: InMemoryTokenStorage(), config: config)
        try await olOidc.signIn(with: HeadlessUserAgent(transport: idp.transport))
        let before = await olOidc.olAuthState.accessToken
        try await olOidc.refreshAccessToken()
        #expect(await olOidc.olAuthState.accessToken != before)
        #expect(olOidc.configuration.issuer.absoluteString == "https://example.onelogin.com/oidc/2")
    }

    @Test("deleteFromSecureStorage removes this configuration's data with no session loaded, and only that")
    func deleteWithoutSession() async throws {
        let idp = TestIdentityProvider.oneLogin(clock: ManualClock())
        let keychain = InMemoryTokenStorage()
        let olOidc = try await olOidc(idp, transport: idp.transport, storage: keychain)
        try await olOidc.signIn(with: HeadlessUserAgent(transport: idp.transport))
        let stored = try #require(await keychain.storedKeys().first)
        let other = StorageKey(providerID: stored.providerID, issuer: stored.issuer, clientID: "another-app", account: stored.account)
        let credential = try #require(await keychain.credential(for: stored))
        await keychain.store(credential, for: other)

        let fresh = try await self.olOidc(idp, transport: idp.transport, storage: InMemoryTokenStorage())
        #expect(await fresh.olAuthState.isAuthorized == false)
        try await fresh.deleteFromSecureStorage(keychain)
        #expect(await keychain.storedKeys() == [other])
    }

    /// The provider refuses the sign-in: the redirect carries `error=access_denied`, the request's `state` and the
    /// issuer (the emulator advertises RFC 9207).
    private struct RefusingUserAgent: UserAgent {
        func authorize(_ request: AuthorizationRequest) async throws -> URL {
            var components = try #require(URLComponents(url: request.redirectURI, resolvingAgainstBaseURL: false))
            components.queryItems = [
                URLQueryItem(name: "error", value: "access_denied"), URLQueryItem(name: "state", value: request.state),
                URLQueryItem(name: "iss", value: oneLoginTestConfiguration["issuer"])
            ]
            return try #require(components.url)
        }
    }

    /// The user closes the browser sheet.
    private struct ClosingUserAgent: UserAgent {
        func authorize(_ request: AuthorizationRequest) async throws -> URL {
            throw AuthError(.userCancelled, "closed", providerID: request.providerID)
        }
    }

    @Test(
        "A failed sign-in keeps the previous session, in olAuthState and in storage (the vendor SDK clears it): a documented difference",
        arguments: [
            "refused", "closed"
        ])
    func failedSignInKeepsPreviousSession(_ failure: String) async throws {
        let idp = TestIdentityProvider.oneLogin(clock: ManualClock())
        let storage = InMemoryTokenStorage()
        let olOidc = try await olOidc(idp, transport: idp.transport, storage: storage)
        try await olOidc.signIn(with: HeadlessUserAgent(transport: idp.transport))
        let before = await olOidc.olAuthState
        let storedKeys = await storage.storedKeys()
        let key = try #require(storedKeys.first)
        let stored = try #require(await storage.credential(for: key))

        let agent: any UserAgent = failure == "refused" ? RefusingUserAgent() : ClosingUserAgent()
        let error = await #expect(throws: AuthError.self) { try await olOidc.signIn(with: agent) }
        let expected: AuthError.Code = failure == "refused" ? .authorizationFailed : .userCancelled
        #expect(error?.code == expected)
        if failure == "refused" { #expect(error?.oauthError == "access_denied") }
        guard case .authorizationError? = error?.olOidcError else {
            Issue.record("expected authorizationError, got \(String(describing: error?.olOidcError))")
            return
        }

        let after = await olOidc.olAuthState
        #expect(after.isAuthorized)
        #expect(after.accessToken == before.accessToken)
        #expect(after.refreshToken == before.refreshToken)
        #expect(after.idTokenParsed?.subject == before.idTokenParsed?.subject)
        #expect(await storage.storedKeys() == storedKeys)
        #expect(await storage.credential(for: key)?.accessToken == stored.accessToken)
        // The kept session still works at the server.
        #expect(try await olOidc.introspect())
    }

    @Test("After a rejected refresh olAuthState is no longer authorized (no dead tokens)")
    func rejectedRefresh() async throws {
        let idp = TestIdentityProvider.oneLogin(clock: ManualClock())
        let storage = InMemoryTokenStorage()
        let olOidc = try await olOidc(idp, transport: idp.transport, storage: storage)
        try await olOidc.signIn(with: HeadlessUserAgent(transport: idp.transport))
        await idp.update {
            $0.tokenResponseReplacement = (400, Data(#"{"error":"invalid_grant"}"#.utf8), ["Content-Type": "application/json"])
        }
        let error = await #expect(throws: AuthError.self) { try await olOidc.refreshAccessToken() }
        guard case .fetchingFreshTokenError(let reason)? = error?.olOidcError else {
            Issue.record("expected fetchingFreshTokenError, got \(String(describing: error?.olOidcError))")
            return
        }
        #expect(reason.contains("invalid_grant"))
        #expect(await olOidc.olAuthState.isAuthorized == false)
        #expect(await olOidc.olAuthState.accessToken == nil)
        #expect(await storage.isEmpty)
    }
}
