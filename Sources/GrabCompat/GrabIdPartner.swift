public import AuthAppSupport
import AuthApple
public import AuthCore
import AuthGrab
public import AuthURLSession
public import Foundation

#if canImport(UIKit)
    import UIKit
#endif

/// The vendor's `GrabIdPartner`: load a login session, log in (web or the Grab app), id token info, logout.
///
/// ```swift
/// let grab = GrabIdPartner(configuration: try GrabConfiguration(plist), webAgent: webSession, appHandoff: SystemAppHandoff())
/// let loginSession = try await grab.loadLoginSession()      // offline: the stored session, if any
/// try await grab.login(loginSession: loginSession)           // no UI while the stored token is valid
/// // AppDelegate / onOpenURL:
/// _ = grab.handleOpenUrl(url)
/// ```
///
/// Every error is a ``GrabError``, as the vendor's were: the vendor's domain (the operation that failed) and code, and
/// the underlying `AuthError` with this package's stable code.
public actor GrabIdPartner {
    /// The engine for ``configuration``.
    public nonisolated var authClient: AuthClient { appLogin.authClient }
    /// The configuration ``loadLoginSession()`` uses.
    public nonisolated let configuration: GrabConfiguration
    /// Awaits the Grab app's callback: ``handleOpenUrl(_:)`` delivers it; it times out, and a newer login or a
    /// cancelled task ends it.
    public nonisolated var appCallbacks: AppCallbackWaiter { appLogin.appCallbacks }
    /// The hand-off scaffolding shared with UberCompat: engine, vendor-session adoption, the hand-off loop.
    let appLogin: AppHandoffLogin
    private let deviceId: String?
    let queriesSchemes: Set<String>?
    private var clients: [GrabConfiguration: AuthClient] = [:]
    private var logins: [ObjectIdentifier: Task<Void, any Error>] = [:]

    /// The configured Scope a session was signed in for, in the stored credential's annotations: the vendor SDK keyed
    /// its saved sessions by `clientId.scope`, so a new Scope meant a new login with consent.
    static let scopeAnnotation = "grab.scope"

    /// `LSApplicationQueriesSchemes` of the main bundle's Info.plist (see ``queriesSchemes(infoDictionary:)``).
    public static func bundleQueriesSchemes() -> [String]? {
        queriesSchemes(infoDictionary: Bundle.main.infoDictionary)
    }

    /// `LSApplicationQueriesSchemes` of an app's Info.plist: its entries; none (`[]`) when the plist has no such key,
    /// since iOS then lets the app query no scheme, and an unlisted Grab scheme means the web login (the seed's
    /// "revert back to the web login flow"); `nil` (unknown: every scheme may be queried) only where there is no app
    /// Info.plist (no dictionary, or one without `CFBundleIdentifier`: a command-line tool, a test runner).
    public static func queriesSchemes(infoDictionary: [String: Any]?) -> [String]? {
        guard let infoDictionary, infoDictionary["CFBundleIdentifier"] != nil else { return nil }
        return infoDictionary["LSApplicationQueriesSchemes"] as? [String] ?? []
    }

    /// The vendor's `device_id`: `identifierForVendor` where UIKit has one, else empty (its `?? ""`).
    static func vendorDeviceId() -> String {
        #if canImport(UIKit)
            // UIDevice is main-actor state; off the main thread the vendor's fallback applies.
            guard Thread.isMainThread else { return "" }
            return MainActor.assumeIsolated { UIDevice.current.identifierForVendor?.uuidString } ?? ""
        #else
            return ""
        #endif
    }

    /// The cached ID token info's key in the stored credential's annotations.
    static let idTokenInfoAnnotation = "grab.id_token_info"

    /// Creates the SDK object (the vendor's `sharedInstance()`; keep one per app).
    ///
    /// - Parameters:
    ///   - configuration: the `GrabIdPartnerSDK` settings.
    ///   - webAgent: the in-app web session (ASWebAuthenticationSession through AuthApple, loopback, a test agent).
    ///   - appHandoff: opens the Grab app (`SystemAppHandoff` from AuthApple); without it every login is on the web.
    ///   - storage: where sessions are kept; by default the platform's persistent store (the Keychain on Apple
    ///     platforms), so a relaunch signs in silently as with the vendor SDK.
    ///   - transport: how requests are sent.
    ///   - logger: where events go.
    ///   - clock: the source of the current time and of the app hand-off's deadline.
    ///   - appCallbackTimeout: how long a hand-off to the Grab app waits for its callback.
    ///   - deviceId: sent as `device_id` on every authorization; `nil` sends what the vendor SDK sends,
    ///     `UIDevice.current.identifierForVendor?.uuidString ?? ""` (empty where UIKit is absent, as on Linux).
    ///   - applicationQueriesSchemes: the app's `LSApplicationQueriesSchemes` (by default read from the main bundle's
    ///     Info.plist; `nil` when unknown). A Grab scheme missing from it cannot be asked about, so such a login goes to
    ///     the web rather than to the App Store, as the Grab SDK's README says.
    ///   - vendorStore: where GrabIdPartnerSDK kept its session (the app's Keychain and `UserDefaults` on Apple
    ///     platforms); a session found there is moved into `storage` once, so its user stays signed in. `nil` skips it.
    public init(
        configuration: GrabConfiguration,
        webAgent: any UserAgent,
        appHandoff: (any AppHandoff)? = nil,
        storage: any TokenStorage = PersistentTokenStorage.makeDefault(),
        transport: any HTTPTransport = URLSessionTransport(),
        logger: any AuthLogger = SwiftLogAuthLogger(),
        clock: any WallClock = SystemWallClock(),
        appCallbackTimeout: Duration = AppCallbackWaiter.defaultTimeout,
        deviceId: String? = nil,
        applicationQueriesSchemes: [String]? = GrabIdPartner.bundleQueriesSchemes(),
        vendorStore: (any VendorStore)? = PersistentTokenStorage.makeVendorStore()
    ) {
        self.queriesSchemes = applicationQueriesSchemes.map { Set($0.map { $0.lowercased() }) }
        self.configuration = configuration
        let deviceId = deviceId ?? Self.vendorDeviceId()
        self.deviceId = deviceId
        // Token requests go out as the vendor's did, parameters in the URL query (GrabProvider's behaviour).
        appLogin = AppHandoffLogin(
            provider: GrabProvider(configuration: configuration, deviceId: deviceId), webAgent: webAgent, appHandoff: appHandoff,
            storage: storage, transport: transport, logger: logger, clock: clock, appCallbackTimeout: appCallbackTimeout,
            vendorStore: vendorStore)
    }

    // MARK: Login session

    /// A login session from the configuration, holding the stored session if there is one (the vendor's
    /// `loadLoginSession`). Needs no network.
    public func loadLoginSession() async throws -> LoginSession {
        let loginSession = LoginSession(configuration: configuration)
        try await grabOperation(.loadConfiguration) {
            await adoptVendorSession(client: authClient)
            if let session = try await restoreForScope(authClient, configuration: configuration) { await loginSession.fill(from: session, authorizationState: nil) }
        }
        return loginSession
    }

    /// Logs in and fills `loginSession`.
    ///
    /// With a valid access token in `loginSession` or in storage, it returns at once — no browser, no app (only
    /// logout or an expired token lead to a new login, as with the vendor SDK). Otherwise: a hand-off to the Grab
    /// app when it is installed and the request has no hints, else the web. An app that does not open falls back to
    /// the App Store (when Grab's public info names one) and then to the web, as the vendor SDK does.
    ///
    /// A new login replaces one still waiting for the Grab app (any login session's): the waiting one ends with
    /// `sign_in_superseded` and stores nothing, so a user who left the Grab app can log in again at once.
    ///
    /// - Throws: ``GrabError`` with the vendor's domain and code (its `authError` has this package's stable code) —
    ///   `loadConfiguration`/`invalidScope` for a Scope assigned without `openid`;
    ///   `appStore`/`launchAppStoreLink`
    ///   when the App Store was opened instead, `authorization`/`authorizationFailed` when the app never called back
    ///   (`timed_out`), the login was cancelled, or a newer login replaced it.
    @discardableResult
    public func login(loginSession: LoginSession, options: SignInOptions = SignInOptions()) async throws -> LoginSession {
        // A Scope assigned on the login session is checked as the initializer checks the plist's.
        guard loginSession.configuration.scope.contains("openid") else {
            let error = AuthError(
                .invalidConfiguration, "The login session's 'Scope' must include openid (Grab's ID token and its nonce depend on it).",
                providerID: GrabProvider.id, configurationKey: "Scope")
            throw GrabError(error, domain: .loadConfiguration)
        }
        let client = client(for: loginSession.configuration)
        if loginSession.hasValidAccessToken(at: client.clock.now()) { return loginSession }
        let restored = try await grabOperation(.loadConfiguration) {
            await adoptVendorSession(client: client)
            return try await restoreForScope(client, configuration: loginSession.configuration)
        }
        if let restored {
            await loginSession.fill(from: restored, authorizationState: nil)
            if loginSession.hasValidAccessToken(at: client.clock.now()) {
                client.log(.info, "grab.login.cached", "A stored, unexpired Grab session was reused; no login was shown.")
                return loginSession
            }
        }
        let id = ObjectIdentifier(loginSession)
        logins[id]?.cancel()
        let task = Task { try await self.interactiveLogin(loginSession, client: client, options: options) }
        logins[id] = task
        defer { if logins[id] == task { logins[id] = nil } }
        try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
        return loginSession
    }

    /// Offers a URL the app received (the vendor's `handleOpenUrl`, for `application(_:open:options:)`); `true` when
    /// it was the Grab app's callback for the login waiting for it, which then continues. Synchronous.
    public nonisolated func handleOpenUrl(_ url: URL) -> Bool {
        appLogin.handle(url)
    }

    /// The vendor's `exchangeToken(loginSession:url:)`, for app delegates written for it: hands the redirect to the
    /// login waiting for it and returns when that login has exchanged the code. When `loginSession` already holds an
    /// unexpired access token it returns at once, as the vendor's did.
    ///
    /// - Throws: the login's error; `exchangeToken`/`securityValidationFailed` when no login waits for this URL.
    public func exchangeToken(loginSession: LoginSession, url: URL) async throws {
        let client = client(for: loginSession.configuration)
        if appCallbacks.deliver(url) {
            try await logins[ObjectIdentifier(loginSession)]?.value
            return
        }
        if loginSession.hasValidAccessToken(at: client.clock.now()) { return }
        throw GrabError(
            AuthError(
                .stateMismatch, "No Grab login is waiting for this redirect; start one with login(loginSession:).",
                providerID: GrabProvider.id), domain: .exchangeToken)
    }

    /// The vendor's `loginCompleted(loginSession:)`, which app delegates call after `exchangeToken` succeeded: the
    /// vendor dismissed its Safari view and answered `true`. The web session here closes itself when the login
    /// returns, so there is nothing to dismiss; it answers `true` when `loginSession` holds a completed login (an
    /// access token), so the "completion failed" branch of the AppDelegate in the Grab SDK's README runs only when no
    /// login completed. It never ends a login in progress (cancel the `login` task for that).
    @discardableResult
    public nonisolated func loginCompleted(loginSession: LoginSession) -> Bool {
        loginSession.accessToken != nil
    }

    // MARK: Tokens

    /// The ID token's info from Grab's verification endpoint (the vendor's `getIdTokenInfo`).
    ///
    /// Refuses an expired ID token; the info's nonce must be this login's; the info is cached with the stored
    /// session until it expires, so it survives a relaunch.
    ///
    /// - Throws: ``GrabError`` in the `getIdTokenInfo` domain: `invalidIdToken` (none, or expired), `invalidNonce`,
    ///   `idTokenInfoServiceFailed` (an HTTP error or no answer, as the vendor's), `invalidResponse` (a member missing).
    public func getIdTokenInfo(loginSession: LoginSession) async throws -> IdTokenInfo {
        try await grabOperation(.getIdTokenInfo) {
            let client = client(for: loginSession.configuration)
            guard let session = loginSession.session, let idToken = loginSession.idToken else {
                throw AuthError(.missingIDToken, "The login session has no ID token; log in first.", providerID: GrabProvider.id)
            }
            guard let nonce = loginSession.nonce else {
                throw AuthError(.nonceMismatch, "The login session's ID token has no nonce.", providerID: GrabProvider.id)
            }
            let now = client.clock.now()
            if let expiry = await session.idTokenClaims?.expiration, expiry <= now {
                throw AuthError(.tokenExpired, "The ID token has expired; log in again.", providerID: GrabProvider.id)
            }
            if let cached = await cachedInfo(in: session), cached.nonce == nonce, cached.isValid(at: now) { return cached }

            let metadata = try await client.metadata()
            let claims = try await fetchIdTokenInfo(
                idToken, nonce: nonce, clientId: loginSession.clientId, metadata: metadata, client: client,
                refusal: .httpError)
            let info = try IdTokenInfo(verified: claims)
            guard info.nonce == nonce else {
                throw AuthError(.nonceMismatch, "The ID token info's nonce is not this login's.", providerID: GrabProvider.id)
            }
            await cache(claims, in: session)
            return info
        }
    }

    /// Whether the session has a non-empty access token that has not expired (the vendor's `isValidAccessToken`).
    public nonisolated func isValidAccessToken(loginSession: LoginSession) -> Bool {
        loginSession.hasValidAccessToken(at: authClient.clock.now())
    }

    /// Whether the info has a nonce and a token id, and `nbf <= now < exp` (the vendor's `isValidIdToken`).
    public nonisolated func isValidIdToken(idTokenInfo: IdTokenInfo) -> Bool {
        idTokenInfo.isValid(at: authClient.clock.now())
    }

    /// Logs out locally: removes this client's stored sessions (with their cached ID token info) and empties
    /// `loginSession`. No server call, as with the vendor SDK.
    ///
    /// - Throws: `logout`/`logoutFailed` when there was no session to remove (as the vendor's) or storage failed.
    public func logout(loginSession: LoginSession) async throws {
        try await grabOperation(.logout) {
            let client = client(for: loginSession.configuration)
            var removed = 0
            if let session = loginSession.session, await session.isSignedIn {
                try await session.signOut(revokingTokens: false)
                removed += 1
            }
            for account in try await client.accounts() {
                try await client.storage.removeCredential(for: account.storageKey)
                removed += 1
            }
            loginSession.clear()
            guard removed > 0 else {
                throw AuthError(.notSignedIn, "There was no Grab session to log out of.", providerID: GrabProvider.id)
            }
        }
    }

    // MARK: Route

    /// The route for `request`, from the client public info and the host's ability to open the Grab app. A public
    /// info that cannot be read or decoded means the web (logged as `customProtocolsService`).
    public func decideRoute(_ request: AuthorizationRequest) async throws -> GrabRoute {
        try await decideRoute(request, client: authClient)
    }

    // MARK: Private

    private func client(for configuration: GrabConfiguration) -> AuthClient {
        if configuration == self.configuration { return authClient }
        if let client = clients[configuration] { return client }
        let client = AuthClient(
            provider: GrabProvider(configuration: configuration, deviceId: deviceId), storage: authClient.storage,
            transport: authClient.transport, logger: authClient.logger, clock: authClient.clock)
        clients[configuration] = client
        return client
    }

    private func interactiveLogin(_ loginSession: LoginSession, client: AuthClient, options: SignInOptions) async throws {
        try await grabOperation(.serviceDiscovery) { _ = try await client.metadata() }
        let request = try await grabOperation(.authorization) { try await client.prepareSignIn(options: options) }
        let (callback, _) = try await grabOperation(.authorization) {
            let steps = Step.steps(for: try await decideRoute(request, client: client))
            return try await appLogin.authorize(steps, client: client) { step in try await self.attempt(step, request: request, client: client) }
        }
        let session = try await grabOperation(.exchangeToken) { try await exchange(callback, request: request, client: client) }
        await loginSession.fill(from: session, authorizationState: request.state)
    }

    /// The stored session, unless it was signed in for another Scope than `configuration`'s: the vendor SDK keyed
    /// saved sessions by `clientId.scope`, so changing Scope in an app update led to a new login with the new
    /// consent, never to the old token. (Sessions stored before the Scope was recorded, and adopted vendor sessions,
    /// which were read under the configured Scope's key, count as this Scope's.)
    private func restoreForScope(_ client: AuthClient, configuration: GrabConfiguration) async throws -> Session? {
        guard let session = try await client.restoreSession() else { return nil }
        if let stored = await session.credential.annotations?[Self.scopeAnnotation], stored != GrabVendorSession.scopeKey(configuration) {
            client.log(.notice, "grab.session.scope_changed", "The stored Grab session was signed in for another Scope; a new login asks for consent to this one.")
            return nil
        }
        return session
    }

    /// Moves GrabIdPartnerSDK's stored session into this package's storage, once per configuration (again later
    /// only when the network was missing).
    private func adoptVendorSession(client: AuthClient) async {
        let configuration = GrabVendorSession.configuration(of: client) ?? self.configuration
        let clock = client.clock
        await appLogin.adoptVendorSessionOnce(
            key: configuration, client: client,
            { store, issuer in try await GrabVendorSession.credential(for: configuration, issuer: issuer, from: store, now: clock.now()) },
            removingVendorCopy: { store in try await GrabVendorSession.remove(for: configuration, from: store) })
    }

    private func cachedInfo(in session: Session) async -> IdTokenInfo? {
        guard let text = await session.credential.annotations?[Self.idTokenInfoAnnotation],
            let claims = try? JSONValue.parseObject(Data(text.utf8))
        else { return nil }
        return try? IdTokenInfo(verified: claims)
    }

    /// Keeps the info with the stored session; a storage failure only costs a refetch later.
    func cache(_ claims: [String: JSONValue], in session: Session) async {
        let kept = claims.filter { IdTokenInfo.members.contains($0.key) }
        guard let data = try? JSONValue.object(kept).jsonData(), let text = String(data: data, encoding: .utf8) else { return }
        do {
            try await session.setAnnotation(text, forKey: Self.idTokenInfoAnnotation)
        } catch {
            session.client.log(.notice, "grab.idtokeninfo.cache_failed", "The ID token info could not be cached with the session; it will be fetched again.")
        }
    }

    /// Runs `body` and throws any `AuthError` it throws as a ``GrabError`` of `domain` (a ``GrabError`` from an inner
    /// operation passes unchanged). A discovery document that is wrong is a `serviceDiscovery` error whichever call
    /// loaded it, as with the vendor.
    ///
    /// Every failure becomes a ``GrabError``: a custom web agent's own error is `authorization_failed` (its error kept
    /// as the underlying one) and a `CancellationError` is `sign_in_cancelled`, in `domain` — as the vendor SDK reports every
    /// failure of `login` with a domain and a code.
    private func grabOperation<T>(_ domain: GrabError.Domain, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as AuthError {
            let discovery: Set<AuthError.Code> = [.discoveryFailed, .discoveryIssuerMismatch, .insecureEndpoint]
            let operation = discovery.contains(error.code) ? GrabError.Domain.serviceDiscovery : domain
            throw GrabError(error.attributed(to: GrabProvider.id), domain: operation)
        } catch let error as GrabError {
            throw error
        } catch is CancellationError {
            throw GrabError(AuthError(.signInCancelled, "The Grab login was cancelled.", providerID: GrabProvider.id), domain: domain)
        } catch {
            throw GrabError(
                AuthError(.authorizationFailed, "The Grab login's web agent failed.", providerID: GrabProvider.id, underlying: error), domain: domain)
        }
    }
}
