import AuthCore
import AuthEmulators
import AuthSchibsted
import AuthTesting
import Foundation
import SchibstedCompat
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Rows N4 and N7 of the Schibsted re-audit (issue 56): a callback that reaches the app delegate while `login(with:)`
/// shows the sheet, and the SDK's `User-Agent`.
@Suite("Schibsted: the vendor's last rows")
struct SchibstedMigrationRowsTests {
    private func client(_ idp: TestIdentityProvider, storage: InMemoryTokenStorage, transport: (any HTTPTransport)? = nil) -> SchibstedAccountClient {
        SchibstedAccountClient(
            configuration: SchibstedConfiguration(environment: .pre, clientId: TestIdentityProvider.schibstedClientID, redirectURI: TestIdentityProvider.schibstedRedirectURI),
            storage: storage, vendorStore: nil, transport: transport ?? idp.transport, clock: idp.clock)
    }

    /// A web session that records the request it shows and stays open until it is closed.
    actor SheetStandIn: UserAgent {
        private(set) var shown: AuthorizationRequest?
        private(set) var closed = false
        func authorize(_ request: AuthorizationRequest) async throws -> URL {
            shown = request
            while !Task.isCancelled { await Task.yield() }
            closed = true
            throw AuthError(.userCancelled, "closed")
        }
    }

    @Test(
        "N4: a custom-scheme callback handed to handleAuthenticationResponse (the app delegate) while login(with:) shows the sheet completes that login, closes the sheet, and both return the user (as SDK 6's completeLoginFromURL)"
    )
    func appDelegateCallbackCompletesRunningLogin() async throws {
        let idp = TestIdentityProvider.schibsted(clock: ManualClock())
        let storage = InMemoryTokenStorage()
        let client = client(idp, storage: storage)
        let sheet = SheetStandIn()
        let login = Task { try await client.login(with: sheet) }
        var shown: AuthorizationRequest?
        for _ in 0..<100_000 {
            shown = await sheet.shown
            if shown != nil { break }
            await Task.yield()
        }
        // The OS gives the redirect to application(_:open:options:) instead of the web session.
        let callback = try await HeadlessUserAgent(transport: idp.transport).authorize(try #require(shown))
        let delegated = try await client.handleAuthenticationResponse(url: callback)
        let returned = try await login.value
        #expect(await returned.uuid == delegated.uuid)
        #expect(await sheet.closed, "the sheet was closed")
        #expect(await storage.storedKeys().count == 1)
        #expect(await idp.tokenRequestsByGrant == ["authorization_code": 1], "the code was redeemed once")
        // Nothing is left pending: a new login starts at once.
        let again = SheetStandIn()
        let next = Task { try await client.login(with: again) }
        for _ in 0..<100_000 where await again.shown == nil { await Task.yield() }
        #expect(await again.shown != nil)
        next.cancel()
        _ = await next.result
    }

    @Test("N7: token requests and account API calls carry the SDK's User-Agent, in the vendor SDKs' shape with this module's name")
    func sdkUserAgent() async throws {
        let idp = TestIdentityProvider.schibsted(clock: ManualClock())
        let transport = RecordingTransport(idp.transport)
        let client = client(idp, storage: InMemoryTokenStorage(), transport: transport)
        let user = try await client.login(with: HeadlessUserAgent(transport: idp.transport))
        _ = try await user.fetchProfileData()
        let agent = SchibstedAccountClient.sdkUserAgent
        #expect(agent.hasPrefix("SchibstedCompat (swift-auth-providers; "))
        let token = try #require(await transport.exchanges.first { $0.request.url?.path.hasSuffix("/oauth/token") == true })
        #expect(token.request.value(forHTTPHeaderField: "User-Agent") == agent)
        #expect(token.request.value(forHTTPHeaderField: "X-OIDC") == "v1")
        let profile = try #require(await transport.exchanges.first { $0.request.url?.path.contains("/api/2/user/") == true })
        #expect(profile.request.value(forHTTPHeaderField: "User-Agent") == agent)
    }
}
