#if HummingbirdSignIn
    public import AuthCore
    public import AuthWebSignIn
    import Foundation
    public import Hummingbird

    /// "Sign in with …" for a Hummingbird 2 app, as a backend-for-frontend: the browser holds only an opaque session
    /// cookie; tokens stay on the server, in the store's `WebSessionStore/tokenStorage`. The routes' work is done by
    /// the framework-neutral `WebSignInCore`; this type adds them to a Hummingbird router.
    ///
    /// Routes (under `WebSignInConfiguration/pathPrefix`, `auth` by default):
    ///
    /// | route | what it does |
    /// |---|---|
    /// | `GET /auth/{provider}/login` | starts a sign-in with the provider of that name (PKCE, state, nonce; DPoP where offered) and binds it to this browser with a cookie |
    /// | `GET` or `POST /auth/{provider}/callback` | completes it — on whichever instance the browser reaches — and starts a new browser session (`POST`: a provider answering with `response_mode=form_post`, Sign in with Apple) |
    /// | `POST /auth/logout` | with the session's CSRF token: revokes the tokens, ends the session, redirects to the provider's end-session page |
    /// | `GET /auth/session` | JSON for front ends: who is signed in, the CSRF token; never a token |
    /// | `POST /auth/{provider}/backchannel-logout` | the provider ends a user's sessions (OpenID Connect Back-Channel Logout) |
    /// | `GET /auth/{provider}/signed-out` | the provider's redirect back after sign-out; its `state` checked once |
    /// | `GET /auth/{provider}/frontchannel-logout` | the provider ends a session by `iss` and `sid` (OpenID Connect Front-Channel Logout) |
    /// | `GET` or `POST /auth/{provider}/initiate-login` | a sign-in the provider initiates (`iss`, `login_hint`, a `target_link_uri` on the app's origin) |
    /// | `POST /auth/{provider}/notifications` | Sign in with Apple's server-to-server notifications (a signed `{"payload": …}`) |
    /// | `POST /auth/{provider}/native/nonce`, `POST /auth/{provider}/native/sign-in` | a native app's own sign-in (Sign in with Apple on iOS) verified in full, for the same session cookie |
    ///
    /// ```swift
    /// let webSignIn = try WebSignIn<BasicWebSignInRequestContext>(
    ///     providers: ["grab": grab, "oidc": oidc], store: InMemoryWebSessionStore(), transport: AsyncHTTPClientTransport(),
    ///     configuration: WebSignInConfiguration(publicURL: URL(string: "https://app.example.com")!))
    /// let router = Router(context: BasicWebSignInRequestContext.self)
    /// router.add(middleware: webSignIn.middleware)
    /// webSignIn.addRoutes(to: router)
    /// router.get("/account") { _, context in context.signedInUser?.displayName ?? "signed out" }
    /// ```
    public struct WebSignIn<Context: WebSignInRequestContext>: Sendable {
        /// The framework-neutral core the routes call.
        public let core: WebSignInCore
        /// Sessions and credentials.
        public var store: any WebSessionStore { core.store }
        /// Routes and cookies.
        public var configuration: WebSignInConfiguration { core.configuration }

        /// Creates the routes' handler for `providers`, by the name each has in the routes (`grab`, `oidc`, …).
        ///
        /// - Parameters:
        ///   - providers: the providers, for example from a `ProviderRegistry` by name.
        ///   - store: where sessions and credentials live: `InMemoryWebSessionStore` for one
        ///     instance, `PostgresWebSessionStore` (AuthPostgres) for several.
        ///   - transport: how the server reaches the providers (`AsyncHTTPClientTransport` on a server).
        ///   - configuration: the app's public URL, route prefix and cookie strictness.
        ///   - nativeProviders: for the native sign-in routes, each provider as the app's native client is registered
        ///     (its client id is the audience of the app's ID tokens); none by default.
        ///   - clock: the system clock by default.
        ///   - logger: swift-log by default.
        /// - Throws: `invalid_configuration` for a provider name that is not a single URL path segment, or a
        ///   `WebSignInConfiguration/signInCookieKey` that is not 32 bytes.
        public init(
            providers: [String: any AuthProvider],
            store: any WebSessionStore,
            transport: any HTTPTransport,
            configuration: WebSignInConfiguration,
            nativeProviders: [String: any AuthProvider] = [:],
            clock: any WallClock = SystemWallClock(),
            logger: any AuthLogger = SwiftLogAuthLogger()
        ) throws {
            core = try WebSignInCore(
                providers: providers, store: store, transport: transport, configuration: configuration, nativeProviders: nativeProviders, clock: clock,
                logger: logger
            )
        }

        /// Creates the routes' handler for the providers a registry builds by name from `configurations` (the route name
        /// is the registry's name: `/auth/grab/login` for `"grab"`).
        ///
        /// - Throws: `unknown_provider` for a name the registry does not know; the provider's configuration errors.
        public init(
            registry: ProviderRegistry,
            configurations: [String: ProviderConfiguration],
            store: any WebSessionStore,
            transport: any HTTPTransport,
            configuration: WebSignInConfiguration,
            clock: any WallClock = SystemWallClock(),
            logger: any AuthLogger = SwiftLogAuthLogger()
        ) throws {
            core = try WebSignInCore(
                registry: registry, configurations: configurations, store: store, transport: transport, configuration: configuration, clock: clock, logger: logger
            )
        }

        /// The providers' names, sorted: one "Sign in with …" button each.
        public var providerNames: [String] { core.providerNames }

        /// The provider of `name`'s display name (`Grab`, `GOV.UK One Login`, …).
        public func displayName(of name: String) -> String? { core.displayName(of: name) }

        /// The middleware that exposes the signed-in user to the handlers behind it.
        public var middleware: WebSignInMiddleware<Context> { WebSignInMiddleware(webSignIn: self) }

        /// The signed-in user of `request`'s session cookie, or `nil`.
        public func signedInUser(for request: Request) async throws -> SignedInUser? {
            try await core.signedInUser(for: WebRequest(request, body: nil))
        }
    }
#endif
