#if VaporSignIn
    public import AuthWebSignIn
    import Foundation
    public import Vapor

    /// "Sign in with …" for a Vapor 4 app, as a backend-for-frontend: the browser holds only an opaque session cookie;
    /// tokens stay on the server, in the store's `WebSessionStore.tokenStorage`. The routes' work is done by the
    /// framework-neutral `WebSignInCore` — the same core, routes, cookies and stores as AuthHummingbird's `WebSignIn` —
    /// and this type registers them with Vapor's router, as a `RouteCollection`.
    ///
    /// Routes (under `WebSignInConfiguration.pathPrefix`, `auth` by default):
    ///
    /// | route | what it does |
    /// |---|---|
    /// | `GET /auth/:provider/login` | starts a sign-in with the provider of that name (PKCE, state, nonce; DPoP where offered) and binds it to this browser with a cookie |
    /// | `GET` or `POST /auth/:provider/callback` | completes it — on whichever instance the browser reaches — and starts a new browser session (`POST`: a provider answering with `response_mode=form_post`, Sign in with Apple) |
    /// | `POST /auth/logout` | with the session's CSRF token: revokes the tokens, ends the session, redirects to the provider's end-session page |
    /// | `GET /auth/session` | JSON for front ends: who is signed in, the CSRF token; never a token |
    /// | `POST /auth/:provider/backchannel-logout` | the provider ends a user's sessions (OpenID Connect Back-Channel Logout) |
    /// | `GET /auth/:provider/signed-out` | the provider's redirect back after sign-out; its `state` checked once |
    /// | `GET /auth/:provider/frontchannel-logout` | the provider ends a session by `iss` and `sid` (OpenID Connect Front-Channel Logout) |
    /// | `GET` or `POST /auth/:provider/initiate-login` | a sign-in the provider initiates (`iss`, `login_hint`, a `target_link_uri` on the app's origin) |
    /// | `POST /auth/:provider/notifications` | Sign in with Apple's server-to-server notifications (a signed `{"payload": …}`) |
    /// | `POST /auth/:provider/native/nonce`, `POST /auth/:provider/native/sign-in` | a native app's own sign-in (Sign in with Apple on iOS) verified in full, for the same session cookie |
    ///
    /// ```swift
    /// let webSignIn = VaporWebSignIn(core: try WebSignInCore(
    ///     providers: ["grab": grab, "oidc": oidc], store: InMemoryWebSessionStore(), transport: AsyncHTTPClientTransport(),
    ///     configuration: WebSignInConfiguration(publicURL: URL(string: "https://app.example.com")!)))
    /// app.middleware.use(webSignIn.middleware)
    /// try app.register(collection: webSignIn)
    /// app.get("account") { request in request.signedInUser?.displayName ?? "signed out" }
    /// ```
    public struct VaporWebSignIn: RouteCollection, Sendable {
        /// The framework-neutral core the routes call.
        public let core: WebSignInCore
        /// Sessions and credentials.
        public var store: any WebSessionStore { core.store }
        /// Routes and cookies.
        public var configuration: WebSignInConfiguration { core.configuration }

        /// Routes for `core`: it holds the providers, the store, the transport and the configuration
        /// (`WebSignInCore.init(providers:store:transport:configuration:nativeProviders:clock:logger:)` says what each is).
        public init(core: WebSignInCore) {
            self.core = core
        }

        /// The providers' names, sorted: one "Sign in with …" button each.
        public var providerNames: [String] { core.providerNames }

        /// The middleware that sets `Request.signedInUser` for the handlers behind it; add it with
        /// `app.middleware.use(_:)` so that every route, these included, sees the session.
        public var middleware: VaporWebSignInMiddleware { VaporWebSignInMiddleware(core: core) }

        /// Adds the sign-in, callback (GET and POST), sign-out, session, back-channel logout and native sign-in routes;
        /// each hands the request to `WebSignInCore` and returns its answer. `try app.register(collection:)` calls it.
        public func boot(routes: any RoutesBuilder) throws {
            let core = self.core
            let prefix = configuration.pathPrefix.split(separator: "/").map { PathComponent.constant(String($0)) }
            let routes = routes.grouped(prefix)
            let provider = PathComponent.parameter("provider")
            // Form bodies (callbacks, sign-out, back-channel logout, native sign-in): at most this many bytes, 413 beyond.
            let form = HTTPBodyStreamStrategy.collect(maxSize: ByteCount(value: WebSignInCore.maximumFormBodySize))

            // Vapor sends a HEAD to the GET route: the core answers it 405 with nothing started or spent.
            routes.get(provider, "login") { request in
                Response(await core.login(provider: Self.provider(request), request: WebRequest(request)))
            }
            routes.get(provider, "callback") { request in
                Response(try await core.callback(provider: Self.provider(request), request: WebRequest(request)))
            }
            // `response_mode=form_post` (Sign in with Apple): the answer is a form in the body.
            routes.on(.POST, provider, "callback", body: form) { request in
                Response(try await core.callback(provider: Self.provider(request), request: WebRequest(request)))
            }
            routes.on(.POST, "logout", body: form) { request in
                Response(try await core.logout(WebRequest(request)))
            }
            routes.get("session") { request in
                Response(try await core.sessionJSON(WebRequest(request)))
            }
            routes.on(.POST, provider, "backchannel-logout", body: form) { request in
                Response(await core.backChannelLogout(provider: Self.provider(request), request: WebRequest(request)))
            }
            // The logout profiles and third-party-initiated login (OpenID Connect RP-Initiated and Front-Channel
            // Logout 1.0, Core §4).
            routes.get(provider, "signed-out") { request in
                Response(try await core.signedOut(provider: Self.provider(request), request: WebRequest(request)))
            }
            routes.get(provider, "frontchannel-logout") { request in
                Response(try await core.frontChannelLogout(provider: Self.provider(request), request: WebRequest(request)))
            }
            routes.get(provider, "initiate-login") { request in
                Response(await core.initiateLogin(provider: Self.provider(request), request: WebRequest(request)))
            }
            routes.on(.POST, provider, "initiate-login", body: form) { request in
                Response(await core.initiateLogin(provider: Self.provider(request), request: WebRequest(request)))
            }
            // Sign in with Apple's server-to-server notifications (a JSON body).
            routes.on(.POST, provider, "notifications", body: form) { request in
                Response(await core.appleNotification(provider: Self.provider(request), request: WebRequest(request)))
            }
            routes.on(.POST, provider, "native", "nonce", body: form) { request in
                Response(await core.nativeNonce(provider: Self.provider(request)))
            }
            routes.on(.POST, provider, "native", "sign-in", body: form) { request in
                Response(try await core.nativeSignIn(provider: Self.provider(request), request: WebRequest(request)))
            }
        }

        /// The `:provider` path segment.
        static func provider(_ request: Request) -> String {
            request.parameters.get("provider") ?? ""
        }

        /// The signed-in user of `request`'s session cookie, or `nil`.
        public func signedInUser(for request: Request) async throws -> SignedInUser? {
            try await core.signedInUser(for: WebRequest(request))
        }
    }
#endif
