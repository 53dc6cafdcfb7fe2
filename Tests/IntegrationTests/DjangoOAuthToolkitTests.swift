import AuthCore
import AuthLoopback
import AuthOIDC
import AuthTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The whole stack over real HTTP against django-oauth-toolkit (started by `Scripts/test.sh`):
/// URLSessionTransport, AuthLoopback on an ephemeral port, and a scripted browser that logs in through the
/// server's own login form.
@Suite("Integration: django-oauth-toolkit over real HTTP", .serialized, .enabled(if: IntegrationEnvironment.enabled))
struct DjangoOAuthToolkitTests {
    private let environment: IntegrationEnvironment
    private let loopbackRedirect = URL(string: "http://127.0.0.1/callback")!

    init() throws {
        environment = try #require(
            IntegrationEnvironment.current,
            "AUTH_IT_* variables are missing: start the server with Scripts/services/idp/dot.sh start and export $(Scripts/services/idp/dot.sh env)"
        )
    }

    private struct Harness {
        let client: AuthClient
        let transport: RecordingTransport
        let browser: FormLoginBrowser
        let storage: InMemoryTokenStorage
    }

    private func harness(confidential: Bool = false, browser: FormLoginBrowser? = nil) throws -> Harness {
        let transport = RecordingTransport(IntegrationEnvironment.backChannelTransport)
        let storage = InMemoryTokenStorage()
        let client = ClientRegistration(
            clientID: confidential ? environment.confidentialClientID : environment.publicClientID,
            clientSecret: confidential ? Secret(environment.confidentialSecret) : nil,
            redirectURI: loopbackRedirect,
            scopes: ["openid", "email", "profile"]
        )
        let provider = OpenIDProvider(issuer: environment.issuer, client: client)
        return Harness(
            client: AuthClient(provider: provider, storage: storage, transport: transport, logger: RecordingLogger()),
            transport: transport,
            browser: browser
                ?? FormLoginBrowser(
                    username: environment.username, password: environment.password,
                    serverPort: environment.issuer.port ?? 80),
            storage: storage
        )
    }

    private func signIn(_ harness: Harness, options: SignInOptions = SignInOptions()) async throws -> Session {
        let browser = harness.browser
        return try await harness.client.signInWithLoopback(browser: .custom { try await browser.open($0) }, timeout: .seconds(30), options: options)
    }

    /// A raw refresh request, to check what the server thinks of a refresh token.
    private func rawRefresh(_ token: Secret, clientID: String) async throws -> (Int, JSONValue?) {
        let metadata = try await harness().client.metadata()
        var request = HTTPRequest(method: .post, url: metadata.tokenEndpoint)
        request.headerFields[.contentType] = "application/x-www-form-urlencoded"
        let body = Data(FormEncoding.encode([("grant_type", "refresh_token"), ("refresh_token", token.reveal()), ("client_id", clientID)]).utf8)
        let (data, response) = try await IntegrationEnvironment.backChannelTransport.send(request, body: body)
        return (response.statusCode, try? JSONDecoder().decode(JSONValue.self, from: data))
    }

    @Test("The back-channel transport is the one the run asked for (AUTH_IT_TRANSPORT)")
    func transportUnderTest() {
        let wanted = ProcessInfo.processInfo.environment["AUTH_IT_TRANSPORT"] == "async-http-client" ? "AsyncHTTPClientTransport" : "URLSessionTransport"
        #expect(IntegrationEnvironment.backChannelTransportName == wanted)
    }

    @Test("Sign-in with PKCE through the login form, the ID token validated with the server's real JWKS")
    func signIn() async throws {
        let harness = try harness()
        let session = try await signIn(harness)
        let claims = try #require(await session.idTokenClaims)
        #expect(claims.issuer == environment.issuer.absoluteString)
        #expect(claims.audience == [environment.publicClientID])
        #expect(claims["email"]?.stringValue == "alice@example.com")
        #expect(!claims.subject.isEmpty)
        #expect(await harness.browser.loginsSubmitted == 1)

        let exchanges = await harness.transport.exchanges
        #expect(exchanges.contains { $0.request.url?.path.hasSuffix("/.well-known/jwks.json") == true })
        let token = try #require(exchanges.first { $0.request.url?.path.hasSuffix("/token") == true })
        #expect(token.formParameters["code_verifier"]?.count == 43)
        let redirect = try #require(token.formParameters["redirect_uri"].flatMap(URL.init(string:)))
        #expect(redirect.host == "127.0.0.1" && (redirect.port ?? 0) > 0, "an ephemeral loopback port was used")
        let authorize = try #require(await harness.browser.visited.first)
        #expect(authorize.queryParameters["code_challenge_method"] == "S256")
        #expect(await harness.storage.storedKeys().count == 1)
    }

    @Test("Each sign-in listens on a new ephemeral loopback port")
    func ephemeralPorts() async throws {
        let first = try harness()
        let second = try harness()
        _ = try await signIn(first)
        _ = try await signIn(second)
        let values = await [first, second].asyncMap { harness in
            await harness.transport.exchanges.first { $0.request.url?.path.hasSuffix("/token") == true }?
                .formParameters["redirect_uri"].flatMap(URL.init(string:))?.port
        }
        #expect(values.allSatisfy { ($0 ?? 0) > 0 })
        #expect(Set(values).count == 2)
    }

    @Test("Refresh rotates the refresh token; the server rejects the old one; the new ID token is validated")
    func refreshWithRotation() async throws {
        let harness = try harness()
        let session = try await signIn(harness)
        let before = await session.credential
        let after = try await session.refresh()
        #expect(after.accessToken != before.accessToken)
        #expect(after.refreshToken != before.refreshToken)
        #expect(after.subject == before.subject)
        #expect(await harness.storage.credential(for: before.storageKey)?.refreshToken == after.refreshToken)

        let (status, body) = try await rawRefresh(try #require(before.refreshToken), clientID: environment.publicClientID)
        #expect(status == 400)
        #expect(body?["error"] == "invalid_grant")
    }

    @Test("User info matches the ID token's subject")
    func userInfo() async throws {
        let session = try await signIn(try harness())
        let info = try await session.userInfo()
        #expect(info.subject == (await session.subject))
        #expect(info["email"]?.stringValue == "alice@example.com")
    }

    @Test("Introspection by a confidential client with client_secret_basic")
    func introspection() async throws {
        let harness = try harness(confidential: true)
        let session = try await signIn(harness)
        let result = try await session.introspect()
        #expect(result.isActive)
        #expect(result.clientID == environment.confidentialClientID)
        let call = try #require(await harness.transport.exchanges.first { $0.request.url?.path.hasSuffix("/introspect") == true })
        #expect(call.request.value(forHTTPHeaderField: "Authorization")?.hasPrefix("Basic ") == true)
        #expect(call.formParameters["client_secret"] == nil)
    }

    @Test("Sign-out revokes the refresh token and the access token at the server")
    func revocation() async throws {
        let harness = try harness()
        let session = try await signIn(harness)
        let credential = await session.credential
        let report = try await session.signOut()
        #expect(report.revokedRefreshToken && report.revokedAccessToken && report.revocationError == nil)
        #expect(await harness.storage.storedKeys().isEmpty)
        let (status, body) = try await rawRefresh(try #require(credential.refreshToken), clientID: environment.publicClientID)
        #expect(status == 400)
        #expect(body?["error"] == "invalid_grant")
        // The revoked access token no longer opens user info.
        let confidential = try self.harness(confidential: true)
        let introspection = try await confidential.client.introspect(credential.accessToken)
        #expect(introspection.isActive == false)
    }

    @Test("The end-session URL logs out at the server and returns to the post-logout redirect with state")
    func endSession() async throws {
        let session = try await signIn(try harness())
        let postLogout = URL(string: "http://127.0.0.1:53682/logged-out")!
        let url = try await session.endSessionURL(postLogoutRedirectURI: postLogout, state: "bye-123")
        #expect(url.queryParameters["id_token_hint"] != nil)
        let (_, response) = try await IntegrationEnvironment.backChannelTransport.send(HTTPRequest(method: .get, url: url))
        #expect((300..<400).contains(response.statusCode))
        let location = try #require(response.value(forHTTPHeaderField: "Location").flatMap(URL.init(string:)))
        #expect(location.absoluteString.hasPrefix(postLogout.absoluteString))
        #expect(location.queryParameters["state"] == "bye-123")
    }

    @Test("prompt=login makes the server ask for the password again despite its session cookie")
    func promptLogin() async throws {
        let shared = FormLoginBrowser(username: environment.username, password: environment.password, serverPort: environment.issuer.port ?? 80)
        _ = try await signIn(try harness(browser: shared))
        #expect(await shared.loginsSubmitted == 1)
        _ = try await signIn(try harness(browser: shared))
        #expect(await shared.loginsSubmitted == 1, "the server's session cookie signs in silently")
        _ = try await signIn(try harness(browser: shared), options: SignInOptions(prompt: ["login"]))
        #expect(await shared.loginsSubmitted == 2, "prompt=login forced the login form")
    }
}

extension URL {
    var queryParameters: [String: String] {
        let query = URLComponents(url: self, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
        return Dictionary(FormEncoding.decode(query), uniquingKeysWith: { first, _ in first })
    }
}

extension Array where Element: Sendable {
    func asyncMap<T: Sendable>(_ transform: @Sendable (Element) async -> T) async -> [T] {
        var results: [T] = []
        for element in self { results.append(await transform(element)) }
        return results
    }
}
