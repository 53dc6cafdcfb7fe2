// Run with the trait: `swift test --traits VaporSignIn --filter AuthVaporTests` (Scripts/test.sh does).
#if VaporSignIn
    import AuthCore
    import AuthOIDC
    import AuthTesting
    import AuthVapor
    import Foundation
    import HTTPTypes
    import Testing
    import VaporTesting

    /// A Vapor app with the web sign-in routes in front of the in-process identity provider, and a browser's cookies.
    struct VaporWebSignInHarness {
        static let appURL = URL(string: "https://app.example.test")!
        let idp: TestIdentityProvider
        let store: any WebSessionStore
        let webSignIn: VaporWebSignIn

        init(store: any WebSessionStore = InMemoryWebSessionStore(), clock: any WallClock = SystemWallClock(), stepUp: Bool = false) throws {
            let configuration = WebSignInConfiguration(publicURL: Self.appURL, signInCookieKey: Data(repeating: 9, count: 32))
            let callback = configuration.callbackURL(for: "oidc")
            var idpConfiguration = TestIdentityProvider.Configuration(
                clients: [TestIdentityProvider.Client(id: TestIdentityProvider.defaultClientID, redirectURIs: [callback])]
            )
            if stepUp { idpConfiguration.stepUp = TestIdentityProvider.StepUpSettings() }
            idp = TestIdentityProvider(configuration: idpConfiguration, clock: clock)
            let provider = OpenIDProvider(
                issuer: TestIdentityProvider.defaultIssuer,
                client: ClientRegistration(clientID: TestIdentityProvider.defaultClientID, redirectURI: callback, scopes: ["openid", "email", "profile", "offline_access"])
            )
            self.store = store
            webSignIn = VaporWebSignIn(
                core: try WebSignInCore(providers: ["oidc": provider], store: store, transport: idp.transport, configuration: configuration, clock: idp.clock)
            )
        }

        /// Runs `body` with an app that has the middleware, the routes, and a page that greets the signed-in user.
        func withApplication(_ body: (Application) async throws -> Void) async throws {
            try await withApp { app in
                app.middleware.use(webSignIn.middleware)
                try app.register(collection: webSignIn)
                app.get("me") { request async throws -> String in
                    guard let user = request.signedInUser else { return "nobody" }
                    return "\(user.displayName) via \(user.providerName), token \(try await user.accessToken().isEmpty ? "missing" : "available")"
                }
                try await body(app)
            }
        }

        /// What the browser does between the app's login redirect and the callback: the provider approves at once and
        /// redirects back. Returns the callback's path and query.
        func followToProvider(_ location: String) async throws -> String {
            let (_, response) = try await idp.transport.send(HTTPRequest(method: .get, url: URL(string: location)!), body: nil)
            let callback = try #require(response.headerFields[.location].flatMap(URL.init(string:)), "no redirect from the provider")
            return callback.path + "?" + (callback.query ?? "")
        }

        /// Login → the provider → the callback, with `jar` as the browser's cookies; returns the callback's response.
        @discardableResult
        func signIn(_ app: Application, jar: inout VaporCookieJar) async throws -> TestingHTTPResponse {
            let login = try await app.testing().sendRequest(.GET, "/auth/oidc/login", headers: jar.headers)
            #expect(login.status == .found)
            jar.update(from: login)
            let callback = try await followToProvider(try #require(login.headers.first(name: .location)))
            let done = try await app.testing().sendRequest(.GET, callback, headers: jar.headers)
            jar.update(from: done)
            return done
        }

        /// `/auth/session`'s JSON for the browser of `jar`.
        func sessionJSON(_ app: Application, _ jar: VaporCookieJar) async throws -> [String: JSONValue] {
            let response = try await app.testing().sendRequest(.GET, "/auth/session", headers: jar.headers)
            #expect(response.headers.first(name: .cacheControl) == "no-store")
            return try JSONValue.parseObject(Data(response.body.readableBytesView))
        }
    }

    /// A browser's cookies for the app.
    struct VaporCookieJar {
        private(set) var values: [String: String] = [:]

        /// Applies the response's `Set-Cookie` headers (a `Max-Age=0` removes).
        mutating func update(from response: TestingHTTPResponse) {
            for header in response.headers[.setCookie] {
                let pair = header.split(separator: ";", maxSplits: 1)[0].split(separator: "=", maxSplits: 1)
                let name = String(pair[0])
                let value = pair.count > 1 ? String(pair[1]) : ""
                if header.contains("Max-Age=0") || value.isEmpty { values[name] = nil } else { values[name] = value }
            }
        }

        var headers: HTTPHeaders {
            values.isEmpty ? [:] : ["Cookie": values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")]
        }
    }
#endif
