public import AuthAppSupport
import AuthApple
public import AuthCore
public import AuthURLSession
import AuthUber
public import Foundation

/// The vendor's `UberAuth`: login in app or through a native Uber app, `handle(url)` for the app's callback.
///
/// ```swift
/// let uber = UberAuth(configuration: try UberConfiguration(plist), webAgent: webSession, appHandoff: apps)
/// let client = try await uber.login(context: AuthContext(authDestination: .native, prompt: [.consent]))
/// // SceneDelegate / onOpenURL:
/// _ = await uber.handle(url)
/// ```
public actor UberAuth {
    /// The engine.
    public nonisolated var authClient: AuthClient { appLogin.authClient }
    /// The configuration.
    public nonisolated let configuration: UberConfiguration
    /// Awaits a native app's callback: ``handle(_:)`` delivers it; it times out, ``cancel()``, a newer login or a
    /// cancelled task ends it, so a login never hangs.
    public nonisolated var appCallbacks: AppCallbackWaiter { appLogin.appCallbacks }
    /// The hand-off scaffolding shared with GrabCompat: engine, vendor-session adoption, the hand-off loop.
    private let appLogin: AppHandoffLogin

    /// Creates the login coordinator.
    ///
    /// - Parameters:
    ///   - configuration: the `Uber` Info.plist settings.
    ///   - webAgent: the in-app web session (ASWebAuthenticationSession, loopback, or a test agent).
    ///   - appHandoff: opens native apps; without it every login is in app.
    ///   - storage: where the tokens are kept.
    ///   - transport: how requests are sent.
    ///   - logger: where events go.
    ///   - clock: the source of the current time and of the native hand-off's deadline.
    ///   - appCallbackTimeout: how long a hand-off to a native app waits for its callback.
    ///   - vendorStore: where UberAuth kept its token (the app's Keychain on Apple platforms); a token found there is
    ///     moved into `storage` once, so its user stays logged in. `nil` skips it.
    public init(
        configuration: UberConfiguration,
        webAgent: any UserAgent,
        appHandoff: (any AppHandoff)? = nil,
        storage: any TokenStorage = PersistentTokenStorage.makeDefault(),
        transport: any HTTPTransport = URLSessionTransport(),
        logger: any AuthLogger = SwiftLogAuthLogger(),
        clock: any WallClock = SystemWallClock(),
        appCallbackTimeout: Duration = AppCallbackWaiter.defaultTimeout,
        vendorStore: (any VendorStore)? = PersistentTokenStorage.makeVendorStore()
    ) {
        self.configuration = configuration
        appLogin = AppHandoffLogin(
            provider: UberProvider(configuration: configuration), webAgent: webAgent, appHandoff: appHandoff, storage: storage,
            transport: transport, logger: logger, clock: clock, appCallbackTimeout: appCallbackTimeout, vendorStore: vendorStore)
    }

    /// Logs in as `context` says and returns the result.
    ///
    /// A native destination tries each installed app in order; an app that does not open leads to the next, and
    /// after the last to the in-app login (the vendor's fallback). Waiting for an app's callback always ends: the
    /// callback, ``cancel()``, a newer login, task cancellation, or the timeout.
    ///
    /// A login started while another waits for an app replaces it, as the vendor SDK lets a retry run at once: the
    /// waiting one ends with `sign_in_superseded` (`cancelled`) and stores nothing. A cancelled or failed attempt is
    /// forgotten at once, so a callback without `state` can only belong to the login that goes on.
    ///
    /// - Throws: `AuthError`; `AuthError/uberAuthError` gives the vendor's cases (`cancelled`, `oAuth(…)`,
    ///   `existingAuthSession` when the web agent is already showing a login, …).
    public func login(context: AuthContext = AuthContext()) async throws -> UberClient {
        var installed: Set<UberApp> = []
        if let appHandoff = appLogin.appHandoff {
            for app in UberApp.allCases where await appHandoff.canOpen(URL(string: "\(app.scheme)://")!) { installed.insert(app) }
        }
        // `candidates` always ends in app, which returns a callback or throws.
        let routes = UberRoute.candidates(context.authDestination, canOpen: installed.contains)
        let (callback, answered) = try await appLogin.authorize(routes) { route in try await self.attempt(route, context: context) }
        do {
            if context.shouldExchangeAuthCode {
                let session = try await authClient.completeSignIn(redirect: callback)
                return UberClient(await session.credential)
            }
            return UberClient(code: try await authClient.completeAuthorization(redirect: callback))
        } catch {
            // A callback that could not be attributed (no `state`, not exactly one login waiting) leaves this login
            // pending; forget it, so it cannot make the next attempt's callback ambiguous too.
            await authClient.abandon(answered)
            throw error
        }
    }

    /// The vendor's completion-handler form of ``login(context:)``, for code written for it; `completion` runs on an
    /// arbitrary task with the result or the vendor's error.
    public nonisolated func login(context: AuthContext = AuthContext(), completion: @escaping @Sendable (Result<UberClient, UberAuthError>) -> Void) {
        Task {
            do {
                completion(.success(try await self.login(context: context)))
            } catch let error as AuthError {
                completion(.failure(error.uberAuthError))
            } catch {
                completion(.failure(.other(error)))
            }
        }
    }

    /// Offers a URL the app received; `true` when it is the waiting login's callback (same scheme, host and path as
    /// the redirect URI), which then continues. A second delivery returns `false`. Synchronous, so
    /// `application(_:open:options:)` can return its answer.
    public nonisolated func handle(_ url: URL) -> Bool {
        appLogin.handle(url)
    }

    /// Ends a login waiting for a native app's callback with `cancelled`; `true` when one was waiting.
    @discardableResult
    public nonisolated func cancel() -> Bool {
        appCallbacks.cancel()
    }

    /// The attempt for `route`, its authorization prepared only now that the route is tried: a native app opens the
    /// same request at its own authorize path (its universal link); in app is the web agent.
    private func attempt(_ route: UberRoute, context: AuthContext) async throws -> AppHandoffAttempt {
        let request = try await prepare(route, context: context)
        authClient.log(.info, "uber.route", "Login route chosen.", ["route": route.pathID])
        guard case .native(let app) = route else { return .web(request) }
        let native = request.replacingPath(of: configuration.authorizeEndpoint(route.pathID))
        return .app(native.url, request: native, appName: "The \(app.rawValue) app")
    }

    private func prepare(_ route: UberRoute, context: AuthContext) async throws -> AuthorizationRequest {
        var options = SignInOptions(prompt: route.promptValues(context.prompt))
        options.additionalScopes = context.additionalScopes.filter { !configuration.scopes.contains($0) }
        options.omitsPKCEForBackendExchange = !context.shouldExchangeAuthCode && !context.backendExchangeUsesPKCE
        if route == .inApp, let prefill = context.prefill, let requestURI = await pushPrefill(prefill) {
            options.additionalParameters["request_uri"] = requestURI
        }
        return try await authClient.prepareSignIn(options: options)
    }

    /// The stored session, if the user is logged in (the vendor's `isLoggedIn` / `TokenManager.getToken()`); a token
    /// UberAuth stored is moved over first, once. Needs no network.
    public func session() async throws -> Session? {
        await adoptVendorSession()
        return try await authClient.restoreSession()
    }

    /// Whether a session is stored (the vendor's `UberAuth.isLoggedIn`).
    public var isLoggedIn: Bool {
        get async { ((try? await session()) ?? nil) != nil }
    }

    /// Moves UberAuth's stored token into this package's storage, once (again later only when offline).
    private func adoptVendorSession() async {
        let (configuration, clock) = (self.configuration, authClient.clock)
        await appLogin.adoptVendorSessionOnce(
            key: configuration.clientID,
            { store, issuer in try await UberVendorSession.credential(for: configuration, issuer: issuer, from: store, now: clock.now()) },
            removingVendorCopy: { store in try await UberVendorSession.remove(from: store) })
    }

    /// Deletes the stored token. The auth host's web session in the system browser is left alone: UberAuth 2.x
    /// deleted the auth host's cookies from `HTTPCookieStorage` (`TokenManager.swift`), which `ASWebAuthenticationSession`
    /// does not read either. To make the next login ask for the user's credentials, log in with
    /// `AuthContext(authDestination: .inApp, prompt: [.login])`.
    public func logout() async throws {
        for key in try await authClient.storage.storedKeys() where key.providerID == UberProvider.id && key.clientID == configuration.clientID {
            try await authClient.storage.removeCredential(for: key)
        }
    }

    /// Pushes the prefill (RFC 9126) through the engine's pushed authorization request (the client authentication of
    /// the token endpoint, the answer's `request_uri` and `expires_in` checked); on failure logs and continues without it.
    private func pushPrefill(_ prefill: Prefill) async -> String? {
        do {
            let metadata = try await authClient.metadata()
            guard metadata.pushedAuthorizationRequestEndpoint != nil else { return nil }
            let pushed = try await authClient.pushAuthorizationRequest([("response_type", "code"), ("login_hint", prefill.loginHint)], metadata: metadata)
            return pushed.requestURI
        } catch {
            let code = (error as? AuthError)?.code.rawValue ?? "unknown"
            authClient.log(.notice, "uber.prefill.failed", "The pushed authorization request failed; continuing without prefill.", ["code": code])
            return nil
        }
    }
}

