public import AuthAppSupport
public import AuthCore
public import AuthGOVUK
public import AuthURLSession
public import Foundation

/// The vendor SDK's login session protocol, as mobile-ios-authentication 4.x declares it
/// (`Sources/Authentication/LoginSession.swift`): `@MainActor`, `performLoginFlow(configuration:)` presents the login
/// and returns the tokens, and `finalise(redirectURL:)` hands it the universal link when the app's scene delegate
/// receives it. An app's code depends on this protocol and its tests give it a stand-in, exactly as against the
/// vendor's; ``AppAuthSession`` is the real one.
///
/// Differences: ``TokenResponse`` is ``LoginTokens`` (tokens are `Secret`, `expiryDate` is optional), and the
/// seed-era 3.x protocol (`init(window:)`, `present(configuration:)`, `finalise(callback:)`, `cancel()`) is not this
/// one — ``OneLoginSession`` offers `present(configuration:)` and `finalise(callback:)` as methods instead.
@MainActor
public protocol LoginSession {
    /// Presents the login for `configuration` and returns the tokens once the callback has been exchanged.
    func performLoginFlow(configuration: LoginSessionConfiguration) async throws -> TokenResponse
    /// Completes the login in progress with the universal link the app received; the tokens come back from
    /// ``performLoginFlow(configuration:)``.
    func finalise(redirectURL url: URL) throws
}

/// The vendor SDK's name for the tokens a login returns. A file that also imports AuthCore (which has its own
/// `TokenResponse`, the token endpoint's answer) writes `GOVUKCompat.TokenResponse`.
public typealias TokenResponse = LoginTokens

/// The vendor SDK's `AppAuthSession`: a ``LoginSession`` on top of a ``OneLoginSession`` and the web session that
/// shows the login (the vendor's `init(window:)` presented AppAuth's from the window; here the app passes the
/// `UserAgent` — an `ASWebAuthenticationSession` one on Apple platforms).
///
/// ```swift
/// let login = AppAuthSession(session: OneLoginSession(configuration: configuration), userAgent: webSession)
/// let tokens = try await login.performLoginFlow(configuration: configuration)
/// // iOS 16–17.3, in the scene delegate: try login.finalise(redirectURL: url)
/// ```
@MainActor
public final class AppAuthSession: LoginSession {
    /// The session the logins go through (its `session` is the signed-in one afterwards).
    public let session: OneLoginSession
    private let userAgent: any UserAgent
    private var isActive = false

    /// A login session showing its logins with `userAgent`.
    public init(session: OneLoginSession, userAgent: any UserAgent) {
        self.session = session
        self.userAgent = userAgent
    }

    /// Presents the login for `configuration` with the web session and returns the validated tokens (the callback
    /// reaches it through the web session, or through ``finalise(redirectURL:)``).
    public func performLoginFlow(configuration: LoginSessionConfiguration) async throws -> TokenResponse {
        isActive = true
        defer { isActive = false }
        return try await session.present(with: userAgent, configuration: configuration)
    }

    /// Hands the universal link to the login in progress, which closes the web session and completes it (its
    /// result, or its error, comes back from ``performLoginFlow(configuration:)``).
    ///
    /// - Throws: `sign_in_in_progress` (the vendor's `LoginError(.generic)`) when no login is in progress.
    public func finalise(redirectURL url: URL) throws {
        guard isActive else {
            throw AuthError(.signInInProgress, "There is no login in progress: call performLoginFlow(configuration:) before finalise(redirectURL:).", providerID: GOVUKProvider.id)
        }
        let session = session
        Task { _ = try? await session.finalise(callback: url) }
    }
}

