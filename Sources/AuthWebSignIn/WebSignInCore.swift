public import AuthCore
import Foundation

/// "Sign in with …" for any Swift web framework, as a backend-for-frontend: the browser holds only an opaque session
/// cookie; tokens stay on the server, in the store's ``WebSessionStore/tokenStorage``. It knows no web framework:
/// an adapter (AuthHummingbird's `WebSignIn`, or one for another framework) turns each request of the routes below
/// into a ``WebRequest``, calls the method of that route, and copies the ``WebResponse`` back.
///
/// | route | method | what it does |
/// |---|---|---|
/// | `GET /auth/{provider}/login` | ``login(provider:request:)`` | starts a sign-in (PKCE, state, nonce; DPoP where offered), sealed into this browser's sign-in cookie |
/// | `GET` or `POST /auth/{provider}/callback` | ``callback(provider:request:)`` | completes it — on whichever instance the browser reaches — and starts a new browser session |
/// | `POST /auth/logout` | ``logout(_:)`` | with the session's CSRF token: revokes the tokens, ends the session, redirects to the provider's end-session page |
/// | `GET /auth/session` | ``sessionJSON(_:)`` | JSON for front ends: who is signed in, the CSRF token; never a token |
/// | `POST /auth/{provider}/backchannel-logout` | ``backChannelLogout(provider:request:)`` | the provider ends a user's sessions (OpenID Connect Back-Channel Logout) |
/// | `GET /auth/{provider}/signed-out` | ``signedOut(provider:request:)`` | the provider's redirect back after sign-out: its `state` must be this browser's, once (OpenID Connect RP-Initiated Logout) |
/// | `GET /auth/{provider}/frontchannel-logout` | ``frontChannelLogout(provider:request:)`` | the provider ends the sessions of an `iss` and `sid` (OpenID Connect Front-Channel Logout) |
/// | `GET` or `POST /auth/{provider}/initiate-login` | ``initiateLogin(provider:request:)`` | a sign-in the provider initiates; `target_link_uri` only on the app's own origin (OpenID Connect Core §4) |
/// | `POST /auth/{provider}/native/nonce` | ``nativeNonce(provider:)`` | a single-use nonce for a sign-in a native app performs itself |
/// | `POST /auth/{provider}/native/sign-in` | ``nativeSignIn(provider:request:)`` | the app's natively obtained ID token, verified in full, for the same session cookie |
///
/// Every request of a signed-in browser is resolved with ``signedInUser(for:)``. A method that cannot reach the
/// session store throws `storage_unavailable`; the adapter answers ``WebResponse/storeUnavailable`` (503).
///
/// ## Callbacks by POST (`response_mode=form_post`)
/// A provider asked for `response_mode=form_post` (Sign in with Apple) answers with a cross-site form POST to the
/// callback. A browser does not send a `SameSite=Lax` cookie with a cross-site POST, so such a provider's sign-in
/// cookie is `SameSite=None` (still `__Host-`, `Secure`, `HttpOnly`, sealed, ten minutes, cleared at the callback),
/// and every other provider's stays `Lax`. What `None` opens: any site can make the browser send the sealed cookie
/// with a POST to the callback — which completes nothing without the provider's `state` and a code the provider
/// redeems once against the PKCE verifier inside the cookie, so the worst such a POST does is spend the sign-in in
/// flight (a top-level `GET` from any site, which carries `Lax` cookies, already can). The alternative — answer the
/// POST with a page that re-posts to the app from its own origin — needs script or a user click on the callback page
/// and adds a round trip; `None` needs neither. A callback must come with the method its sign-in asked for: a `GET`
/// to a form_post sign-in (its code in a URL) or a `POST` to a query one is refused (`callback_method_mismatch`).
public struct WebSignInCore: Sendable {
    /// One client per provider name, all keeping credentials in the store's token storage.
    let clients: [String: AuthClient]
    /// The native apps' clients (the app's own client id: Apple's bundle id), by provider name; sessions they start
    /// are named by it too.
    let nativeClients: [String: AuthClient]
    /// Sessions and credentials.
    public let store: any WebSessionStore
    /// Routes and cookies.
    public let configuration: WebSignInConfiguration
    let clock: any WallClock
    let sweeper = ExpirySweeper()
    /// Sweeps expired used-nonce marks once a minute of `clock`, while there are native routes (`nil` without).
    let markSweeper: MarkSweeper?
    /// Seals sign-ins waiting for their callback into the browser's cookie.
    let signInCookie: SignInCookie
    /// Seals a sign-out waiting for the provider's redirect back (its `state`) into the browser's sign-out cookie.
    let signOutCookie: SignOutCookie
    /// Makes and verifies the native sign-in routes' nonces, with the sign-in cookie's shared key.
    let nativeNonces: NativeNonce
    /// Session records read from a shared store, trusted briefly; `nil` for a store in this process.
    let sessionCache: SessionCache?
    /// A store that just failed is not asked again for a moment (requests behind it get their 503 at once).
    let storeOutage = StoreOutage()

