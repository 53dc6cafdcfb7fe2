public import AuthAppSupport
import AuthApple
public import AuthCore
import AuthOneLogin
public import AuthURLSession
import Foundation

/// The vendor SDK's `OLOidc` API on top of the shared engine.
///
/// ```swift
/// let olOidc = try await OLOidc(configuration: OneLoginConfiguration(dict: ["issuer": …, "clientId": …,
///                                                               "redirectUri": …, "scopes": "openid profile"]))
/// try await olOidc.signIn(with: userAgent)
/// let claims = await olOidc.olAuthState.idTokenParsed?.all
/// let active = try await olOidc.introspect()
/// ```
///
/// With `useSecureStorage` (the default) the session is written to storage after every change and loaded when
/// the object is created; without it, it lives in memory only (save/load/delete by hand as with the vendor's
/// `olAuthState.writeToKeychain()` …).
public actor OLOidc {
    /// Which token `revokeToken(tokenType:)` revokes.
    public enum TokenType: Sendable {
        /// The access token.
        case accessToken
        /// The refresh token.
        case refreshToken
    }

    /// The engine.
    public nonisolated let authClient: AuthClient
    /// The configuration.
    public nonisolated let configuration: OneLoginConfiguration
    private let secureStorage: (any TokenStorage)?
    private var session: Session?

    /// Creates the SDK object and, with `useSecureStorage`, loads the previous session.
    ///
    /// - Parameters:
    ///   - configuration: the configuration; `nil` reads `OL-Oidc.plist` from the main bundle, as the vendor's
    ///     `OLOidc(configuration: nil)`.
    ///   - useSecureStorage: save every change to `secureStorage` and load it now (default `true`).
    ///   - secureStorage: where to keep the session; by default the Keychain on Apple platforms, readable only while
    ///     the device is unlocked, this device only (the vendor's `kSecAttrAccessibleWhenUnlockedThisDeviceOnly`), and
    ///     owner-only files elsewhere.
    ///   - ephemeralSession: prefer an ephemeral browser session.
    ///   - transport: how requests are sent.
    ///   - logger: where events go.
    ///   - clock: the source of the current time.
    ///   - vendorStore: where the OLOidc SDK kept its session (the app's Keychain on Apple platforms); a session found
    ///     there is moved into `secureStorage` once, so its user stays signed in. `nil` skips it.
    /// - Throws: `OneLoginConfiguration` errors when `configuration` is `nil` and the plist is missing or wrong.
    public init(
        configuration: OneLoginConfiguration?,
        useSecureStorage: Bool = true,
        secureStorage: any TokenStorage = PersistentTokenStorage.makeDefault(accessibility: .whenUnlockedThisDeviceOnly),
        ephemeralSession: Bool = false,
        transport: any HTTPTransport = URLSessionTransport(),
        logger: any AuthLogger = SwiftLogAuthLogger(),
        clock: any WallClock = SystemWallClock(),
        vendorStore: (any VendorStore)? = PersistentTokenStorage.makeVendorStore()
    ) async throws {
        let configuration = try configuration ?? OneLoginConfiguration(plist: OneLoginConfiguration.defaultPlistName, bundle: .main)
        self.configuration = configuration
        self.secureStorage = useSecureStorage ? secureStorage : nil
        authClient = AuthClient(
            provider: OneLoginProvider(configuration: configuration, ephemeralSession: ephemeralSession),
            storage: useSecureStorage ? secureStorage : InMemoryTokenStorage(),
            transport: transport,
            logger: logger,
            clock: clock,
            options: AuthClient.Options(refreshMargin: 60)
        )
        guard useSecureStorage else { return }
        if let vendorStore {
            // The issuer is configured, so this never waits for the network; a failure is logged and left in place.
            _ = await authClient.adoptVendorSessionIfPresent(
                { issuer in
                    try await OLOidcVendorSession.credential(for: configuration, issuer: issuer, from: vendorStore, now: clock.now())
                },
                removingVendorCopy: {
                    try await OLOidcVendorSession.remove(for: configuration, from: vendorStore)
                })
        }
        session = try await authClient.restoreSession()
    }

    /// The current authentication state: empty once the session ended (signed out, or its refresh token rejected).
    public var olAuthState: OLOidcAuthState {
        get async {
            guard let session, await session.isSignedIn else { return await OLOidcAuthState(nil) }
            return await OLOidcAuthState(session)
        }
    }

    /// Signs in with `userAgent`; the result is saved (with secure storage) and available in `olAuthState`.
    ///
    /// A failed sign-in (refused, closed by the user, a failed exchange or ID token check) throws and leaves the
    /// previous session as it was, in `olAuthState` and in storage. The vendor SDK cleared it; call
    /// ``deleteTokens()`` in your `catch` for that.
    public func signIn(with userAgent: any UserAgent) async throws {
        session = try await authClient.signIn(with: userAgent)
    }

    /// Removes the local session (storage included). Does not revoke anything at the server.
    public func deleteTokens() async throws {
        try await session?.signOut(revokingTokens: false)
        session = nil
    }

    /// Revokes the access or refresh token at the discovery document's `revocation_endpoint` (RFC 7009, with the
    /// right `token_type_hint`, form-encoded).
    public func revokeToken(tokenType: TokenType) async throws {
        let credential = try await requireSession().credential
        switch tokenType {
        case .accessToken:
            try await authClient.revoke(credential.accessToken, hint: .accessToken)
        case .refreshToken:
            guard let refreshToken = credential.refreshToken else {
                throw AuthError(.notSignedIn, "There is no refresh token to revoke.", providerID: OneLoginProvider.id)
            }
            try await authClient.revoke(refreshToken, hint: .refreshToken)
        }
    }

    /// Whether the access token is active (RFC 7662).
    public func introspect() async throws -> Bool {
        try await requireSession().introspect(.accessToken).isActive
    }

    /// The user's claims; the access token is refreshed first when it expires within 60 seconds.
    public func getUserInfo() async throws -> [String: JSONValue] {
        try await requireSession().userInfo().claims
    }

    /// Refreshes the access token now.
    public func refreshAccessToken() async throws {
        try await requireSession().refresh()
    }

    // MARK: Manual storage (for useSecureStorage: false)

    /// Writes the current session to the secure storage given at creation (the vendor's `writeToKeychain()`).
    public func writeToSecureStorage(_ storage: any TokenStorage) async throws {
        let credential = try await requireSession().credential
        try await storage.store(credential, for: credential.storageKey)
    }

    /// Loads the latest session of this client from `storage` (the vendor's `readFromKeychain()`).
    @discardableResult
    public func readFromSecureStorage(_ storage: any TokenStorage) async throws -> Bool {
        let reader = AuthClient(provider: authClient.provider, storage: storage, transport: authClient.transport, logger: authClient.logger, clock: authClient.clock)
        guard let stored = try await reader.restoreSession() else { return false }
        let credential = await stored.credential
        try await authClient.storage.store(credential, for: credential.storageKey)
        session = try await authClient.restoreSession(account: credential.storageKey.account)
        return session != nil
    }

    /// Deletes this configuration's sessions from `storage` (the vendor's `deleteFromKeychain()`), whether or not one
    /// is loaded now: every credential of this provider, issuer and client id. Other configurations' data stays.
    public func deleteFromSecureStorage(_ storage: any TokenStorage) async throws {
        let issuer = configuration.issuer.absoluteString
        let clientID = configuration.clientId
        for key in try await storage.storedKeys()
        where key.providerID == OneLoginProvider.id && key.issuer == issuer && key.clientID == clientID {
            try await storage.removeCredential(for: key)
        }
    }

    private func requireSession() throws -> Session {
        guard let session else {
            throw AuthError(.notSignedIn, "There is no OneLogin session; call signIn first.", providerID: OneLoginProvider.id)
        }
        return session
    }
}

/// The vendor's `OLOidcAuthState`: the tokens and the parsed ID token.
public struct OLOidcAuthState: Sendable {
    /// The access token, when signed in.
    public let accessToken: Secret?
    /// The refresh token, when signed in.
    public let refreshToken: Secret?
    /// The ID token, when signed in.
    public let idToken: Secret?
    /// The validated ID token claims (`idTokenParsed` in the vendor SDK).
    public let idTokenParsed: IDTokenClaims?
    /// Whether there is a session.
    public var isAuthorized: Bool { accessToken != nil }

    init(_ session: Session?) async {
        let credential = await session?.credential
        accessToken = credential?.accessToken
        refreshToken = credential?.refreshToken
        idToken = credential?.idToken
        idTokenParsed = await session?.idTokenClaims
    }
}
