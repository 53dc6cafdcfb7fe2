public import AuthCore
public import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension AuthError.Code {
    /// Grab: the app is not installed; the App Store was opened (`launchAppStoreLink`). Retry after install or cancel.
    public static let grabAppStoreLaunched: Self = "grab_app_store_launched"
    /// Grab: the App Store could not be opened (`failedTolaunchAppStoreLink`).
    public static let grabAppStoreLaunchFailed: Self = "grab_app_store_launch_failed"
}

/// A Grab login: the configuration and, after `GrabIdPartner/login(loginSession:)`, the tokens.
public struct LoginSession: Sendable {
    /// The configuration it was loaded from.
    public let configuration: GrabConfiguration
    /// The session after login.
    public let session: Session?

    /// The access token.
    public var accessToken: Secret? { get async { await session?.credential.accessToken } }
    /// The refresh token.
    public var refreshToken: Secret? { get async { await session?.credential.refreshToken } }
    /// The ID token (validated).
    public var idToken: Secret? { get async { await session?.credential.idToken } }
    /// When the access token expires.
    public var accessTokenExpiresAt: Date? { get async { await session?.credential.expiresAt } }
}

/// Claims from Grab's ID token verification endpoint (the vendor's `IdTokenInfo`).
public struct IdTokenInfo: Sendable, Hashable {
    /// `aud`.
    public let audience: String?
    /// `exp`.
    public let expiration: Date?
    /// `iat`.
    public let issueDate: Date?
    /// `iss`.
    public let issuer: String?
    /// `nbf`.
    public let notValidBefore: Date?
    /// `jti`.
    public let tokenId: String?
    /// `nonce`.
    public let nonce: String?
    /// `svc`: the service.
    public let service: String?
    /// `pid`: the partner id.
    public let partnerId: String?
    /// `sub`: the partner's user id.
    public let partnerUserId: String?

    init(_ claims: [String: JSONValue]) {
        func date(_ key: String) -> Date? { claims[key]?.timestampValue }
        audience = claims["aud"]?.stringValue ?? claims["aud"]?.arrayValue?.first?.stringValue
        expiration = date("exp")
        issueDate = date("iat")
        issuer = claims["iss"]?.stringValue
        notValidBefore = date("nbf")
        tokenId = claims["jti"]?.stringValue
        nonce = claims["nonce"]?.stringValue
        service = claims["svc"]?.stringValue
        partnerId = claims["pid"]?.stringValue
        partnerUserId = claims["sub"]?.stringValue
    }
}