extension AuthorizationRequest {
    /// The same request sent to another authorize path (a native app's universal link).
    func replacingPath(of endpoint: URL) -> AuthorizationRequest {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        components.path = endpoint.path
        return AuthorizationRequest(
            providerID: providerID, url: components.url!, redirectURI: redirectURI, state: state,
            prefersEphemeralSession: prefersEphemeralSession, expiresAt: expiresAt)
    }
}

/// The login result (the vendor's `Client`): tokens when the code was exchanged here, else only the code.
public struct UberClient: Sendable {
    /// The authorization code, for a backend exchange (then every token is `nil`).
    public let authorizationCode: Secret?
    /// The PKCE verifier the backend must send with the code (safer here: PKCE is never turned off).
    public let codeVerifier: Secret?
    /// The access token.
    public let accessToken: Secret?
    /// The refresh token; Uber issues one only when `offline_access` is among the scopes.
    public let refreshToken: Secret?
    /// The token type.
    public let tokenType: String?
    /// Seconds until the access token expires.
    public let expiresIn: Int?
    /// The granted scopes.
    public let scope: [String]?

    init(_ credential: Credential) {
        authorizationCode = nil
        codeVerifier = nil
        accessToken = credential.accessToken
        refreshToken = credential.refreshToken
        tokenType = credential.tokenType
        expiresIn = credential.expiresAt.flatMap { Int(exactly: $0.timeIntervalSince(credential.updatedAt).rounded()) }
        scope = credential.scopes
    }

    init(code: AuthorizationCodeResult) {
        authorizationCode = code.code
        codeVerifier = code.codeVerifier
        accessToken = nil
        refreshToken = nil
        tokenType = nil
        expiresIn = nil
        scope = nil
    }
}
