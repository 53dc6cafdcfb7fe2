public import AuthAppSupport
public import AuthCore
import AuthSchibsted
public import Foundation

/// Simplified login: offer the account already logged in to another app of the vendor, and log in to this app as
/// that account with one tap (the vendor's `SimplifiedLoginManager`).
///
/// The vendor's apps share sessions in the Keychain access group `<appIdentifierPrefix>.com.schibsted.simplifiedLogin`
/// (pass `appIdentifierPrefix` to ``SchibstedAccountClient``). Both kinds of session there are seen: items written
/// by apps still on account-sdk-ios-web (service `com.schibsted.account`, its `UserSession` JSON, 5.x or 6.x) and
/// sessions of apps on this package that share ``SchibstedAccountClient``'s storage. The newest one of this
/// environment is offered. It works the other way too: with an `appIdentifierPrefix`, the client keeps this app's
/// session in that group in the vendor's format, so apps on account-sdk-ios-web offer it.
///
/// Continuing asks the server for a one-time assertion with that session — `POST /api/2/user/auth/token` with its
/// access token — and logs in to this app with `assertion=…&prompt=select_account`, under the one-login-at-a-time
/// rule. The shared session is another app's: it is never refreshed here, as the vendor SDK never refreshes it
/// (a refresh would rotate that app's refresh token under it). When the shared access token has expired (HTTP 401),
/// continuing fails with `http_error` 401 and the app offers a normal login; the other app's item is left untouched.
///
/// The vendor's sheet ("Continue as …") is the app's to draw: ``latestSharedAccount()`` gives what to show.
public struct SimplifiedLoginManager: Sendable {
    /// An account found in the shared storage.
    public struct SharedAccount: Sendable, CustomStringConvertible, CustomReflectable {
        /// The client id of the app whose session this is.
        public let clientId: String
        /// The user's UUID (`sub`).
        public let uuid: String
        /// When that app last stored its tokens.
        public let updatedAt: Date
        /// Whether an app on the vendor SDK wrote it (else an app on this package).
        public let writtenByVendorSDK: Bool
        fileprivate let accessToken: Secret

        /// The account without its tokens: `SharedAccount(uuid, from clientId)`.
        public var description: String {
            "SharedAccount(\(uuid), from \(clientId)\(writtenByVendorSDK ? ", vendor SDK" : ""))"
        }

        /// Only the non-secret fields, so `dump` cannot print the other app's tokens.
        public var customMirror: Mirror {
            Mirror(self, children: ["clientId": clientId, "uuid": uuid, "updatedAt": updatedAt, "writtenByVendorSDK": writtenByVendorSDK], displayStyle: .struct)
        }
    }

    /// What the vendor's sheet shows for a shared account, from the session service's `/user-context-from-token`.
    public struct SharedAccountContext: Sendable, Hashable {
        /// The user identifier.
        public let identifier: String
        /// The user's display name ("Continue as …").
        public let displayText: String
        /// The app the session belongs to (for example "Aftonbladet").
        public let clientName: String
    }

    private let client: SchibstedAccountClient
    private let vendorStore: (any VendorStore)?
    private let sharedStorage: (any TokenStorage)?
    private let requestedEnvironment: SchibstedEnvironment?
    /// The vendor manager's login options (`withMFA`, `state`, `loginHint`, `xDomainId`, `extraScopeValues`, `withSSO`).
    private let withMFA: MFAType?
    private let state: String?
    private let loginHint: String?
    private let xDomainId: UUID?
    private let extraScopeValues: Set<String>
    /// `nil`: continue-as ephemeral (as SDK 6), the other-account login with SSO (the vendor's default).
    private let withSSO: Bool?

