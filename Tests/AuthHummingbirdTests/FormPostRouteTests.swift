#if HummingbirdSignIn
    import AuthCore
    import AuthHummingbird
    import AuthOIDC
    import AuthTesting
    import Foundation
    import Hummingbird
    import HummingbirdTesting
    import Testing

    @Suite("web sign-in for Hummingbird: callbacks by form POST")
    struct FormPostRouteTests {
        /// An app whose `oidc` provider asks for `response_mode=form_post`.
        static func application() throws -> (some ApplicationProtocol, TestIdentityProvider, InMemoryWebSessionStore) {
            let configuration = WebSignInConfiguration(publicURL: WebSignInHarness.appURL, signInCookieKey: WebSignInHarness.cookieKey)
            let callback = configuration.callbackURL(for: "oidc")
            let idp = TestIdentityProvider(
                configuration: TestIdentityProvider.Configuration(
                    clients: [TestIdentityProvider.Client(id: TestIdentityProvider.defaultClientID, redirectURIs: [callback])]
                ),
                clock: SystemWallClock()
            )
            let provider = OpenIDProvider(
                issuer: TestIdentityProvider.defaultIssuer,
                client: ClientRegistration(clientID: TestIdentityProvider.defaultClientID, redirectURI: callback, scopes: ["openid", "profile"]),
                additionalParameters: ["response_mode": "form_post"]
            )
            let store = InMemoryWebSessionStore()
            let webSignIn = try WebSignIn<BasicWebSignInRequestContext>(
                providers: ["oidc": provider], store: store, transport: idp.transport, configuration: configuration, clock: idp.clock
            )
            let router = Router(context: BasicWebSignInRequestContext.self)
            router.add(middleware: webSignIn.middleware)
            webSignIn.addRoutes(to: router)
            router.get("/me") { _, context -> String in context.signedInUser?.displayName ?? "nobody" }
            return (Application(router: router), idp, store)
        }

        /// The provider's answer to `login` as the form it would post.
        static func answer(_ login: TestResponse, idp: TestIdentityProvider) async throws -> String {
            let (_, response) = try await idp.transport.send(HTTPRequest(method: .get, url: URL(string: try require(login.headers[.location]))!), body: nil)
            return try require(response.headerFields[.location].flatMap { URLComponents(string: $0)?.percentEncodedQuery })
        }

        @Test("POST /auth/{provider}/callback with the provider's form signs in; the sign-in cookie was SameSite=None")
        func signsIn() async throws {
            let (app, idp, _) = try Self.application()
            try await app.test(.router) { client in
                var jar = CookieJar()
                let login = try await client.execute(uri: "/auth/oidc/login", method: .get)
                #expect(try require(login.headers[values: .setCookie].first { $0.hasPrefix("__Host-auth_signin=") }).contains("SameSite=None"))
                jar.update(from: login)
                var headers = jar.header
                headers[.contentType] = "application/x-www-form-urlencoded"
                let done = try await client.execute(
                    uri: "/auth/oidc/callback", method: .post, headers: headers, body: ByteBuffer(string: try await Self.answer(login, idp: idp))
                )
                #expect(done.status == .seeOther)
                jar.update(from: done)
                let me = try await client.execute(uri: "/me", method: .get, headers: jar.header)
                #expect(String(buffer: me.body) == "Alice Example")
            }
        }

        @Test("Hostile: a POST callback without the sign-in cookie is 400 sign_in_cookie_missing, and a body over 16 KiB is 413 unread; nothing stored")
        func refusals() async throws {
            let (app, idp, store) = try Self.application()
            try await app.test(.router) { client in
                var jar = CookieJar()
                let login = try await client.execute(uri: "/auth/oidc/login", method: .get)
                jar.update(from: login)
                let form = try await Self.answer(login, idp: idp)
                let withoutCookie = try await client.execute(
                    uri: "/auth/oidc/callback", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"], body: ByteBuffer(string: form)
                )
                #expect(withoutCookie.status == .badRequest)
                #expect(String(buffer: withoutCookie.body).contains("(sign_in_cookie_missing)"))
                var headers = jar.header
                headers[.contentType] = "application/x-www-form-urlencoded"
                let padded = form + "&padding=" + String(repeating: "a", count: 17 * 1024)
                let tooLarge = try await client.execute(uri: "/auth/oidc/callback", method: .post, headers: headers, body: ByteBuffer(string: padded))
                #expect(tooLarge.status == .contentTooLarge)
                #expect(try await store.tokenStorage.storedKeys().isEmpty)
                #expect(await store.sessionCount == 0)
                #expect(await idp.tokenRequestsByGrant["authorization_code"] == nil)
            }
        }
    }
#endif