/// The vendor SDK's `present` / `finalise(callback:)` shape on top of the shared engine.
///
/// The split flow is the app's to drive: `present` returns the URL (and whether the web session should be
/// ephemeral); the app opens it — `ASWebAuthenticationSession` with its `callback: .https(host:path:)` on iOS 17.4 and
/// later, where the session itself catches the universal link and the app closes it by getting the result. On iOS 16
/// to 17.3 a web session cannot catch an `https` callback: the universal link arrives in the scene delegate instead.
/// With `present(with:options:)` showing the web session, `finalise(callback:)` from the scene delegate closes it
/// (as the vendor's `finalise` dismisses it); with a web session the app opened itself, the app closes it.
///
/// ```swift
/// let login = OneLoginSession(configuration: configuration)     // the Keychain and URLSession by default
/// let request = try await login.present()          // open request.url in ASWebAuthenticationSession
/// // … the universal link arrives in the scene delegate:
/// let tokens = try await login.finalise(callback: url)
/// let userInfo = try await UserService(session: login.session!).fetchUserInfo()
/// ```
public actor OneLoginSession {
    /// The engine for the configuration this session was made with.
    public nonisolated let authClient: AuthClient
    /// The signed-in session after a successful `finalise(callback:)`.
    public private(set) var session: Session?
    private var pending: AuthorizationRequest?
    /// The client of the sign-in in progress (one built for `present(configuration:)`, or ``authClient``).
    private var activeClient: AuthClient?
    /// The web session `present(with:options:)` is showing, which `finalise(callback:)` closes.
    private var presentingAgent: Task<URL, any Error>?
    /// A sign-in the app finalised while `present(with:options:)` was showing the web session.
    private var appFinalisation: Task<LoginTokens, any Error>?

    /// Creates a login session (the vendor's `AppAuthSession(window:)`), with the engine for `configuration`.
    ///
    /// - Parameters:
    ///   - configuration: the sign-in settings (client id, redirect, scopes, vectors of trust, locale, …).
    ///   - storage: where sessions are kept; by default the platform's persistent store (the Keychain on Apple
    ///     platforms), so a relaunch finds the user signed in.
    ///   - transport: how requests are sent; URLSession by default, as the vendor SDK.
    ///   - logger: where events go.
    ///   - clock: the source of the current time.
    ///   - options: the engine's options (timeouts, lifetimes).
    public init(
        configuration: GOVUKAppConfiguration,
        storage: any TokenStorage = PersistentTokenStorage.makeDefault(),
        transport: any HTTPTransport = URLSessionTransport(),
        logger: any AuthLogger = SwiftLogAuthLogger(),
        clock: any WallClock = SystemWallClock(),
        options: AuthClient.Options = AuthClient.Options()
    ) {
        authClient = AuthClient(
            provider: GOVUKProvider(configuration: configuration), storage: storage, transport: transport,
            logger: logger, clock: clock, options: options)
    }

    /// Starts a sign-in: a fresh PKCE verifier, state and nonce, and the authorization URL to open (with
    /// `AuthorizationRequest/prefersEphemeralSession` from the configuration). A previous unfinished sign-in is
    /// abandoned.
    public func present(options: SignInOptions = SignInOptions()) async throws -> AuthorizationRequest {
        try await present(using: authClient, options: options)
    }

    /// Starts a sign-in with another configuration for this one call (the vendor's `present(configuration:)`): the
    /// same storage, transport, logger, clock and options as ``authClient``, this configuration's provider.
    public func present(configuration: GOVUKAppConfiguration) async throws -> AuthorizationRequest {
        let configured = AuthClient(
            provider: GOVUKProvider(configuration: configuration),
            storage: authClient.storage,
            transport: authClient.transport,
            logger: authClient.logger,
            clock: authClient.clock,
            options: authClient.options
        )
        return try await present(using: configured, options: SignInOptions())
    }

    private func present(using client: AuthClient, options: SignInOptions) async throws -> AuthorizationRequest {
        let request = try await client.prepareSignIn(options: options)
        pending = request
        appFinalisation = nil
        activeClient = client
        return request
    }

    /// Presents with `userAgent` and finalises, in one call (the vendor's `performLoginFlow`).
    ///
    /// The callback may come back two ways: through the web session (which then closes itself), or — on iOS 16 to
    /// 17.3, where a web session cannot catch an `https` callback — to the app's scene delegate, which passes it to
    /// ``finalise(callback:)``: that closes the web session (cancels `userAgent`'s task, as the vendor's `finalise`
    /// dismisses it) and completes the sign-in, and this call returns the same tokens.
    public func present(with userAgent: any UserAgent, options: SignInOptions = SignInOptions()) async throws -> LoginTokens {
        try await run(userAgent, request: try await present(options: options))
    }

    /// ``present(with:options:)`` with another configuration for this one call, as ``present(configuration:)``
    /// (``AppAuthSession/performLoginFlow(configuration:)`` uses it).
    public func present(with userAgent: any UserAgent, configuration: GOVUKAppConfiguration) async throws -> LoginTokens {
        try await run(userAgent, request: try await present(configuration: configuration))
    }

    private func run(_ userAgent: any UserAgent, request: AuthorizationRequest) async throws -> LoginTokens {
        let agent = Task { try await userAgent.authorize(request) }
        presentingAgent = agent
        defer { presentingAgent = nil }
        let callback: URL
        do {
            callback = try await agent.value
        } catch {
            if let finalisation = appFinalisation { return try await finalisation.value }
            pending = nil
            throw error
        }
        if let finalisation = appFinalisation { return try await finalisation.value }
        return try await complete(callback)
    }

    /// Completes the sign-in with the universal-link callback.
    ///
    /// - Throws: `AuthError`; its `AuthError/govUKLoginError` is `.invalidRedirectURL(reason:)` for a callback
    ///   that does not belong to this session (reason `"error: error_description"` when the callback carries an
    ///   OAuth error), and `.generic` when `present(options:)` was not called.
    public func finalise(callback: URL) async throws -> LoginTokens {
        if let agent = presentingAgent, appFinalisation == nil {
            // The app got the callback itself: close the web session ``present(with:options:)`` opened.
            let finalisation = Task { try await self.complete(callback) }
            appFinalisation = finalisation
            agent.cancel()
            return try await finalisation.value
        }
        return try await complete(callback)
    }

    private func complete(_ callback: URL) async throws -> LoginTokens {
        guard let pending else {
            throw AuthError(.signInInProgress, "There is no login in progress: call present() before finalise(callback:).", providerID: GOVUKProvider.id)
        }
        let response = try? AuthorizationResponse(parsing: callback)
        guard AuthorizationResponse.redirect(callback, matches: pending.redirectURI), response?.state == pending.state else {
            let reason =
                response?.error.map { error in
                    [error, response?.errorDescription].compactMap { $0 }.joined(separator: ": ")
                } ?? "The callback does not belong to this login session."
            throw AuthError(.redirectMismatch, reason, providerID: GOVUKProvider.id, oauthError: response?.error)
        }
        self.pending = nil
        let session = try await (activeClient ?? authClient).completeSignIn(redirect: callback)
        self.session = session
        return LoginTokens(await session.credential)
    }
}

/// The tokens a login returns (the vendor's `TokenResponse`, also available under that name).
public struct LoginTokens: Sendable {
    /// The access token.
    public let accessToken: Secret
    /// The token type (`Bearer`).
    public let tokenType: String
    /// When the access token expires.
    public let expiryDate: Date?
    /// The refresh token, when issued.
    public let refreshToken: Secret?
    /// The ID token (already validated), when issued.
    public let idToken: Secret?

    init(_ credential: Credential) {
        accessToken = credential.accessToken
        tokenType = credential.tokenType
        expiryDate = credential.expiresAt
        refreshToken = credential.refreshToken
        idToken = credential.idToken
    }

    /// Tokens from their texts, with the vendor's `TokenResponse` initializer's labels (for an app's stand-ins in its
    /// tests).
    public init(accessToken: String, refreshToken: String? = nil, idToken: String? = nil, tokenType: String, expiryDate: Date) {
        self.accessToken = Secret(accessToken)
        self.refreshToken = refreshToken.map(Secret.init)
        self.idToken = idToken.map(Secret.init)
        self.tokenType = tokenType
        self.expiryDate = expiryDate
    }
}