    /// Creates a manager with the vendor manager's login options.
    ///
    /// Continuing as a shared account (``continueAs(_:with:)``) sends `state`, `x_domain_id` and `extraScopeValues`,
    /// in an ephemeral browser session unless `withSSO` is `true` (SDK 6 always continues ephemerally:
    /// `SimplifiedLoginViewModel.continueAs` passes `prefersEphemeralWebBrowserSession: true`; SDK 5 used the shared
    /// session). The assertion names the account and goes with
    /// `prompt=select_account`, so it carries no `acr_values` and no `login_hint`: `withMFA` and `loginHint` apply to
    /// ``loginWithAnotherAccount(with:)``, the login the app offers beside "Continue as".
    ///
    /// - Parameters:
    ///   - client: this app's client (its environment decides which sessions qualify).
    ///   - env: the vendor's parameter; must be the client's environment when given.
    ///   - withMFA: the authentication method ``loginWithAnotherAccount(with:)`` requires.
    ///   - state: your own `state` (at least 22 URL-safe characters; the client never accepts one twice, so a
    ///     manager with a `state` logs in once).
    ///   - loginHint: an e-mail or phone number ``loginWithAnotherAccount(with:)`` pre-fills.
    ///   - xDomainId: sent as `x_domain_id`; by default a new UUID for every continue-as login (as SDK 6 does).
    ///   - extraScopeValues: scopes beyond `openid offline_access`.
    ///   - withSSO: `false` asks for an ephemeral browser session, `true` for the shared one; by default continue-as
    ///     is ephemeral (as SDK 6) and the other-account login is not (the vendor's `withSSO: true` default).
    ///   - vendorStore: where apps on the vendor SDK keep their sessions; by default the client's.
    ///   - sharedStorage: the storage apps on this package share; by default the client's own storage, which is
    ///     the shared group's when the client has an `appIdentifierPrefix`.
    public init(
        client: SchibstedAccountClient,
        env: SchibstedEnvironment? = nil,
        withMFA: MFAType? = nil,
        state: String? = nil,
        loginHint: String? = nil,
        xDomainId: UUID? = nil,
        extraScopeValues: Set<String> = [],
        withSSO: Bool? = nil,
        vendorStore: (any VendorStore)? = nil,
        sharedStorage: (any TokenStorage)? = nil
    ) {
        self.client = client
        self.requestedEnvironment = env
        self.withMFA = withMFA
        self.state = state
        self.loginHint = loginHint
        self.xDomainId = xDomainId
        self.extraScopeValues = extraScopeValues
        self.withSSO = withSSO
        self.vendorStore = vendorStore ?? client.vendorStore
        self.sharedStorage = sharedStorage ?? client.authClient.storage
    }

    /// The newest session of this environment in the shared storage, if any.
    ///
    /// Unreadable vendor items are skipped, as the vendor SDK does.
    ///
    /// - Throws: `invalid_configuration` when `env` was not the client's environment.
    public func latestSharedAccount() async throws -> SharedAccount? {
        try checkEnvironment()
        let issuer = client.configuration.issuer
        var candidates: [SharedAccount] = []
        if let vendorStore, let items = try? await vendorStore.genericPasswords(service: SchibstedVendorSession.service),
            let newest = SchibstedVendorSession.newest(in: items, issuer: issuer)
        {
            candidates.append(
                SharedAccount(
                    clientId: newest.clientID, uuid: newest.subject, updatedAt: newest.updatedAt, writtenByVendorSDK: true,
                    accessToken: newest.accessToken
                ))
        }
        if let sharedStorage {
            for key in try await sharedStorage.storedKeys() where key.providerID == SchibstedProvider.id && key.issuer == issuer {
                guard let credential = try? await sharedStorage.credential(for: key)?.validatedForUse(), let subject = credential.subject else { continue }
                candidates.append(
                    SharedAccount(
                        clientId: credential.clientID, uuid: subject, updatedAt: credential.updatedAt, writtenByVendorSDK: false,
                        accessToken: credential.accessToken
                    ))
            }
        }
        let latest = candidates.max { $0.updatedAt < $1.updatedAt }
        if latest != nil { await client.tracker?.track(.simplifiedLoginOffered) }
        return latest
    }

    /// The sheet's content for `account`: `GET /user-context-from-token` on the session service with the shared
    /// access token (never refreshed here, as the vendor does not).
    ///
    /// - Throws: `http_error` (for example 401 once the shared token has expired), `invalid_response`.
    public func context(for account: SharedAccount) async throws -> SharedAccountContext {
        try checkEnvironment()
        var request = HTTPRequest(method: .get, url: client.configuration.environment.sessionServiceEndpoint("/user-context-from-token"))
        request.setSchibstedUserAgent()
        request.headerFields.set("Bearer \(account.accessToken.reveal())", forName: "Authorization")
        request.headerFields.set("application/json", forName: "Accept")
        let (data, response) = try await client.authClient.transport.send(request)
        guard response.status.code == 200 else {
            throw AuthError(.httpError, "GET /user-context-from-token answered HTTP \(response.status.code).", providerID: SchibstedProvider.id, httpStatus: response.status.code)
        }
        guard let object = try? JSONValue.parseObject(data), let identifier = object["identifier"]?.stringValue,
            let displayText = object["display_text"]?.stringValue, let clientName = object["client_name"]?.stringValue
        else {
            throw AuthError(.invalidResponse, "The /user-context-from-token response lacks identifier, display_text or client_name.", providerID: SchibstedProvider.id)
        }
        return SharedAccountContext(identifier: identifier, displayText: displayText, clientName: clientName)
    }

