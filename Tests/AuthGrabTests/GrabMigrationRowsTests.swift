import AuthCore
import AuthEmulators
import AuthGrab
import AuthTesting
import Foundation
import GrabCompat
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The rows of the Grab re-audit closed for issue 56: a plist without `LSApplicationQueriesSchemes` (G64),
/// `LoginSession`'s assignable settings (19), every login failure a `GrabError` (G65), and `GrabProvider` on a server
/// with a client secret (G66).
@Suite("Grab: the vendor's last rows")
struct GrabMigrationRowsTests {
    private let helper = GrabTests.Helper()

    private func grab(_ idp: TestIdentityProvider, transport: RecordingTransport, app: EmulatedAppHandoff, schemes: [String]?, agent: (any UserAgent)? = nil) throws
        -> GrabIdPartner
    {
        GrabIdPartner(
            configuration: try GrabConfiguration(ProviderConfiguration(["GrabIdPartnerSDK": .object(TestIdentityProvider.grabPlist)])),
            webAgent: agent ?? HeadlessUserAgent(transport: transport), appHandoff: app, storage: InMemoryTokenStorage(),
            transport: transport, logger: RecordingLogger(), clock: ManualClock(), applicationQueriesSchemes: schemes)
    }

    @Test("G64: an app Info.plist without LSApplicationQueriesSchemes lists nothing, so a user who has the Grab app logs in on the web, never sent to the App Store")
    func plistWithoutQueriesSchemesMeansWeb() async throws {
        // The default argument's rule: an app's plist without the key lists nothing; unknown only without an app plist.
        #expect(GrabIdPartner.queriesSchemes(infoDictionary: ["CFBundleIdentifier": "com.example.partner"]) == [])
        #expect(GrabIdPartner.queriesSchemes(infoDictionary: ["CFBundleIdentifier": "com.example.partner", "LSApplicationQueriesSchemes": ["grab"]]) == ["grab"])
        #expect(GrabIdPartner.queriesSchemes(infoDictionary: nil) == nil)
        #expect(GrabIdPartner.queriesSchemes(infoDictionary: [:]) == nil)

        let idp = TestIdentityProvider.grab(clock: ManualClock())
        let transport = RecordingTransport(idp.transport)
        // iOS answers canOpenURL false for a scheme the plist does not list, installed or not.
        let app = TestIdentityProvider.grabApp(installed: false, idp: idp)
        let partner = try grab(idp, transport: transport, app: app, schemes: GrabIdPartner.queriesSchemes(infoDictionary: ["CFBundleIdentifier": "com.example.partner"]))
        let session = try await partner.login(loginSession: try await partner.loadLoginSession())
        #expect(session.accessToken != nil)
        #expect(await app.opened.isEmpty, "no App Store, no app")
        #expect(await transport.exchanges.contains { $0.request.url?.path.hasSuffix("/authorize") == true }, "the web login")
    }

    @Test("Row 19: LoginSession's settings are assignable as the vendor's vars; the next login sends them, and a Scope without openid is invalidScope with nothing stored")
    func loginSessionSettingsAssignable() async throws {
        let harness = try await helper.harness()
        let loginSession = try await harness.grab.loadLoginSession()
        loginSession.hint = "+6591234567"
        loginSession.acrValues = ["service": "PASSENGER", "consent_ctx": "countryCode=SG"]
        #expect(loginSession.hint == "+6591234567" && loginSession.configuration.hint == "+6591234567")
        try await harness.grab.login(loginSession: loginSession)
        #expect(loginSession.accessToken != nil)
        let authorize = try #require(await harness.transport.exchanges.first { $0.request.url?.path.hasSuffix("/authorize") == true })
        let query = Dictionary(FormEncoding.decode(authorize.request.url?.query ?? ""), uniquingKeysWith: { a, _ in a })
        #expect(query["login_hint"] == "+6591234567")
        #expect(query["acr_values"] == "consent_ctx:countryCode=SG service:PASSENGER")
        loginSession.hint = ""
        #expect(loginSession.configuration.hint == nil, "empty clears it, as the vendor's empty default")

        let other = try await helper.harness()
        let scoped = try await other.grab.loadLoginSession()
        scoped.scope = "profile.read"
        let error = await #expect(throws: GrabError.self) { try await other.grab.login(loginSession: scoped) }
        #expect(error?.grabError == GrabError(domain: .loadConfiguration, code: .invalidScope))
        #expect(await other.storage.isEmpty)
        #expect(await other.transport.exchanges.allSatisfy { $0.request.url?.path.hasSuffix("/token") != true }, "no token request")
        #expect(await other.app.opened.isEmpty)
    }

    @Test(
        "G65: a custom web agent's own error and a CancellationError reach the app as GrabErrors (authorization/authorizationFailed), the agent's error kept as serviceError; nothing stored"
    )
    func agentErrorsAreGrabErrors() async throws {
        struct Broken: UserAgent {
            struct Failure: Error {}
            func authorize(_ request: AuthorizationRequest) async throws -> URL { throw Failure() }
        }
        struct Cancelling: UserAgent {
            func authorize(_ request: AuthorizationRequest) async throws -> URL { throw CancellationError() }
        }
        let agents: [(any UserAgent, AuthError.Code)] = [(Broken(), .authorizationFailed), (Cancelling(), .signInCancelled)]
        for (agent, code) in agents {
            let idp = TestIdentityProvider.grab(clock: ManualClock())
            let transport = RecordingTransport(idp.transport)
            let partner = try grab(idp, transport: transport, app: TestIdentityProvider.grabApp(installed: false, idp: idp), schemes: [], agent: agent)
            let error = await #expect(throws: GrabError.self) { try await partner.login(loginSession: try await partner.loadLoginSession()) }
            #expect(error?.grabError == GrabError(domain: .authorization, code: .authorizationFailed))
            #expect(error?.authError?.code == code)
            if code == .authorizationFailed { #expect(error?.serviceError is Broken.Failure) }
            #expect(await transport.exchanges.allSatisfy { $0.request.url?.path.hasSuffix("/token") != true })
        }
    }

    @Test("G66: a server's GrabProvider sends a configured ClientSecret as HTTP Basic, never in the token request's URL; without one, no Authorization header")
    func serverClientSecret() async throws {
        for secret in ["server-secret", nil] as [String?] {
            let idp = TestIdentityProvider.grab(clock: ManualClock())
            let transport = RecordingTransport(idp.transport)
            var plist = TestIdentityProvider.grabPlist
            if let secret { plist["ClientSecret"] = .string(secret) }
            let provider = try GrabProvider(configuration: ProviderConfiguration(["GrabIdPartnerSDK": .object(plist)]))
            #expect(provider.configuration.clientSecret?.reveal() == secret)
            let client = AuthClient(provider: provider, storage: InMemoryTokenStorage(), transport: transport, clock: idp.clock)
            _ = try? await client.signIn(with: HeadlessUserAgent(transport: idp.transport))
            let token = try #require(await transport.exchanges.first { $0.request.url?.path.hasSuffix("/token") == true })
            let authorization = token.request.value(forHTTPHeaderField: "Authorization")
            if let secret {
                let expected = "Basic " + Data("\(TestIdentityProvider.grabClientID):\(secret)".utf8).base64EncodedString()
                #expect(authorization == expected)
                #expect(token.request.url?.absoluteString.contains(secret) == false)
            } else {
                #expect(authorization == nil)
            }
        }
    }
}
