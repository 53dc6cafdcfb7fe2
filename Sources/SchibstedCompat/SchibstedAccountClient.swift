public import AuthAppSupport
import AuthApple
public import AuthCore
import AuthSchibsted
public import AuthURLSession
import Crypto
public import Foundation

/// The vendor SDK's `Client`: login sessions, callback handling, resuming the last user, external ids.
///
/// ```swift
/// let client = SchibstedAccountClient(configuration: SchibstedConfiguration(environment: .pre, clientId: id, redirectURI: uri))
/// let request = try await client.getLoginSession(withMFA: .otp, withSSO: true)   // open request.url
/// // in application(_:open:options:):
/// if client.handles(url) { let user = try await client.handleAuthenticationResponse(url: url) }
/// // the user closed the browser sheet without finishing:
/// await client.cancelLoginSession()
/// ```
public actor SchibstedAccountClient {
    /// The engine.
    public nonisolated let authClient: AuthClient
    /// The configuration.
    public nonisolated let configuration: SchibstedConfiguration
    /// The Apple team id prefix the vendor's apps share sessions under (`<prefix>.com.schibsted.simplifiedLogin`),
    /// when simplified login is used.
    public nonisolated let appIdentifierPrefix: String?
    /// Told about logins, failures, cancellations and logouts (the vendor's `TrackingEventsHandler`).
    public nonisolated let tracker: (any TrackingEventsHandler)?
    /// Where the vendor SDK kept its sessions (`nil` outside Apple platforms, where it never ran).
    nonisolated let vendorStore: (any VendorStore)?
    private var pending: AuthorizationRequest?
    /// The web session `login(with:)` is showing, so ``cancelLoginSession()`` can close it.
    private var presenting: Task<URL, any Error>?
    /// The completion of a callback the app delegate handed over while `login(with:)` showed the sheet; that login
    /// returns its user.
    private var handedOver: Task<SchibstedUser, any Error>?
    private var vendorSessionChecked = false
    /// Keeps the vendor-format copy of this app's session current while simplified login is shared.
    private var mirrorTask: Task<Void, Never>?

    deinit { mirrorTask?.cancel() }

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - configuration: the environment, client id and redirect URI.
    ///   - appIdentifierPrefix: your Apple team id, to share sessions with the vendor's other apps (simplified
    ///     login): the default storage then lives in the access group `<prefix>.com.schibsted.simplifiedLogin`,
    ///     which the app's Keychain Sharing capability must list. The app's session is then also kept there in the
    ///     vendor's `UserSession` JSON, so apps still on account-sdk-ios-web offer it too (see
    ///     ``SimplifiedLoginManager``).
    ///   - tracker: receives ``SchibstedTrackingEvent``s.
    ///   - storage: where sessions are kept; by default the Keychain on Apple platforms (this device only), owner-only
    ///     files elsewhere, so a relaunch finds the user logged in.
    ///   - vendorStore: where account-sdk-ios-web kept its session; it is moved into `storage` once, at the first
    ///     ``resumeLastLoggedInUser()`` (and, with an `appIdentifierPrefix`, left in place for the vendor's other
    ///     apps). By default the app's Keychain on Apple platforms.
    ///   - transport: sends the HTTP requests.
    ///   - logger: receives the client's log records (never tokens); its level is yours to set.
    ///   - clock: the time source for expiry and lifetimes.
    public init(
        configuration: SchibstedConfiguration,
        appIdentifierPrefix: String? = nil,
        tracker: (any TrackingEventsHandler)? = nil,
        storage: (any TokenStorage)? = nil,
        vendorStore: (any VendorStore)? = PersistentTokenStorage.makeVendorStore(),
        transport: any HTTPTransport = URLSessionTransport(),
        logger: any AuthLogger = SwiftLogAuthLogger(),
        clock: any WallClock = SystemWallClock()
    ) {
        self.configuration = configuration
        self.appIdentifierPrefix = appIdentifierPrefix
        self.tracker = tracker
        self.vendorStore = vendorStore
        let storage =
            storage
            ?? PersistentTokenStorage.makeDefault(
                accessGroup: appIdentifierPrefix.map(SchibstedVendorSession.sharedAccessGroup(appIdentifierPrefix:))
            )
        authClient = AuthClient(
            provider: SchibstedProvider(configuration: configuration, sdkUserAgent: Self.sdkUserAgent), storage: storage, transport: transport, logger: logger,
            clock: clock)
    }

    // MARK: Login

    /// Starts a login: returns the authorization request to open. Only one login may run at a time; end an
    /// abandoned one with ``cancelLoginSession()``.
    ///
    /// - Parameters:
    ///   - mfa: require this authentication method (`acr_values`); without it the user picks an account
    ///     (`prompt=select_account`). Country eIDs are available on `pre` only.
    ///   - state: your own `state` (SDK 5), for a value you carry through the login. It must be at least 22
    ///     URL-safe characters and new for every login, since it is what protects the login against CSRF; by
    ///     default a random one is made.
    ///   - loginHint: an e-mail or phone number to pre-fill.
    ///   - xDomainId: sent as `x_domain_id`, linking the login to your cross-domain tracking id.
    ///   - extraScopeValues: scopes beyond `openid offline_access`.
    ///   - withSSO: `false` asks for an ephemeral browser session (no shared cookies).
    /// - Throws: `sign_in_in_progress` (the vendor's `previousSessionInProgress`) while another login is pending;
    ///   `invalid_configuration` for a country eID outside `pre` or an unusable `state`.
    public func getLoginSession(
        withMFA mfa: MFAType? = nil,
        state: String? = nil,
        loginHint: String? = nil,
        xDomainId: UUID? = nil,
        extraScopeValues: Set<String> = [],
        withSSO: Bool = true
    ) async throws -> AuthorizationRequest {
        try await startLogin(mfa: mfa, state: state, loginHint: loginHint, xDomainId: xDomainId, extraScopeValues: extraScopeValues, withSSO: withSSO, assertion: nil)
    }

    /// ``getLoginSession(withMFA:state:loginHint:xDomainId:extraScopeValues:withSSO:)`` with a simplified-login
    /// `assertion`.
    func startLogin(
        mfa: MFAType?, state: String?, loginHint: String?, xDomainId: UUID?, extraScopeValues: Set<String>,
        withSSO: Bool, assertion: Secret?
    ) async throws -> AuthorizationRequest {
        if let pending, pending.expiresAt > authClient.clock.now() {
            throw AuthError(
                .signInInProgress, "A Schibsted login is already in progress; finish it, or call cancelLoginSession() if the user left it.", providerID: SchibstedProvider.id)
        }
        if let mfa, mfa.rawValue.hasPrefix("eid-"), !configuration.environment.allowsCountryEID {
            throw AuthError(.invalidConfiguration, "'\(mfa.rawValue)' is only available in the pre environment; use .eid.", providerID: SchibstedProvider.id)
        }
        var parameters: [String: String] = [:]
        if let assertion { parameters["assertion"] = assertion.reveal() }
        if let xDomainId { parameters["x_domain_id"] = xDomainId.uuidString }
        var options = SignInOptions(
            loginHint: loginHint,
            acrValues: mfa.map { [$0.rawValue] } ?? [],
            additionalScopes: extraScopeValues.sorted(),
            additionalParameters: parameters,
            prefersEphemeralSession: !withSSO
        )
        options.state = state
        let request = try await authClient.prepareSignIn(options: options)
        pending = request
        await tracker?.track(.loginStarted(mfa: mfa, withSSO: withSSO, xDomainId: xDomainId))
        return request
    }

    /// Ends the pending login without a callback — the user dismissed the browser sheet, or your app gave up — so
    /// a new login can start at once and the old request's `state` can never be used.
    public func cancelLoginSession() async {
        // Closes the web session login(with:) opened (its user agent sees the cancellation).
        presenting?.cancel()
        presenting = nil
        guard let request = pending else { return }
        pending = nil
        await authClient.abandon(request)
        await tracker?.track(.loginCancelled)
    }

    /// Whether `url` is a login callback for this client: the redirect URI, or a cancellation under it
    /// (`…/cancel`), but never Swedish BankID's own redirect (`{scheme}:/bankId`), which the app must ignore.
    public nonisolated func handles(_ url: URL) -> Bool {
        guard isOurs(url), !url.pathComponents.contains("bankId") else { return false }
        return url.pathComponents.contains("cancel") || AuthorizationResponse.redirect(url, matches: configuration.redirectURI)
    }

    /// Completes the pending login with its callback and returns the user.
    ///
    /// With a custom-scheme redirect the system may hand the callback to the app delegate
    /// (`application(_:open:options:)`) instead of the web session. When ``login(with:withMFA:state:loginHint:xDomainId:extraScopeValues:withSSO:)``
    /// is showing the sheet, the callback is that login's: the sheet is closed and both this call and the running
    /// `login(with:)` return the user (as account-sdk-ios-web 6.x feeds such a URL into its running session:
    /// `completeLoginFromURL`, `SchibstedAuthenticator.swift`).
    ///
    /// - Throws: `redirect_mismatch` for a URL that is not this app's callback (including BankID's redirect, which
    ///   leaves the login pending); `user_cancelled` for a cancellation (`…/cancel`), which ends the pending login;
    ///   the engine's errors otherwise (see `AuthError/schibstedError`).
    public func handleAuthenticationResponse(url: URL) async throws -> SchibstedUser {
        guard handles(url) else {
            let bankID = isOurs(url) && url.pathComponents.contains("bankId")
            throw AuthError(
                .redirectMismatch,
                bankID
                    ? "This is Swedish BankID's redirect back to the app, not a login callback; ignore it (the login continues in the browser)."
                    : "The URL is not a Schibsted login callback for this client's redirect URI.",
                providerID: SchibstedProvider.id
            )
        }
        if url.pathComponents.contains("cancel") {
            await cancelLoginSession()
            throw AuthError(.userCancelled, "The user cancelled the Schibsted login.", providerID: SchibstedProvider.id)
        }
        if let presentation = presenting {
            presenting = nil
            let completion = Task { try await self.complete(url) }
            handedOver = completion
            presentation.cancel()  // closes the sheet; login(with:) then returns this completion's user
            return try await completion.value
        }
        return try await complete(url)
    }

    /// Redeems the callback of the pending login.
    private func complete(_ url: URL) async throws -> SchibstedUser {
        defer { pending = nil }
        do {
            let user = SchibstedUser(session: try await authClient.completeSignIn(redirect: url), client: self)
            await mirrorSharedSession(user.session.credential.storageKey)
            await tracker?.track(.loginCompleted)
            return user
        } catch let error as AuthError {
            await tracker?.track(.loginFailed(error.code))
            throw error
        }
    }

    /// Logs in with `userAgent` in one call. Closing the browser ends the login; ``cancelLoginSession()`` (or cancelling
    /// the calling task) closes the web session and ends it.
    public func login(
        with userAgent: any UserAgent,
        withMFA mfa: MFAType? = nil,
        state: String? = nil,
        loginHint: String? = nil,
        xDomainId: UUID? = nil,
        extraScopeValues: Set<String> = [],
        withSSO: Bool = true
    ) async throws -> SchibstedUser {
        let request = try await getLoginSession(withMFA: mfa, state: state, loginHint: loginHint, xDomainId: xDomainId, extraScopeValues: extraScopeValues, withSSO: withSSO)
        return try await finishLogin(request, with: userAgent)
    }

    /// Opens `request` with `userAgent` and completes it; a dismissed or failed browser ends the pending login.
    func finishLogin(_ request: AuthorizationRequest, with userAgent: any UserAgent) async throws -> SchibstedUser {
        let callback: URL
        let presentation = Task { try await userAgent.authorize(request) }
        presenting = presentation
        do {
            // The caller's cancellation closes the web session too.
            callback = try await withTaskCancellationHandler {
                try await presentation.value
            } onCancel: {
                presentation.cancel()
            }
            presenting = nil
        } catch {
            if let completion = takeHandedOver() { return try await completion.value }
            await cancelLoginSession()
            throw error
        }
        if let completion = takeHandedOver() { return try await completion.value }
        return try await handleAuthenticationResponse(url: callback)
    }

    /// The completion of a callback the app delegate handed over during the sign-in that just ended, if any.
    private func takeHandedOver() -> Task<SchibstedUser, any Error>? {
        defer { handedOver = nil }
        return handedOver
    }

    /// Logs in with tokens obtained outside the SDK ("Obtaining tokens externally" in the README of account-sdk-ios-web,
    /// the vendor SDK: its `User.setTokens`): the ID token is validated in full — signature, issuer, audience, expiry,
    /// `iat` — before anything is stored.
    ///
    /// Inject tokens as soon as they are issued: the ID token must be at most 10 minutes old (its `iat`, with 60 s of
    /// clock skew), as at login. A test harness that obtains tokens and injects them later gets `invalid_issued_at`
    /// (`schibstedError` `.idToken(.expired)`). The vendor SDK stored any tokens it was given.
    ///
    /// This is also where the 6.x `login(code:codeVerifier:xDomainId:)` leads, but it takes finished tokens: there is
    /// no call that redeems a code and verifier obtained elsewhere. Redeem them where they were obtained (the token
    /// request with `X-OIDC: v1`) and pass the result here, or let ``login(with:withMFA:state:loginHint:xDomainId:extraScopeValues:withSSO:)``
    /// run the whole login.
    ///
    /// - Throws: `missing_id_token`; `invalid_issued_at` for an ID token issued more than 10 minutes ago; the other
    ///   ID token errors (`invalid_signature`, `token_expired`, …). Nothing is stored then.
    public func login(accessToken: Secret, refreshToken: Secret?, idToken: Secret, expiresIn: TimeInterval? = nil) async throws -> SchibstedUser {
        let tokens = TokenResponse(accessToken: accessToken, expiresIn: expiresIn, refreshToken: refreshToken, idToken: idToken)
        let user = SchibstedUser(session: try await authClient.importTokens(tokens), client: self)
        await mirrorSharedSession(user.session.credential.storageKey)
        return user
    }

    // MARK: Stored users

    /// The last logged-in user from storage, if any (the vendor's `resumeLastLoggedInUser`). The first call moves
    /// the session account-sdk-ios-web stored for this client id into storage, so the user stays logged in after
    /// the switch. Needs no network.
    public func resumeLastLoggedInUser() async throws -> SchibstedUser? {
        await adoptVendorSession()
        guard let session = try await authClient.restoreSession() else { return nil }
        await mirrorSharedSession(session.credential.storageKey)
        return SchibstedUser(session: session, client: self)
    }

    /// Whether a user is stored (the vendor's `User.isLoggedIn()`).
    public var isLoggedIn: Bool {
        get async { ((try? await resumeLastLoggedInUser()) ?? nil) != nil }
    }

    /// Moves the vendor SDK's item for this client id into storage, once (again later only when offline). With an
    /// `appIdentifierPrefix` the item is left where it is: it sits in the shared group the vendor's other apps read
    /// for simplified login, and this app's session is mirrored into it from then on.
    private func adoptVendorSession() async {
        guard let vendorStore, !vendorSessionChecked else { return }
        let (clientID, clock, shared) = (configuration.clientId, authClient.clock, appIdentifierPrefix != nil)
        let outcome = await authClient.adoptVendorSessionIfPresent(
            { issuer in
                guard let data = try await vendorStore.genericPassword(service: SchibstedVendorSession.service, account: clientID) else { return nil }
                let session = try SchibstedVendorSession(account: clientID, data: data)
                guard IDTokenPolicy(issuerComparison: .ignoringTrailingSlash).issuerMatches(session.issuer, expected: issuer) else { return nil }
                return session.credential(issuer: issuer, now: clock.now())
            },
            removingVendorCopy: {
                guard !shared else { return }
                try await vendorStore.removeGenericPassword(service: SchibstedVendorSession.service, account: clientID)
            })
        vendorSessionChecked = outcome != .offline
    }

    /// Simplified login both ways: with an `appIdentifierPrefix`, this app's session is kept in the vendor's
    /// `UserSession` JSON (service `com.schibsted.account`, account = client id, the shared access group), so apps
    /// still on account-sdk-ios-web keep offering it, as they would an app on the vendor SDK. Written at login,
    /// resume and every refresh, stamped with when the tokens were obtained; removed at logout, as the vendor SDK removes its item. Never an item either vendor
    /// SDK could not decode (see `SchibstedVendorSession.sharedItem`); a failure to write is logged, never thrown.
    func mirrorSharedSession(_ key: StorageKey) async {
        guard let appIdentifierPrefix, let vendorStore, key.clientID == configuration.clientId else { return }
        if mirrorTask == nil {
            let events = await authClient.events()
            mirrorTask = Task { [weak self] in
                for await event in events {
                    guard let self else { return }
                    switch event.kind {
                    case .signedIn, .refreshed: await self.mirrorSharedSession(event.account)
                    case .signedOut: await self.removeSharedSession(event.account)
                    case .refreshFailed: break
                    }
                }
            }
        }
        guard let session = try? await authClient.restoreSession(key: key) else { return }
        let credential = await session.credential
        guard let data = SchibstedVendorSession.sharedItem(for: credential, claims: await session.idTokenClaims) else {
            return
        }
        do {
            try await vendorStore.storeGenericPassword(
                data, service: SchibstedVendorSession.service, account: configuration.clientId,
                accessGroup: SchibstedVendorSession.sharedAccessGroup(appIdentifierPrefix: appIdentifierPrefix)
            )
        } catch {
            authClient.log(.notice, "schibsted.shared_session_not_written", "This app's session could not be shared with the vendor's apps on account-sdk-ios-web.")
        }
    }

    /// Removes the vendor-format copy of this app's session (logout).
    func removeSharedSession(_ key: StorageKey) async {
        guard appIdentifierPrefix != nil, let vendorStore, key.clientID == configuration.clientId else { return }
        try? await vendorStore.removeGenericPassword(service: SchibstedVendorSession.service, account: configuration.clientId)
    }

    // MARK: External ids

    /// The external id for TCF consent sharing, as SDK 5 computes it: lowercase hex SHA-256 of
    /// `pairId:externalParty`, or `pairId:externalParty:suffix` when the suffix is not empty. Optional as the
    /// vendor's is; never `nil` in practice.
    public nonisolated func getExternalId(pairId: String, externalParty: String, suffix: String = "") -> String? {
        Self.externalID([pairId, externalParty] + (suffix.isEmpty ? [] : [suffix]))
    }

    /// The SDK 5 README's spelling of ``getExternalId(pairId:externalParty:suffix:)``.
    public nonisolated func getExternalId(pairId: String, externalParty: String, optionalSuffix: String) -> String? {
        getExternalId(pairId: pairId, externalParty: externalParty, suffix: optionalSuffix)
    }

    /// The external id as SDK 6 computes it (`externalId(pairId:externalParty:suffix:)`): a `nil` suffix is left
    /// out, an empty one kept (`pairId:externalParty:`).
    public nonisolated func externalId(pairId: String, externalParty: String, suffix: String? = nil) -> String {
        Self.externalID([pairId, externalParty] + (suffix.map { [$0] } ?? []))
    }

    private static func externalID(_ parts: [String]) -> String {
        SHA256.hash(data: Data(parts.joined(separator: ":").utf8)).map { String(format: "%02x", $0) }.joined()
    }

    // MARK: Helpers

    /// The same scheme, host and port as the redirect URI: a URL addressed to this app (BankID's `{scheme}:/bankId`
    /// and the cancel path `…/cancel` are, though their paths differ from the redirect's).
    private nonisolated func isOurs(_ url: URL) -> Bool {
        url.hasOrigin(of: configuration.redirectURI)
    }
}

/// The vendor SDK 5 name of ``SchibstedAccountClient``, for code migrating from account-sdk-ios-web.
public typealias Client = SchibstedAccountClient
