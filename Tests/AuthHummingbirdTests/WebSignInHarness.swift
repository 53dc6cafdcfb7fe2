// Run with the trait: `swift test --traits HummingbirdSignIn --filter AuthHummingbird` (Scripts/test.sh does).
#if HummingbirdSignIn
    import AuthCore
    import AuthHummingbird
    import AuthOIDC
    import AuthTesting
    import Foundation
    import Hummingbird
    import HummingbirdTesting

    /// An app with the web sign-in routes in front of the in-process identity provider, and a browser's cookie jar.
    struct WebSignInHarness {
        static let appURL = URL(string: "https://app.example.test")!
        let idp: TestIdentityProvider
        let store: any WebSessionStore
        let webSignIn: WebSignIn<BasicWebSignInRequestContext>

        /// Another instance of the same app in front of the same identity provider, with its own store handle.
        func sibling(store: any WebSessionStore) throws -> WebSignInHarness {
            try WebSignInHarness(idp: idp, store: store, sameSite: webSignIn.configuration.sessionCookieSameSite, clock: idp.clock, cookieKey: Self.cookieKey)
        }

        /// The sign-in cookie key every instance of the test app shares.
        static let cookieKey = Data(repeating: 9, count: 32)

        init(
            store: any WebSessionStore = InMemoryWebSessionStore(), sameSite: WebSignInConfiguration.SameSite = .lax,
            clock: any WallClock = SystemWallClock(), cookieKey: Data = WebSignInHarness.cookieKey, stepUp: Bool = false
        ) throws {
            try self.init(idp: nil, store: store, sameSite: sameSite, clock: clock, cookieKey: cookieKey, stepUp: stepUp)
        }

        private init(
            idp existing: TestIdentityProvider?, store: any WebSessionStore, sameSite: WebSignInConfiguration.SameSite,
            clock: any WallClock = SystemWallClock(), cookieKey: Data, stepUp: Bool = false
        ) throws {
            let configuration = WebSignInConfiguration(publicURL: Self.appURL, sessionCookieSameSite: sameSite, signInCookieKey: cookieKey)
            let callback = configuration.callbackURL(for: "oidc")
            var idpConfiguration = TestIdentityProvider.Configuration(
                clients: [TestIdentityProvider.Client(id: TestIdentityProvider.defaultClientID, redirectURIs: [callback])]
            )
            if stepUp { idpConfiguration.stepUp = TestIdentityProvider.StepUpSettings() }
            idp = existing ?? TestIdentityProvider(configuration: idpConfiguration, clock: clock)
            let provider = OpenIDProvider(
                issuer: TestIdentityProvider.defaultIssuer,
                client: ClientRegistration(clientID: TestIdentityProvider.defaultClientID, redirectURI: callback, scopes: ["openid", "email", "profile", "offline_access"])
            )
            self.store = store
            webSignIn = try WebSignIn(
                providers: ["oidc": provider], store: store, transport: idp.transport, configuration: configuration, clock: idp.clock
            )
        }

        /// The app: the middleware, the routes, and a page that greets the signed-in user.
        func application() -> some ApplicationProtocol {
            let router = Router(context: BasicWebSignInRequestContext.self)
            router.add(middleware: webSignIn.middleware)
            webSignIn.addRoutes(to: router)
            router.get("/me") { _, context -> String in
                guard let user = context.signedInUser else { return "nobody" }
                return "\(user.displayName) via \(user.providerName), token \(try await user.accessToken().isEmpty ? "missing" : "available")"
            }
            return Application(router: router)
        }

        /// What the browser does between the app's login redirect and the callback: the provider approves at once and
        /// redirects back. Returns the callback's path and query.
        func followToProvider(_ location: String) async throws -> String {
            let (_, response) = try await idp.transport.send(HTTPRequest(method: .get, url: URL(string: location)!), body: nil)
            let callback = try require(response.headerFields[.location].flatMap(URL.init(string:)), "no redirect from the provider")
            return callback.path + "?" + (callback.query ?? "")
        }
    }

    /// A browser's cookies for the app.
    struct CookieJar {
        private(set) var values: [String: String] = [:]

        /// Applies the response's `Set-Cookie` headers (a `Max-Age=0` removes).
        mutating func update(from response: TestResponse) {
            for header in response.headers[values: .setCookie] {
                let pair = header.split(separator: ";", maxSplits: 1)[0].split(separator: "=", maxSplits: 1)
                let name = String(pair[0])
                let value = pair.count > 1 ? String(pair[1]) : ""
                if header.contains("Max-Age=0") || value.isEmpty { values[name] = nil } else { values[name] = value }
            }
        }

        mutating func set(_ name: String, _ value: String) { values[name] = value }

        var header: HTTPFields {
            values.isEmpty ? [:] : [.cookie: values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")]
        }
    }

    func require<T>(_ value: T?, _ message: String = "missing") throws -> T {
        guard let value else { throw HarnessError(message) }
        return value
    }

    struct HarnessError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
#endif