    /// Offers nothing when there is no shared account; otherwise logs in as the newest one at once.
    ///
    /// Not the vendor's `requestSimplifiedLogin(window:)`, which only presents the sheet and lets the user choose:
    /// this one does not ask. Call it only once the user has chosen "Continue as" in your own sheet, drawn from
    /// ``latestSharedAccount()`` and ``context(for:)`` — or call ``continueAs(_:with:)`` with the account you showed.
    public func requestSimplifiedLogin(with userAgent: any UserAgent) async throws -> SchibstedUser? {
        guard let account = try await latestSharedAccount() else { return nil }
        return try await continueAs(account, with: userAgent)
    }

    /// Logs in to this app as `account`: a one-time assertion for it, then a login with `assertion` and
    /// `prompt=select_account`, and the manager's `state`, `x_domain_id` (a new UUID unless one was given),
    /// `extraScopeValues`, in an ephemeral browser session unless the manager was made with `withSSO: true`.
    ///
    /// - Throws: `sign_in_in_progress` while another login is pending; `http_error` 401 when the shared session has
    ///   expired (log in normally: it is never refreshed here, as the vendor's is not); `http_error` /
    ///   `invalid_response` from the assertion endpoint.
    public func continueAs(_ account: SharedAccount, with userAgent: any UserAgent) async throws -> SchibstedUser {
        try checkEnvironment()
        let assertion = try await assertion(for: account)
        await client.tracker?.track(.simplifiedLoginContinued)
        let request = try await client.startLogin(
            mfa: nil, state: state, loginHint: nil, xDomainId: xDomainId ?? UUID(), extraScopeValues: extraScopeValues,
            withSSO: withSSO ?? false, assertion: assertion
        )
        return try await client.finishLogin(request, with: userAgent)
    }

    /// The login the app offers beside "Continue as" (the vendor sheet's other way in): a normal login with all of
    /// the manager's options, `withMFA` and `loginHint` included.
    ///
    /// - Throws: as ``SchibstedAccountClient/login(with:withMFA:state:loginHint:xDomainId:extraScopeValues:withSSO:)``;
    ///   `invalid_configuration` when `env` was not the client's environment.
    public func loginWithAnotherAccount(with userAgent: any UserAgent) async throws -> SchibstedUser {
        try checkEnvironment()
        return try await client.login(
            with: userAgent, withMFA: withMFA, state: state, loginHint: loginHint, xDomainId: xDomainId,
            extraScopeValues: extraScopeValues, withSSO: withSSO ?? true
        )
    }

    private func checkEnvironment() throws {
        if let requestedEnvironment, requestedEnvironment != client.configuration.environment {
            throw AuthError(
                .invalidConfiguration,
                "SimplifiedLoginManager was given env \(requestedEnvironment) but the client is configured for \(client.configuration.environment); pass clientConfiguration.env or leave env out.",
                providerID: SchibstedProvider.id
            )
        }
    }

    /// `POST /api/2/user/auth/token` with the shared access token → `data.assertion`. Never a refresh: the vendor
    /// SDK asks with a plain URL session because "we do not want to attempt a token refresh with a refresh token
    /// from another app" (`SchibstedAuthenticator.assertionForSimplifiedLogin`, 6.x), so a 401 ends it.
    func assertion(for account: SharedAccount) async throws -> Secret {
        let (status, data) = try await requestAssertion(accessToken: account.accessToken)
        if status == 401 {
            throw AuthError(.httpError, "The shared session has expired; log in normally.", providerID: SchibstedProvider.id, httpStatus: 401)
        }
        return try Self.parseAssertion(status: status, data: data)
    }

    private func requestAssertion(accessToken: Secret) async throws -> (Int, Data) {
        var request = HTTPRequest(method: .post, url: client.configuration.environment.endpoint("/api/2/user/auth/token"))
        request.setSchibstedUserAgent()
        request.headerFields.set("Bearer \(accessToken.reveal())", forName: "Authorization")
        request.headerFields.set("application/x-www-form-urlencoded", forName: "Content-Type")
        request.headerFields.set("application/json", forName: "Accept")
        let (data, response) = try await client.authClient.transport.send(request)
        return (response.status.code, data)
    }

    private static func parseAssertion(status: Int, data: Data) throws -> Secret {
        guard (200..<300).contains(status) else {
            throw AuthError(
                .httpError, "The shared session could not be used for simplified login (HTTP \(status)); log in normally.", providerID: SchibstedProvider.id, httpStatus: status)
        }
        guard let assertion = (try? JSONValue.parseObject(data))?["data"]?["assertion"]?.stringValue, !assertion.isEmpty else {
            throw AuthError(.invalidResponse, "The simplified-login response has no data.assertion.", providerID: SchibstedProvider.id)
        }
        return Secret(assertion)
    }
}
