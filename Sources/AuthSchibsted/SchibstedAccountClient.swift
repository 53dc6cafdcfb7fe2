public import AuthCore
public import Foundation
import Crypto

/// The vendor SDK's `Client`: login sessions, callback handling, resuming the last user, external ids.
///
/// ```swift
/// let client = SchibstedAccountClient(configuration: ClientConfiguration(environment: .pre, clientId: id, redirectURI: uri),
///                                     storage: keychain)
/// let request = try await client.getLoginSession(withMFA: .otp, withSSO: true)   // open request.url
/// // in application(_:open:options:):
/// if client.handles(url) { let user = try await client.handleAuthenticationResponse(url: url) }
/// ```
public actor SchibstedAccountClient {
    /// The engine.
    public nonisolated let authClient: AuthClient
    /// The configuration.
    public nonisolated let configuration: ClientConfiguration
    private var pending: AuthorizationRequest?

    /// Creates a client.
    public init(
        configuration: ClientConfiguration,
        storage: any TokenStorage = InMemoryTokenStorage(),
        transport: any HTTPTransport = URLSessionTransport(),
        logger: any AuthLogger = SwiftLogAuthLogger(),
        clock: any WallClock = SystemWallClock()
    ) {
        self.configuration = configuration
        authClient = AuthClient(provider: SchibstedProvider(configuration: configuration), storage: storage, transport: transport, logger: logger, clock: clock)
    }

    /// Starts a login: returns the authorization request to open. Only one login may run at a time.
    ///
    /// - Parameters:
    ///   - mfa: require this authentication method (`acr_values`); without it the user picks an account
    ///     (`prompt=select_account`). Country eIDs are available on `pre` only.
    ///   - loginHint: an e-mail or phone number to pre-fill.
    ///   - extraScopeValues: scopes beyond `openid offline_access`.
    ///   - withSSO: `false` asks for an ephemeral browser session (no shared cookies).
    /// - Throws: `sign_in_in_progress` (the vendor's `previousSessionInProgress`) while another login is pending.
    public func getLoginSession(
        withMFA mfa: MFAType? = nil,
        loginHint: String? = nil,
        extraScopeValues: Set<String> = [],
        withSSO: Bool = true
    ) async throws -> AuthorizationRequest {
        if let pending, pending.expiresAt > authClient.clock.now() {
            throw AuthError(.signInInProgress, "A Schibsted login is already in progress; finish or cancel it first.", providerID: SchibstedProvider.id)
        }
        if let mfa, mfa.rawValue.hasPrefix("eid-"), !configuration.environment.allowsCountryEID {
            throw AuthError(.invalidConfiguration, "'\(mfa.rawValue)' is only available in the pre environment; use .eid.", providerID: SchibstedProvider.id)
        }
        let request = try await authClient.prepareSignIn(options: SignInOptions(
            loginHint: loginHint,
            acrValues: mfa.map { [$0.rawValue] } ?? [],
            additionalScopes: extraScopeValues.sorted(),
            prefersEphemeralSession: !withSSO
        ))
        pending = request
        return request
    }

    /// Whether `url` is a callback for this client: the redirect URI, but not Swedish BankID's own redirect
    /// (a path containing `bankId`), which the app must ignore.
    public nonisolated func handles(_ url: URL) -> Bool {
        AuthorizationResponse.redirect(url, matches: configuration.redirectURI) && !url.pathComponents.contains("bankId")
            || url.absoluteString.hasPrefix(configuration.redirectURI.absoluteString) && url.path.contains("cancel")
    }

    /// Completes the pending login with its callback and returns the user.
    ///
    /// - Throws: `user_cancelled` for a callback whose path contains `cancel`; the engine's errors otherwise
    ///   (see `AuthError/schibstedLoginError`).
    public func handleAuthenticationResponse(url: URL) async throws -> SchibstedUser {
        if url.path.contains("cancel") {
            pending = nil
            throw AuthError(.userCancelled, "The user cancelled the Schibsted login.", providerID: SchibstedProvider.id)
        }
        guard handles(url) else {
            throw AuthError(.redirectMismatch, "The URL is not a Schibsted login callback for this client.", providerID: SchibstedProvider.id)
        }
        defer { pending = nil }
        return SchibstedUser(session: try await authClient.completeSignIn(redirect: url), client: self)
    }

    /// Logs in with `userAgent` in one call.
    public func login(
        with userAgent: any UserAgent,
        withMFA mfa: MFAType? = nil,
        loginHint: String? = nil,
        withSSO: Bool = true
    ) async throws -> SchibstedUser {
        let request = try await getLoginSession(withMFA: mfa, loginHint: loginHint, withSSO: withSSO)
        let callback: URL
        do {
            callback = try await userAgent.authorize(request)
        } catch {
            pending = nil
            throw error
        }
        return try await handleAuthenticationResponse(url: callback)
    }

    /// The last logged-in user from storage, if any (the vendor's `resumeLastLoggedInUser`).
    public func resumeLastLoggedInUser() async throws -> SchibstedUser? {
        try await authClient.restoreSession().map { SchibstedUser(session: $0, client: self) }
    }

    /// The external id for TCF consent sharing: lowercase hex SHA-256 of `pairId:externalParty` or
    /// `pairId:externalParty:suffix` when the suffix is not empty.
    public nonisolated func getExternalId(pairId: String, externalParty: String, optionalSuffix: String = "") -> String {
        let input = optionalSuffix.isEmpty ? "\(pairId):\(externalParty)" : "\(pairId):\(externalParty):\(optionalSuffix)"
        return SHA256.hash(data: Data(input.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
