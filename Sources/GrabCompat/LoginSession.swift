public import AuthCore
import AuthGrab
public import Foundation

/// A Grab login, as GrabIdPartnerSDK's `LoginSession`: the configuration, and after ``GrabIdPartner/login(loginSession:options:)``
/// the tokens. A reference type like the vendor's, so code that keeps the value it passed to `login` sees the tokens.
///
/// Token getters return `Secret` (call `reveal()` where the raw string is needed), so a token never reaches a log
/// by interpolation. The one-time `code` and `codeVerifier` are spent inside the SDK and not exposed.
public final class LoginSession: Sendable {
    /// The configuration: the one it was created from, with the settings assigned since (``hint``, ``scope``, …).
    public var configuration: GrabConfiguration { box.withLock { $0.configuration } }
    private let box: LockedValue<Snapshot>

    struct Snapshot {
        var configuration: GrabConfiguration
        var session: Session?
        var credential: Credential?
        var nonce: String?
        var authorizationState: String?
    }

    /// A login session for `configuration` (what ``GrabIdPartner/loadLoginSession()`` returns).
    public init(configuration: GrabConfiguration) {
        box = LockedValue(Snapshot(configuration: configuration))
    }

    /// The vendor's initializer: a login session built in code instead of from Info.plist.
    ///
    /// - Throws: `AuthError` with Grab's `loadConfiguration` codes: `invalidScope` without `openid` (no nonce, no ID
    ///   token otherwise), `invalidServiceDiscoveryUrl` for a URL that does not parse.
    public convenience init(
        clientId: String,
        redirectUrl: URL,
        scope: String,
        request: String? = nil,
        acrValues: [String: String]? = nil,
        serviceDiscoveryUrl: String,
        hint: String = "",
        idTokenHint: String = "",
        prompt: String = ""
    ) throws {
        var values: [String: JSONValue] = [
            "ClientId": .string(clientId), "RedirectUrl": .string(redirectUrl.absoluteString), "Scope": .string(scope),
            "ServiceDiscoveryUrl": .string(serviceDiscoveryUrl), "Hint": .string(hint), "IdTokenHint": .string(idTokenHint),
            "prompt": .string(prompt), "Request": .string(request ?? "")
        ]
        values["AcrValues"] = acrValues.map { .object($0.mapValues(JSONValue.string)) }
        self.init(configuration: try GrabConfiguration(ProviderConfiguration(values)))
    }

    /// `ClientId`.
    public var clientId: String { configuration.clientId }
    /// `RedirectUrl`. Settable, as the vendor's `var` (GrabIdPartnerSDK `GrabIdPartnerLogin.swift`); so are the
    /// settings below: the next ``GrabIdPartner/login(loginSession:options:)`` uses them.
    public var redirectUrl: URL {
        get { configuration.redirectUrl }
        set { update { GrabConfiguration($0, redirectUrl: newValue) } }
    }
    /// `Scope`, space-separated. A Scope without `openid` makes the next login fail with Grab's
    /// `loadConfiguration`/`invalidScope`, as the initializer refuses it.
    public var scope: String {
        get { configuration.scope.joined(separator: " ") }
        set { update { GrabConfiguration($0, scope: ProviderConfiguration.words(newValue)) } }
    }
    /// `ServiceDiscoveryUrl`.
    public var serviceDiscoveryUrl: String { configuration.serviceDiscoveryUrl.absoluteString }
    /// `Hint` (empty when unset, as the vendor's).
    public var hint: String {
        get { configuration.hint ?? "" }
        set { update { GrabConfiguration($0, hint: .some(newValue.isEmpty ? nil : newValue)) } }
    }
    /// `IdTokenHint` (empty when unset).
    public var idTokenHint: String {
        get { configuration.idTokenHint ?? "" }
        set { update { GrabConfiguration($0, idTokenHint: .some(newValue.isEmpty ? nil : newValue)) } }
    }
    /// `prompt` (empty when unset).
    public var prompt: String {
        get { configuration.prompt ?? "" }
        set { update { GrabConfiguration($0, prompt: .some(newValue.isEmpty ? nil : newValue)) } }
    }
    /// `Request`.
    public var request: String? {
        get { configuration.request }
        set { update { GrabConfiguration($0, request: .some(newValue?.isEmpty == true ? nil : newValue)) } }
    }
    /// `AcrValues`.
    public var acrValues: [String: String]? {
        get { configuration.acrValues.isEmpty ? nil : configuration.acrValues }
        set { update { GrabConfiguration($0, acrValues: newValue ?? [:]) } }
    }

