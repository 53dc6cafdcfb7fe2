import AuthCore
import AuthEmulators
import AuthTesting
import Foundation
import Testing

/// Standard OpenID Connect from the emulator's configuration (AuthTesting's tests do not depend on AuthOIDC).
private struct StandardProvider: AuthProvider {
    static let id: ProviderID = "oidc"
    let issuer: URL
    let client: ClientRegistration

    init(configuration: ProviderConfiguration) throws {
        issuer = try configuration.requiredURL("issuer")
        client = ClientRegistration(
            clientID: try configuration.requiredString("client_id"),
            redirectURI: try configuration.requiredURL("redirect_uri"),
            scopes: configuration.scopes("scope") ?? ["openid"]
        )
    }

    var endpointSource: EndpointSource { .discovery(issuer: issuer) }
}

/// The HTTP emulators' login page and faults, driven through the identity provider's handler (the same code
/// `auth-emulator emulate` serves; Scripts/e2e/emulators-http.sh drives it over real HTTP).
@Suite("the emulators' login page, faults, and serving at another origin")
struct InteractiveLoginTests {
    private let origin = URL(string: "http://127.0.0.1:8799")!

    private func servedIDP() -> TestIdentityProvider {
        var configuration = TestIdentityProvider.Configuration()
        configuration.displayName = "Example <Provider>"
        return TestIdentityProvider(configuration: configuration.served(at: origin))
    }

    /// A valid authorization request to the served provider; returns its state.
    private func authorize(_ idp: TestIdentityProvider) async -> (page: String, status: Int, state: String) {
        let state = SecureRandom.token()
        let url = idp.endpoint("/authorize").appendingQuery([
            ("response_type", "code"), ("client_id", TestIdentityProvider.defaultClientID),
            ("redirect_uri", "http://127.0.0.1:53111/callback"), ("scope", "openid email"), ("state", state),
            ("nonce", "n-1"), ("code_challenge", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"), ("code_challenge_method", "S256")
        ])
        let (data, response) = await idp.handle(CapturedRequest(url: url))
        return (String(decoding: data, as: UTF8.self), response.status.code, state)
    }

    private func loginID(in page: String) throws -> String {
        let marker = #"name="login_id" value=""#
        let start = try #require(page.range(of: marker)).upperBound
        return String(page[start...].prefix { $0 != "\"" })
    }

    private func submit(_ idp: TestIdentityProvider, _ fields: [(String, String)]) async -> (Data, HTTPResponse) {
        await idp.handle(
            CapturedRequest(
                method: .post, url: idp.endpoint("/_emulator/login"),
                headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data(FormEncoding.encode(fields).utf8)))
    }

    @Test("Served at an origin: issuer and endpoints move there with their paths, and the loopback redirect is accepted")
    func servedAtOrigin() async throws {
        var configuration = TestIdentityProvider.grab().configuration
        configuration.showsLoginPage = false
        let served = configuration.served(at: origin)
        #expect(served.issuer.absoluteString == "http://127.0.0.1:8799")
        #expect(served.endpointBase?.absoluteString == "http://127.0.0.1:8799/grabid/v1/oauth2")
        #expect(
            served.quirks.discoveryExtras["id_token_verification_endpoint"]?.stringValue
                == "http://127.0.0.1:8799/grabid/v1/oauth2/id_tokens/token_info")
        #expect(served.clients.allSatisfy { $0.redirectURIs.contains(TestIdentityProvider.loopbackRedirectURI) })
        #expect(served.showsLoginPage)
        // The quirks are the vendor's own: a request without acr_values is still refused.
        let idp = TestIdentityProvider(configuration: served)
        let (_, response) = await idp.handle(
            CapturedRequest(
                url: idp.endpoint("/authorize").appendingQuery([
                    ("response_type", "code"), ("client_id", TestIdentityProvider.grabClientID),
                    ("redirect_uri", "http://127.0.0.1:5000/callback"), ("state", "s"), ("code_challenge", "x"), ("code_challenge_method", "S256")
                ])))
        #expect(response.value(forHTTPHeaderField: "Location")?.contains("error=invalid_request") == true)
    }

