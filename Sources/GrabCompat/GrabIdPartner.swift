public import AuthCore
import AuthGrab
public import AuthURLSession
public import Foundation
import AuthApple
public import AuthAppSupport

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
    public nonisolated let authClient: AuthClient
    /// The configuration ``loadLoginSession()`` uses.
    public nonisolated let configuration: GrabConfiguration
    /// Awaits the Grab app's callback: ``handleOpenUrl(_:)`` delivers it; it times out, and a newer login or a
    /// cancelled task ends it.
    public nonisolated let appCallbacks: AppCallbackWaiter
    private let webAgent: any UserAgent
    private let appHandoff: (any AppHandoff)?
    private let deviceId: String?
    private let vendorStore: (any VendorStore)?
    private var vendorSessionChecked: Set<GrabConfiguration> = []
    private var clients: [GrabConfiguration: AuthClient] = [:]
    private var logins: [ObjectIdentifier: Task<Void, any Error>] = [:]

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
    ///   - deviceId: sent as `device_id` like the vendor SDK (`UIDevice.current.identifierForVendor?.uuidString`).
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
        vendorStore: (any VendorStore)? = PersistentTokenStorage.makeVendorStore()
    ) {
        self.configuration = configuration
        self.vendorStore = vendorStore
        self.webAgent = webAgent
        self.appHandoff = appHandoff
        self.deviceId = deviceId
        authClient = AuthClient(provider: GrabProvider(configuration: configuration, deviceId: deviceId), storage: storage,
                                transport: transport, logger: logger, clock: clock)
        appCallbacks = AppCallbackWaiter(providerID: GrabProvider.id, clock: clock, timeout: appCallbackTimeout)
    }

    // MARK: Login session

    /// A login session from the configuration, holding the stored session if there is one (the vendor's
    /// `loadLoginSession`). Needs no network.
    public func loadLoginSession() async throws -> LoginSession {
        let loginSession = LoginSession(configuration: configuration)
        try await grabOperation(.loadConfiguration) {
            await adoptVendorSession(client: authClient)
            if let session = try await authClient.restoreSession() { await loginSession.fill(from: session, authorizationState: nil) }
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
    /// - Throws: ``GrabError`` with the vendor's domain and code (its `authError` has this package's stable code) —
    ///   `appStore`/`launchAppStoreLink`
    ///   when the App Store was opened instead, `authorization`/`authorizationFailed` when the app never called back
    ///   (`timed_out`), the login was cancelled, or a newer login replaced it.
    @discardableResult
    public func login(loginSession: LoginSession, options: SignInOptions = SignInOptions()) async throws -> LoginSession {
        let client = client(for: loginSession.configuration)
        if loginSession.hasValidAccessToken(at: client.clock.now()) { return loginSession }
        let restored = try await grabOperation(.loadConfiguration) {
            await adoptVendorSession(client: client)
            return try await client.restoreSession()
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
        try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
        return loginSession
    }

    /// Offers a URL the app received (the vendor's `handleOpenUrl`, for `application(_:open:options:)`); `true` when
    /// it was the Grab app's callback for the login waiting for it, which then continues. Synchronous.
    public nonisolated func handleOpenUrl(_ url: URL) -> Bool {
        appCallbacks.deliver(url)
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
        throw GrabError(AuthError(.stateMismatch, "No Grab login is waiting for this redirect; start one with login(loginSession:).",
                                  providerID: GrabProvider.id), domain: .exchangeToken)
    }

    /// The vendor's `loginCompleted(loginSession:)`: closes what the login left open. The web session closes itself
    /// when the login returns, so this cancels a hand-off to the Grab app that is still waiting; `true` when it did.
    @discardableResult
    public nonisolated func loginCompleted(loginSession: LoginSession) -> Bool {
        appCallbacks.cancel()
    }

    // MARK: Tokens

    /// The ID token's info from Grab's verification endpoint (the vendor's `getIdTokenInfo`).
    ///
    /// Refuses an expired ID token; the info's nonce must be this login's; the info is cached with the stored
    /// session until it expires, so it survives a relaunch.
    ///
    /// - Throws: ``GrabError`` in the `getIdTokenInfo` domain: `invalidIdToken` (none, or expired), `invalidNonce`,
    ///   `idTokenInfoServiceFailed` (HTTP error), `invalidResponse` (a member missing), `network`.
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
            guard let template = metadata.document["id_token_verification_endpoint"]?.stringValue, let endpoint = URL(string: template) else {
                throw AuthError(.endpointUnavailable, "Grab's service discovery has no id_token_verification_endpoint.",
                                providerID: GrabProvider.id, endpoint: "id_token_verification_endpoint")
            }
            var request = HTTPRequest(method: .get, url: endpoint.appendingQuery([("client_id", loginSession.clientId), ("id_token", idToken.reveal()), ("nonce", nonce)]))
            request.headerFields.set("no-cache", forName: "Cache-Control")
            let (data, response): (Data, HTTPResponse)
            do {
                (data, response) = try await client.transport.send(request)
            } catch let error as AuthError {
                throw error
            } catch {
                throw AuthError(.network, "Grab's ID token verification could not be reached.", providerID: GrabProvider.id, underlying: error)
            }
            guard (200..<300).contains(response.status.code) else {
                throw AuthError(.httpError, "Grab's ID token verification answered HTTP \(response.status.code).", providerID: GrabProvider.id,
                                httpStatus: response.status.code, endpoint: "id_token_verification_endpoint")
            }
            guard let claims = try? JSONValue.parseObject(data) else {
                throw AuthError(.invalidResponse, "Grab's ID token verification did not answer with a JSON object.", providerID: GrabProvider.id,
                                endpoint: "id_token_verification_endpoint")
            }
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
        let client = AuthClient(provider: GrabProvider(configuration: configuration, deviceId: deviceId), storage: authClient.storage,
                                transport: authClient.transport, logger: authClient.logger, clock: authClient.clock)
        clients[configuration] = client
        return client
    }

    private func interactiveLogin(_ loginSession: LoginSession, client: AuthClient, options: SignInOptions) async throws {
        try await grabOperation(.serviceDiscovery) { _ = try await client.metadata() }
        let request = try await grabOperation(.authorization) { try await client.prepareSignIn(options: options) }
        let callback: URL = try await grabOperation(.authorization) {
            switch try await decideRoute(request, client: client) {
            case .web:
                return try await web(request, client: client)
            case .app(let deepLink, let store):
                client.log(.info, "grab.route", "Hand-off to the Grab app.")
                do {
                    guard let appHandoff else { return try await web(request, client: client) }
                    return try await appCallbacks.handOff(deepLink, through: appHandoff, redirectURI: request.redirectURI, appName: "The Grab app")
                } catch let error as AuthError where error.code == .appNotOpened {
                    client.log(.notice, "grab.app.not_opened", "The Grab app did not open; falling back as the vendor SDK does.")
                    if let store { throw await openAppStore(store) }
                    return try await web(request, client: client)
                }
            case .appStore(let store):
                throw await openAppStore(store)
            }
        }
        let session = try await grabOperation(.exchangeToken) { try await client.completeSignIn(redirect: callback) }
        await loginSession.fill(from: session, authorizationState: request.state)
    }

    /// Moves GrabIdPartnerSDK's stored session into this package's storage, once per configuration (again later
    /// only when the network was missing).
    private func adoptVendorSession(client: AuthClient) async {
        let configuration = (client.provider as? GrabProvider)?.configuration ?? self.configuration
        guard let vendorStore, !vendorSessionChecked.contains(configuration) else { return }
        let outcome = await client.adoptVendorSessionIfPresent({ issuer in
            try await GrabVendorSession.credential(for: configuration, issuer: issuer, from: vendorStore, now: client.clock.now())
        }, removingVendorCopy: {
            try await GrabVendorSession.remove(for: configuration, from: vendorStore)
        })
        if outcome != .offline { vendorSessionChecked.insert(configuration) }
    }

    private func web(_ request: AuthorizationRequest, client: AuthClient) async throws -> URL {
        client.log(.info, "grab.route", "Web login.")
        return try await webAgent.authorize(request)
    }

    /// Opens the App Store; the login then ends with `launchAppStoreLink` (or `failedTolaunchAppStoreLink`).
    private func openAppStore(_ store: URL) async -> GrabError {
        guard let appHandoff, await appHandoff.open(store) else {
            return GrabError(AuthError(.grabAppStoreLaunchFailed, "The Grab app is not installed and the App Store could not be opened.",
                                       providerID: GrabProvider.id), domain: .appStore)
        }
        return GrabError(AuthError(.grabAppStoreLaunched, "The Grab app is not installed; the App Store was opened. Log in again after installing, or cancel.",
                                   providerID: GrabProvider.id), domain: .appStore)
    }

    private func decideRoute(_ request: AuthorizationRequest, client: AuthClient) async throws -> GrabRoute {
        let metadata = try await client.metadata()
        guard let appHandoff, let template = metadata.document["client_public_info_endpoint"]?.stringValue,
            let endpoint = URL(string: template.replacingOccurrences(of: "{client_id}", with: FormEncoding.escape(client.provider.client.clientID)))
        else { return .web }
        let protocols: [GrabCustomProtocol]
        do {
            var info = HTTPRequest(method: .get, url: endpoint)
            info.headerFields.set("no-cache", forName: "Cache-Control")
            let (data, response) = try await client.transport.send(info)
            guard (200..<300).contains(response.status.code) else {
                client.log(.notice, "grab.publicinfo.failed", "The client public info answered an HTTP error; logging in on the web.",
                           ["status": String(response.status.code), "grab_domain": GrabError.Domain.customProtocolsService.name])
                return .web
            }
            protocols = try GrabCustomProtocol.parse(publicInfo: data)
        } catch {
            client.log(.notice, "grab.publicinfo.failed", "The client public info could not be read; logging in on the web.",
                       ["grab_domain": GrabError.Domain.customProtocolsService.name])
            return .web
        }
        var openable: Set<String> = []
        for entry in protocols {
            if let url = URL(string: entry.paxProtocol), await appHandoff.canOpen(url) { openable.insert(entry.paxProtocol) }
        }
        return GrabRoute.decide(authorizationURL: request.url, authorizationEndpoint: metadata.authorizationEndpoint,
                                customProtocols: protocols) { openable.contains($0.absoluteString) }
    }

    private func cachedInfo(in session: Session) async -> IdTokenInfo? {
        guard let text = await session.credential.annotations?[Self.idTokenInfoAnnotation],
            let claims = try? JSONValue.parseObject(Data(text.utf8))
        else { return nil }
        return try? IdTokenInfo(verified: claims)
    }

    /// Keeps the info with the stored session; a storage failure only costs a refetch later.
    private func cache(_ claims: [String: JSONValue], in session: Session) async {
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
    private func grabOperation<T>(_ domain: GrabError.Domain, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as AuthError {
            let discovery: Set<AuthError.Code> = [.discoveryFailed, .discoveryIssuerMismatch, .insecureEndpoint]
            let operation = discovery.contains(error.code) ? GrabError.Domain.serviceDiscovery : domain
            throw GrabError(error.attributed(to: GrabProvider.id), domain: operation)
        }
    }
}
