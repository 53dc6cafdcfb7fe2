#if WebSignIn
public import AuthCore
import Foundation
public import Hummingbird

/// "Sign in with …" for a Hummingbird 2 app, as a backend-for-frontend: the browser holds only an opaque session
/// cookie; tokens stay on the server, in the store's ``WebSessionStore/tokenStorage``.
///
/// Routes (under ``WebSignInConfiguration/pathPrefix``, `auth` by default):
///
/// | route | what it does |
/// |---|---|
/// | `GET /auth/{provider}/login` | starts a sign-in with the provider of that name (PKCE, state, nonce; DPoP where offered) and binds it to this browser with a cookie |
/// | `GET /auth/{provider}/callback` | completes it — on whichever instance the browser reaches — and starts a new browser session |
/// | `POST /auth/logout` | with the session's CSRF token: revokes the tokens, ends the session, redirects to the provider's end-session page |
/// | `GET /auth/session` | JSON for front ends: who is signed in, the CSRF token; never a token |
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
    /// One client per provider name, all keeping credentials in the store's token storage.
    let clients: [String: AuthClient]
    /// Sessions and credentials.
    public let store: any WebSessionStore
    /// Routes and cookies.
    public let configuration: WebSignInConfiguration
    let clock: any WallClock
    let sweeper = ExpirySweeper()
    /// Seals sign-ins waiting for their callback into the browser's cookie.
    let signInCookie: SignInCookie
    /// Session records read from a shared store, trusted briefly; `nil` for a store in this process.
    let sessionCache: SessionCache?
    /// A store that just failed is not asked again for a moment (requests behind it get their 503 at once).
    let storeOutage = StoreOutage()

    /// Creates the routes' handler for `providers`, by the name each has in the routes (`grab`, `oidc`, …).
    ///
    /// - Parameters:
    ///   - providers: the providers, for example from a ``ProviderRegistry`` by name.
    ///   - store: where sessions and credentials live: ``InMemoryWebSessionStore`` for one
    ///     instance, ``PostgresWebSessionStore`` for several.
    ///   - transport: how the server reaches the providers (`AsyncHTTPClientTransport` on a server).
    ///   - configuration: the app's public URL, route prefix and cookie strictness.
    ///   - clock: the system clock by default.
    ///   - logger: swift-log by default.
    /// - Throws: `invalid_configuration` for a provider name that is not a single URL path segment, or a
    ///   ``WebSignInConfiguration/signInCookieKey`` that is not 32 bytes.
    public init(
        providers: [String: any AuthProvider],
        store: any WebSessionStore,
        transport: any HTTPTransport,
        configuration: WebSignInConfiguration,
        clock: any WallClock = SystemWallClock(),
        logger: any AuthLogger = SwiftLogAuthLogger()
    ) throws {
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-_")
        for name in providers.keys where name.isEmpty || !name.allSatisfy(allowed.contains) {
            throw AuthError(.invalidConfiguration, "The provider name '\(name)' must be lowercase letters, digits, '-' or '_': it is a URL path segment.")
        }
        self.clients = providers.mapValues {
            AuthClient(provider: $0, storage: store.tokenStorage, transport: transport, logger: logger, clock: clock)
        }
        self.store = store
        self.configuration = configuration
        self.clock = clock
        guard configuration.signInCookieKey != nil || !store.isSharedAcrossInstances else {
            throw AuthError(
                .invalidConfiguration,
                "A store shared by several instances needs WebSignInConfiguration.signInCookieKey (32 bytes, the same on every instance): with a key per process, a sign-in started on one instance cannot complete on another."
            )
        }
        self.signInCookie = try SignInCookie(key: configuration.signInCookieKey)
        self.sessionCache = store.isSharedAcrossInstances && configuration.sessionCacheLifetime > 0
            ? SessionCache(lifetime: configuration.sessionCacheLifetime) : nil
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
        var providers: [String: any AuthProvider] = [:]
        for (name, providerConfiguration) in configurations {
            providers[name] = try registry.provider(named: name, configuration: providerConfiguration)
        }
        try self.init(providers: providers, store: store, transport: transport, configuration: configuration, clock: clock, logger: logger)
    }

    /// The providers' names, sorted: one "Sign in with …" button each.
    public var providerNames: [String] { clients.keys.sorted() }

    /// The provider of `name`'s display name (`Grab`, `GOV.UK One Login`, …).
    public func displayName(of name: String) -> String? {
        clients[name].map { type(of: $0.provider).displayName }
    }

    /// The middleware that exposes the signed-in user to the handlers behind it.
    public var middleware: WebSignInMiddleware<Context> { WebSignInMiddleware(webSignIn: self) }

    /// Adds the sign-in, callback, sign-out, session and back-channel logout routes.
    public func addRoutes(to router: some RouterMethods<Context>) {
        let prefix = configuration.pathPrefix
        router.get("\(prefix)/{provider}/login") { request, context in try await self.login(request, context: context) }
        router.get("\(prefix)/{provider}/callback") { request, context in try await self.callback(request, context: context) }
        router.post("\(prefix)/logout") { request, context in try await self.logout(request, context: context) }
        router.get("\(prefix)/session") { request, context in try await self.sessionJSON(request, context: context) }
        router.post("\(prefix)/{provider}/backchannel-logout") { request, context in
            try await self.backChannelLogout(request, context: context)
        }
    }

    /// The signed-in user of `request`'s session cookie, or `nil`.
    public func signedInUser(for request: Request) async throws -> SignedInUser? {
        guard let (_, record) = try await sessionRecord(for: request), let client = clients[record.providerName] else { return nil }
        return SignedInUser(record: record, client: client)
    }

    func sessionRecord(for request: Request) async throws -> (key: String, record: WebSessionRecord)? {
        guard let id = request.cookies[WebSignInConfiguration.sessionCookieName]?.value, !id.isEmpty else { return nil }
        let key = Self.digest(id)
        let now = clock.now()
        if let cached = await sessionCache?.record(key, now: now) { return (key, cached) }
        guard let record = try await storeOutage.guarding(now: now, clock: clock, { try await store.session(key: key, now: now) }) else { return nil }
        await sessionCache?.keep(record, for: key, now: now)
        return (key, record)
    }

    /// SHA-256 in hex: how session ids are kept (never the values themselves).
    static func digest(_ value: String) -> String { sha256Hex(value) }

    /// Compares without an early exit, so the time taken says nothing about how much matched.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
#endif