    @Test("The login page names the provider (escaped), has the fields and both buttons, and runs no script")
    func loginPage() async throws {
        let idp = servedIDP()
        let (page, status, _) = await authorize(idp)
        #expect(status == 200)
        #expect(page.contains("<title>Sign in – Example &lt;Provider&gt; (emulator)</title>"))
        #expect(page.contains(#"name="username""#) && page.contains(#"type="password""#))
        #expect(page.contains(#"value="approve">Sign in</button>"#) && page.contains(#"value="deny">Deny</button>"#))
        #expect(page.contains("alice@example.com"))
        #expect(!page.contains("<script"))
    }

    @Test("Sign in with the test account: a code for the registered redirect, with the state")
    func approve() async throws {
        let idp = servedIDP()
        let (page, _, state) = await authorize(idp)
        let (_, response) = await submit(
            idp,
            [
                ("login_id", try loginID(in: page)), ("username", "alice@example.com"),
                ("password", TestIdentityProvider.testPassword), ("action", "approve")
            ])
        let location = try #require(response.value(forHTTPHeaderField: "Location").flatMap(URL.init(string:)))
        #expect(location.absoluteString.hasPrefix("http://127.0.0.1:53111/callback?code="))
        #expect(location.absoluteString.contains("state=\(state)"))
    }

    @Test("Deny: access_denied with the state; the login cannot be answered twice")
    func deny() async throws {
        let idp = servedIDP()
        let (page, _, state) = await authorize(idp)
        let id = try loginID(in: page)
        let (_, response) = await submit(idp, [("login_id", id), ("action", "deny")])
        let location = try #require(response.value(forHTTPHeaderField: "Location"))
        #expect(location.contains("error=access_denied") && location.contains("state=\(state)") && !location.contains("code="))
        let (_, replay) = await submit(
            idp,
            [
                ("login_id", id), ("username", "alice@example.com"),
                ("password", TestIdentityProvider.testPassword), ("action", "approve")
            ])
        #expect(replay.status.code == 400)
    }

    @Test("A wrong password is 401 with the page again; no code is issued")
    func wrongPassword() async throws {
        let idp = servedIDP()
        let (page, _, _) = await authorize(idp)
        let id = try loginID(in: page)
        let (data, response) = await submit(idp, [("login_id", id), ("username", "alice@example.com"), ("password", "guess"), ("action", "approve")])
        #expect(response.status.code == 401)
        #expect(response.value(forHTTPHeaderField: "Location") == nil)
        #expect(String(decoding: data, as: UTF8.self).contains("Wrong username or password."))
        // The same login can still be completed with the right password.
        let (_, retry) = await submit(
            idp,
            [
                ("login_id", id), ("username", "alice@example.com"),
                ("password", TestIdentityProvider.testPassword), ("action", "approve")
            ])
        #expect(retry.value(forHTTPHeaderField: "Location")?.contains("code=") == true)
    }

    @Test("Faults: each is spent on the next response it applies to; an unknown one is 400")
    func faults() async throws {
        let idp = servedIDP()
        let faults = idp.endpoint("/_emulator/faults")
        let form = ["Content-Type": "application/x-www-form-urlencoded"]
        let (_, queued) = await idp.handle(CapturedRequest(method: .post, url: faults, headers: form, body: Data("next=server_error".utf8)))
        #expect(queued.status.code == 200)
        let (_, unknown) = await idp.handle(CapturedRequest(method: .post, url: faults, headers: form, body: Data("next=gremlins".utf8)))
        #expect(unknown.status.code == 400)
        let discovery = idp.endpoint("/.well-known/openid-configuration")
        #expect(await idp.handle(CapturedRequest(url: discovery)).1.status.code == 500)
        #expect(await idp.handle(CapturedRequest(url: discovery)).1.status.code == 200)
    }

    @Test("An expired-token fault makes the next sign-in fail with token_expired, nothing stored; the one after succeeds")
    func expiredTokenFault() async throws {
        let emulator = ProviderEmulator.openIDConnect(clock: SystemWallClock())
        let idp = try #require(emulator.identityProvider)
        await idp.queueFault(.expiredIDToken)
        let storage = InMemoryTokenStorage()
        let provider = try StandardProvider(configuration: emulator.configuration)
        let client = AuthClient(provider: provider, storage: storage, transport: emulator.transport, logger: RecordingLogger(), clock: emulator.clock)
        let error = await #expect(throws: AuthError.self) { _ = try await client.signIn(with: emulator.userAgent) }
        #expect(error?.code == .tokenExpired)
        #expect(await storage.storedKeys().isEmpty)
        _ = try await client.signIn(with: emulator.userAgent)
        #expect(await storage.storedKeys().count == 1)
    }
}
