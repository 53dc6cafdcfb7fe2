public import AuthCore
public import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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
    public nonisolated let authClient: AuthClient
    /// The configuration.
    public nonisolated let configuration: UberConfiguration
    private let webAgent: any UserAgent
    private let appHandoff: (any AppHandoff)?
    private var inProgress = false
    private var nativeCallback: CheckedContinuation<URL, any Error>?
    private var nativeRedirectURI: URL?

    /// Creates the login coordinator.
    ///
    /// - Parameters:
    ///   - configuration: the `Uber` Info.plist settings.
    ///   - webAgent: the in-app web session (ASWebAuthenticationSession, loopback, or a test agent).
    ///   - appHandoff: opens native apps; without it every login is in app.
    ///   - storage: where the tokens are kept.
    ///   - transport: how requests are sent.
    ///   - logger: where events go.
    ///   - clock: the source of the current time.
    public init(
        configuration: UberConfiguration,
        webAgent: any UserAgent,
        appHandoff: (any AppHandoff)? = nil,
        storage: any TokenStorage = InMemoryTokenStorage(),
        transport: any HTTPTransport = URLSessionTransport(),
        logger: any AuthLogger = SwiftLogAuthLogger(),
        clock: any WallClock = SystemWallClock()
    ) {
        self.configuration = configuration
        self.webAgent = webAgent
        self.appHandoff = appHandoff
        authClient = AuthClient(provider: UberProvider(configuration: configuration), storage: storage, transport: transport, logger: logger, clock: clock)
    }

    /// Logs in as `context` says and returns the result.
    ///
    /// - Throws: `AuthError`; `AuthError/uberAuthError` gives the vendor's cases (`existingAuthSession` while
    ///   another login runs, `cancelled`, `oAuth(…)`, …).
    public func login(context: AuthContext = AuthContext()) async throws -> UberClient {
        guard !inProgress else {
            throw AuthError(.signInInProgress, "An Uber login is already in progress.", providerID: UberProvider.id)
        }
        inProgress = true
        defer { inProgress = false }

        var installed: Set<UberApp> = []
        if let appHandoff {
            for app in UberApp.allCases where await appHandoff.canOpen(URL(string: "\(app.scheme)://")!) { installed.insert(app) }
        }
        let route = UberRoute.decide(context.authDestination) { installed.contains($0) }
        var options = SignInOptions(prompt: route.promptValues(context.prompt))
        if route == .inApp, let prefill = context.prefill, let requestURI = await pushPrefill(prefill) {
            options.additionalParameters["request_uri"] = requestURI
        }
        var request = try await authClient.prepareSignIn(options: options)
        authClient.log(.info, "uber.route", "Login route chosen.", ["route": route.pathID])

        let callback: URL
        switch route {
        case .inApp:
            callback = try await webAgent.authorize(request)
        case .native(let app):
            request = request.replacingPath(of: configuration.authorizeEndpoint(route.pathID))
            callback = try await awaitNativeCallback(request, app: app)
        }
        if context.shouldExchangeAuthCode {
            let session = try await authClient.completeSignIn(redirect: callback)
            return UberClient(await session.credential)
        }
        return UberClient(code: try await authClient.completeAuthorization(redirect: callback))
    }

    /// Offers a URL the app received; `true` when it is this login's callback (same scheme, host and path as
    /// the redirect URI) and was consumed. A second delivery returns `false`.
    public func handle(_ url: URL) -> Bool {
        guard let continuation = nativeCallback, let redirect = nativeRedirectURI,
            AuthorizationResponse.redirect(url, matches: redirect)
        else { return false }
        nativeCallback = nil
        nativeRedirectURI = nil
        continuation.resume(returning: url)
        return true
    }

    /// Deletes the stored token (on Apple platforms, also clear the auth host's web cookies through AuthApple).
    public func logout() async throws {
        for key in try await authClient.storage.storedKeys() where key.providerID == UberProvider.id && key.clientID == configuration.clientID {
            try await authClient.storage.removeCredential(for: key)
        }
    }

    private func awaitNativeCallback(_ request: AuthorizationRequest, app: UberApp) async throws -> URL {
        try await withCheckedThrowingContinuation { continuation in
            nativeCallback = continuation
            nativeRedirectURI = request.redirectURI
            Task { await self.openNative(request.url, app: app) }
        }
    }

    private func openNative(_ url: URL, app: UberApp) async {
        guard let appHandoff, await appHandoff.open(url) else {
            nativeCallback?.resume(throwing: AuthError(.authorizationFailed, "The \(app.rawValue) app could not be opened.", providerID: UberProvider.id, oauthError: "could_not_open_app:\(app.rawValue)"))
            nativeCallback = nil
            return
        }
    }

    /// Pushes the prefill (RFC 9126); on failure logs and continues without it.
    private func pushPrefill(_ prefill: Prefill) async -> String? {
        do {
            let metadata = try await authClient.metadata()
            guard let endpoint = metadata.pushedAuthorizationRequestEndpoint else { return nil }
            var request = URLRequest(url: endpoint)
            request.httpMethod = "POST"
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            // The client authenticates at the PAR endpoint as at the token endpoint (RFC 9126 §2): one mechanism.
            let authentication = try authClient.clientAuthentication(for: metadata)
            for (name, value) in authentication.headers { request.setValue(value, forHTTPHeaderField: name) }
            request.httpBody = Data(FormEncoding.encode(
                authentication.parameters + [("response_type", "code"), ("login_hint", prefill.loginHint)]
            ).utf8)
            let (data, response) = try await authClient.transport.send(request)
            guard (200..<300).contains(response.statusCode), let uri = (try? JSONValue.parseObject(data))?["request_uri"]?.stringValue else {
                authClient.log(.notice, "uber.prefill.failed", "The pushed authorization request failed; continuing without prefill.", ["status": String(response.statusCode)])
                return nil
            }
            return uri
        } catch {
            authClient.log(.notice, "uber.prefill.failed", "The pushed authorization request failed; continuing without prefill.")
            return nil
        }
    }
}

extension AuthorizationRequest {
    /// The same request sent to another authorize path (a native app's universal link).
    func replacingPath(of endpoint: URL) -> AuthorizationRequest {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        components.path = endpoint.path
        return AuthorizationRequest(providerID: providerID, url: components.url!, redirectURI: redirectURI, state: state,
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
    /// The refresh token.
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