/// The vendor's `GrabIdPartner`: load a login session, log in (web or the Grab app), id token info, logout.
public actor GrabIdPartner {
    /// The engine.
    public nonisolated let authClient: AuthClient
    /// The configuration.
    public nonisolated let configuration: GrabConfiguration
    private let webAgent: any UserAgent
    private let appHandoff: (any AppHandoff)?
    private var appCallback: CheckedContinuation<URL, any Error>?
    private var idTokenInfoCache: [String: IdTokenInfo] = [:]

    /// Creates the SDK object.
    public init(
        configuration: GrabConfiguration,
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
        authClient = AuthClient(provider: GrabProvider(configuration: configuration), storage: storage, transport: transport, logger: logger, clock: clock)
    }

    /// A login session from the configuration (the vendor's `loadLoginSession`); fetches service discovery.
    public func loadLoginSession() async throws -> LoginSession {
        _ = try await authClient.metadata()
        return LoginSession(configuration: configuration, session: try await authClient.restoreSession())
    }

    /// Logs in: web, or a hand-off to the Grab app when it is installed and the request has no hints; returns the
    /// session with validated tokens.
    ///
    /// - Throws: `AuthError`; `AuthError/grabError` gives the vendor's domain and code — including
    ///   `launchAppStoreLink` when the App Store was opened instead.
    public func login(loginSession: LoginSession, options: SignInOptions = SignInOptions()) async throws -> LoginSession {
        let request = try await authClient.prepareSignIn(options: options)
        let route = try await decideRoute(request)
        let callback: URL
        switch route {
        case .web:
            authClient.log(.info, "grab.route", "Web login.")
            callback = try await webAgent.authorize(request)
        case .app(let deepLink):
            authClient.log(.info, "grab.route", "Hand-off to the Grab app.")
            callback = try await withCheckedThrowingContinuation { continuation in
                appCallback = continuation
                Task { await self.open(deepLink) }
            }
        case .appStore(let store):
            let opened = await appHandoff?.open(store) ?? false
            throw opened
                ? AuthError(.grabAppStoreLaunched, "The Grab app is not installed; the App Store was opened. Log in again after installing, or cancel.", providerID: GrabProvider.id)
                : AuthError(.grabAppStoreLaunchFailed, "The Grab app is not installed and the App Store could not be opened.", providerID: GrabProvider.id)
        }
        let session = try await authClient.completeSignIn(redirect: callback)
        return LoginSession(configuration: configuration, session: session)
    }

    /// Offers a URL the app received (the vendor's `handleOpenUrl`); `true` when it was the Grab app's callback
    /// for the login in progress.
    public func handleOpenUrl(_ url: URL) -> Bool {
        guard let continuation = appCallback, AuthorizationResponse.redirect(url, matches: configuration.redirectUrl) else { return false }
        appCallback = nil
        continuation.resume(returning: url)
        return true
    }

    /// The route for `request`, from the client public info and the host's ability to open the Grab app.
    public func decideRoute(_ request: AuthorizationRequest) async throws -> GrabRoute {
        let metadata = try await authClient.metadata()
        guard let appHandoff, let template = metadata.document["client_public_info_endpoint"]?.stringValue,
            let endpoint = URL(string: template.replacingOccurrences(of: "{client_id}", with: FormEncoding.escape(configuration.clientId)))
        else { return .web }
        let protocols: [GrabCustomProtocol]
        do {
            var info = URLRequest(url: endpoint)
            info.httpMethod = "GET"
            let (data, response) = try await authClient.transport.send(info)
            guard response.statusCode == 200 else { return .web }
            protocols = try GrabCustomProtocol.parse(publicInfo: data)
        } catch {
            authClient.log(.notice, "grab.publicinfo.failed", "The client public info could not be read; logging in on the web.")
            return .web
        }
        var openable: Set<String> = []
        for entry in protocols {
            if let url = URL(string: entry.paxProtocol), await appHandoff.canOpen(url) { openable.insert(entry.paxProtocol) }
        }
        return GrabRoute.decide(authorizationURL: request.url, authorizationEndpoint: metadata.authorizationEndpoint,
                                customProtocols: protocols) { openable.contains($0.absoluteString) }
    }

    /// The ID token's info from Grab's verification endpoint; the nonce must match; cached until it expires.
    public func getIdTokenInfo(loginSession: LoginSession) async throws -> IdTokenInfo {
        guard let session = loginSession.session, let idToken = await session.credential.idToken,
            let nonce = await session.idTokenClaims?.nonce
        else { throw AuthError(.notSignedIn, "The login session has no ID token.", providerID: GrabProvider.id) }
        let now = authClient.clock.now()
        if let cached = idTokenInfoCache[idToken.reveal()], let expiration = cached.expiration, expiration > now { return cached }
        let metadata = try await authClient.metadata()
        guard let template = metadata.document["id_token_verification_endpoint"]?.stringValue, let endpoint = URL(string: template) else {
            throw AuthError(.endpointUnavailable, "Grab's service discovery has no id_token_verification_endpoint.", providerID: GrabProvider.id)
        }
        var request = URLRequest(url: endpoint.appendingQuery([("client_id", configuration.clientId), ("id_token", idToken.reveal()), ("nonce", nonce)]))
        request.httpMethod = "GET"
        let (data, response) = try await authClient.transport.send(request)
        guard response.statusCode == 200, let claims = try? JSONValue.parseObject(data) else {
            throw AuthError(.httpError, "Grab's ID token verification answered HTTP \(response.statusCode).", providerID: GrabProvider.id, httpStatus: response.statusCode)
        }
        let info = IdTokenInfo(claims)
        guard info.nonce == nonce else {
            throw AuthError(.nonceMismatch, "The ID token info's nonce is not this login's.", providerID: GrabProvider.id)
        }
        idTokenInfoCache[idToken.reveal()] = info
        return info
    }

    /// Whether the session has a non-empty access token that has not expired.
    public func isValidAccessToken(loginSession: LoginSession) async -> Bool {
        guard let credential = await loginSession.session?.credential, !credential.accessToken.isEmpty else { return false }
        return !credential.isExpired(at: authClient.clock.now())
    }

    /// Whether the info has a nonce and `exp > now >= nbf`.
    public func isValidIdToken(idTokenInfo: IdTokenInfo) -> Bool {
        let now = authClient.clock.now()
        guard idTokenInfo.nonce != nil, let expiration = idTokenInfo.expiration, expiration > now else { return false }
        return idTokenInfo.notValidBefore.map { now >= $0 } ?? true
    }

    /// Logs out locally: clears the stored tokens and the cached info (no server call, as with the vendor SDK).
    public func logout(loginSession: LoginSession) async throws {
        idTokenInfoCache.removeAll()
        try await loginSession.session?.signOut(revokingTokens: false)
    }

    private func open(_ deepLink: URL) async {
        guard let appHandoff, await appHandoff.open(deepLink) else {
            appCallback?.resume(throwing: AuthError(.authorizationFailed, "The Grab app could not be opened.", providerID: GrabProvider.id))
            appCallback = nil
            return
        }
    }
}