    private func update(_ change: (GrabConfiguration) -> GrabConfiguration) {
        box.withLock { $0.configuration = change($0.configuration) }
    }

    /// The engine session after login (refreshes, authorized requests, sign-out).
    public var session: Session? { box.withLock { $0.session } }
    /// The access token.
    public var accessToken: Secret? { box.withLock { $0.credential?.accessToken } }
    /// The refresh token.
    public var refreshToken: Secret? { box.withLock { $0.credential?.refreshToken } }
    /// The ID token (validated in full when it was received).
    public var idToken: Secret? { box.withLock { $0.credential?.idToken } }
    /// When the access token expires.
    public var accessTokenExpiresAt: Date? { box.withLock { $0.credential?.expiresAt } }
    /// The token type.
    public var tokenType: String? { box.withLock { $0.credential?.tokenType } }
    /// The nonce the ID token was issued for.
    public var nonce: String? { box.withLock { $0.nonce } }
    /// The `state` of the authorization that produced the tokens (`nil` for a session restored from storage).
    public var state: String? { box.withLock { $0.authorizationState } }

    /// Not exposed: the authorization code is exchanged inside the SDK and spent.
    @available(
        *, unavailable,
        message: "The code is exchanged and spent inside the SDK. For a backend exchange use AuthClient.completeAuthorization(redirect:), which returns the code and its verifier."
    )
    public var code: String? { nil }
    /// Not exposed: the PKCE verifier is a secret of the login in progress.
    @available(
        *, unavailable,
        message:
            "The PKCE verifier is a secret of the login in progress. For a backend exchange use AuthClient.completeAuthorization(redirect:), which returns the code and its verifier."
    )
    public var codeVerifier: String? { nil }

    /// Whether it holds an access token that has not expired at `now` (unknown expiry counts as expired, as the
    /// vendor's `isValidAccessToken`).
    func hasValidAccessToken(at now: Date) -> Bool {
        box.withLock { snapshot in
            guard let credential = snapshot.credential, !credential.accessToken.isEmpty, let expiresAt = credential.expiresAt else { return false }
            return expiresAt > now
        }
    }

    /// Fills it from a signed-in session.
    func fill(from session: Session, authorizationState: String?) async {
        let credential = await session.credential
        let nonce = await session.idTokenClaims?.nonce
        box.withLock { $0 = Snapshot(configuration: $0.configuration, session: session, credential: credential, nonce: nonce, authorizationState: authorizationState) }
    }

    /// Empties it (logout).
    func clear() {
        box.withLock { $0 = Snapshot(configuration: $0.configuration) }
    }
}

extension GrabConfiguration {
    /// `base` with the given settings changed (`nil` arguments keep `base`'s; `.some(nil)` clears an optional one).
    init(
        _ base: GrabConfiguration, redirectUrl: URL? = nil, scope: [String]? = nil, request: String?? = nil,
        acrValues: [String: String]? = nil, hint: String?? = nil, idTokenHint: String?? = nil, prompt: String?? = nil
    ) {
        self.init(
            clientId: base.clientId, redirectUrl: redirectUrl ?? base.redirectUrl, scope: scope ?? base.scope,
            serviceDiscoveryUrl: base.serviceDiscoveryUrl, request: request ?? base.request, acrValues: acrValues ?? base.acrValues,
            hint: hint ?? base.hint, idTokenHint: idTokenHint ?? base.idTokenHint, prompt: prompt ?? base.prompt,
            clientSecret: base.clientSecret)
    }
}