    /// The most body bytes an adapter collects for a route that reads one (form posts, logout tokens, native ID
    /// tokens); a larger body is refused before it is read further (Hummingbird: 413).
    public static let maximumFormBodySize = 16 * 1024

    /// Creates the core for `providers`, by the name each has in the routes (`grab`, `oidc`, …).
    ///
    /// - Parameters:
    ///   - providers: the providers, for example from a `ProviderRegistry` by name.
    ///   - store: where sessions and credentials live: ``InMemoryWebSessionStore`` for one instance,
    ///     `PostgresWebSessionStore` (AuthPostgres) for several.
    ///   - transport: how the server reaches the providers (`AsyncHTTPClientTransport` on a server).
    ///   - configuration: the app's public URL, route prefix and cookie strictness.
    ///   - nativeProviders: for the native sign-in routes, the provider of each name as the app's native client is
    ///     registered (its `client_id` is the `aud` the app's ID tokens must carry: Apple's bundle id, not the web's
    ///     Services ID); a name not here has no native routes (404).
    ///   - clock: the system clock by default.
    ///   - logger: swift-log by default.
    /// - Throws: `invalid_configuration` for a provider name that is not a single URL path segment, a
    ///   ``WebSignInConfiguration/signInCookieKey`` that is not 32 bytes, or a store shared by several instances
    ///   without one.
    public init(
        providers: [String: any AuthProvider],
        store: any WebSessionStore,
        transport: any HTTPTransport,
        configuration: WebSignInConfiguration,
        nativeProviders: [String: any AuthProvider] = [:],
        clock: any WallClock = SystemWallClock(),
        logger: any AuthLogger = SwiftLogAuthLogger()
    ) throws {
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-_")
        for name in Set(providers.keys).union(nativeProviders.keys) where name.isEmpty || !name.allSatisfy(allowed.contains) {
            throw AuthError(.invalidConfiguration, "The provider name '\(name)' must be lowercase letters, digits, '-' or '_': it is a URL path segment.")
        }
        self.clients = providers.mapValues {
            AuthClient(provider: $0, storage: store.tokenStorage, transport: transport, logger: logger, clock: clock)
        }
        self.nativeClients = nativeProviders.mapValues {
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
        self.signOutCookie = SignOutCookie(key: configuration.signInCookieKey)
        self.nativeNonces = NativeNonce(key: configuration.signInCookieKey)
        self.markSweeper = nativeProviders.isEmpty ? nil : MarkSweeper(store: store, clock: clock)
        self.sessionCache =
            store.isSharedAcrossInstances && configuration.sessionCacheLifetime > 0
            ? SessionCache(lifetime: configuration.sessionCacheLifetime) : nil
    }

    /// Creates the core for the providers a registry builds by name from `configurations` (the route name is the
    /// registry's name: `/auth/grab/login` for `"grab"`).
    ///
    /// - Throws: `unknown_provider` for a name the registry does not know; the provider's configuration errors; as
    ///   `init(providers:store:transport:configuration:clock:logger:)`.
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
        (clients[name] ?? nativeClients[name]).map { type(of: $0.provider).displayName }
    }

    /// The signed-in user of `request`'s session cookie, or `nil` (no cookie, an unknown, expired or forged one).
    ///
    /// - Throws: `storage_unavailable` when the store cannot answer (the adapter answers ``WebResponse/storeUnavailable``).
    public func signedInUser(for request: WebRequest) async throws -> SignedInUser? {
        guard let (_, record) = try await sessionRecord(for: request), let client = client(for: record) else { return nil }
        return SignedInUser(record: record, client: client)
    }

    /// The client that keeps `record`'s credential: the web client of its provider, or the native app's client for a
    /// session a native sign-in started.
    func client(for record: WebSessionRecord) -> AuthClient? {
        let candidates = [clients[record.providerName], nativeClients[record.providerName]].compactMap { $0 }
        return candidates.first { $0.provider.client.clientID == record.account.clientID } ?? candidates.first
    }

    func sessionRecord(for request: WebRequest) async throws -> (key: String, record: WebSessionRecord)? {
        guard let id = request.cookie(WebSignInConfiguration.sessionCookieName), !id.isEmpty else { return nil }
        let key = Self.digest(id)
        let now = clock.now()
        if let cached = await sessionCache?.record(key, now: now) { return (key, cached) }
        guard let record = try await storeOutage.guarding(now: now, clock: clock, { try await store.session(key: key, now: now) }) else { return nil }
        // A session whose credential is gone (the provider answered `invalid_grant`, a back-channel logout removed
        // it, an administrator deleted it) is signed out: it ends here, on the first request that reads it.
        let exists: Bool
        do {
            exists = try await storeOutage.guarding(now: now, clock: clock) { try await store.tokenStorage.credential(for: record.account) != nil }
        } catch let error as AuthError where error.code == .storageUnavailable {
            throw error
        } catch {
            exists = true  // there, but unreadable here (another key): not this check's to end
        }
        guard exists else {
            try? await store.removeSession(key: key)
            return nil
        }
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
