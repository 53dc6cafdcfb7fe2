public import AuthCore
public import AuthAppSupport
import AuthSchibsted
public import Foundation

/// Simplified login: offer the account already logged in to another app of the vendor, and log in to this app as
/// that account with one tap (the vendor's `SimplifiedLoginManager`).
///
/// The vendor's apps share sessions in the Keychain access group `<appIdentifierPrefix>.com.schibsted.simplifiedLogin`
/// (pass `appIdentifierPrefix` to ``SchibstedAccountClient``). Both kinds of session there are seen: items written
/// by apps still on account-sdk-ios-web (service `com.schibsted.account`, its `UserSession` JSON, 5.x or 6.x) and
/// sessions of apps on this package that share ``SchibstedAccountClient``'s storage. The newest one of this
/// environment is offered.
///
/// Continuing asks the server for a one-time assertion with that session — `POST /api/2/user/auth/token` with its
/// access token — and logs in to this app with `assertion=…&prompt=select_account`, under the one-login-at-a-time
/// rule. When the shared access token has expired (HTTP 401), it is refreshed first *for the app that owns it* (its
/// client id) and the rotated tokens are written back where they were read, in the same format, so that app stays
/// logged in; the vendor SDK does not refresh and simply fails there.
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
        fileprivate let refreshToken: Secret?
        fileprivate let vendorSession: SchibstedVendorSession?
        fileprivate let credential: Credential?

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

    /// Creates a manager.
    ///
    /// - Parameters:
    ///   - client: this app's client (its environment decides which sessions qualify).
    ///   - env: the vendor's parameter; must be the client's environment when given.
    ///   - vendorStore: where apps on the vendor SDK keep their sessions; by default the client's.
    ///   - sharedStorage: the storage apps on this package share; by default the client's own storage, which is
    ///     the shared group's when the client has an `appIdentifierPrefix`.
    public init(
        client: SchibstedAccountClient,
        env: SchibstedEnvironment? = nil,
        vendorStore: (any VendorStore)? = nil,
        sharedStorage: (any TokenStorage)? = nil
    ) {
        self.client = client
        self.requestedEnvironment = env
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
           let newest = SchibstedVendorSession.newest(in: items, issuer: issuer) {
            candidates.append(SharedAccount(
                clientId: newest.clientID, uuid: newest.subject, updatedAt: newest.updatedAt, writtenByVendorSDK: true,
                accessToken: newest.accessToken, refreshToken: newest.refreshToken, vendorSession: newest, credential: nil
            ))
        }
        if let sharedStorage {
            for key in try await sharedStorage.storedKeys() where key.providerID == SchibstedProvider.id && key.issuer == issuer {
                guard let credential = try? await sharedStorage.credential(for: key)?.validatedForUse(), let subject = credential.subject else { continue }
                candidates.append(SharedAccount(
                    clientId: credential.clientID, uuid: subject, updatedAt: credential.updatedAt, writtenByVendorSDK: false,
                    accessToken: credential.accessToken, refreshToken: credential.refreshToken, vendorSession: nil, credential: credential
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

    /// Offers nothing when there is no shared account; otherwise continues as the newest one (the vendor's
    /// `requestSimplifiedLogin`, without its sheet).
    public func requestSimplifiedLogin(with userAgent: any UserAgent) async throws -> SchibstedUser? {
        guard let account = try await latestSharedAccount() else { return nil }
        return try await continueAs(account, with: userAgent)
    }

    /// Logs in to this app as `account`: a one-time assertion for it, then a login with `assertion` and
    /// `prompt=select_account`.
    ///
    /// - Throws: `sign_in_in_progress` while another login is pending; `invalid_grant` when the shared session can
    ///   no longer be refreshed (log in normally); `http_error` / `invalid_response` from the assertion endpoint.
    public func continueAs(_ account: SharedAccount, with userAgent: any UserAgent) async throws -> SchibstedUser {
        try checkEnvironment()
        let assertion = try await assertion(for: account)
        await client.tracker?.track(.simplifiedLoginContinued)
        let request = try await client.startLogin(
            mfa: nil, state: nil, loginHint: nil, xDomainId: nil, extraScopeValues: [], withSSO: true, assertion: assertion
        )
        return try await client.finishLogin(request, with: userAgent)
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

    /// `POST /api/2/user/auth/token` with the shared access token → `data.assertion`; on a 401, one refresh for the
    /// owning app and one retry.
    func assertion(for account: SharedAccount) async throws -> Secret {
        let (status, data) = try await requestAssertion(accessToken: account.accessToken)
        if status == 401, let refreshToken = account.refreshToken {
            let refreshed = try await refreshForOwner(account, refreshToken: refreshToken)
            let (retryStatus, retryData) = try await requestAssertion(accessToken: refreshed)
            return try Self.parseAssertion(status: retryStatus, data: retryData)
        }
        return try Self.parseAssertion(status: status, data: data)
    }

    private func requestAssertion(accessToken: Secret) async throws -> (Int, Data) {
        var request = HTTPRequest(method: .post, url: client.configuration.environment.endpoint("/api/2/user/auth/token"))
        request.headerFields.set("Bearer \(accessToken.reveal())", forName: "Authorization")
        request.headerFields.set("application/x-www-form-urlencoded", forName: "Content-Type")
        request.headerFields.set("application/json", forName: "Accept")
        let (data, response) = try await client.authClient.transport.send(request)
        return (response.status.code, data)
    }

    private static func parseAssertion(status: Int, data: Data) throws -> Secret {
        guard (200..<300).contains(status) else {
            throw AuthError(.httpError, "The shared session could not be used for simplified login (HTTP \(status)); log in normally.", providerID: SchibstedProvider.id, httpStatus: status)
        }
        guard let assertion = (try? JSONValue.parseObject(data))?["data"]?["assertion"]?.stringValue, !assertion.isEmpty else {
            throw AuthError(.invalidResponse, "The simplified-login response has no data.assertion.", providerID: SchibstedProvider.id)
        }
        return Secret(assertion)
    }

    /// Refreshes the shared tokens with the owning app's client id (a refresh token only works for the client it was
    /// issued to) and writes them back where they came from, so the owner keeps its session.
    private func refreshForOwner(_ account: SharedAccount, refreshToken: Secret) async throws -> Secret {
        let authClient = client.authClient
        var request = HTTPRequest(method: .post, url: client.configuration.environment.endpoint("/oauth/token"))
        request.headerFields.set("application/x-www-form-urlencoded", forName: "Content-Type")
        request.headerFields.set("application/json", forName: "Accept")
        request.headerFields.set("v1", forName: "X-OIDC")
        let body = Data(FormEncoding.encode([
            ("grant_type", "refresh_token"), ("refresh_token", refreshToken.reveal()), ("client_id", account.clientId),
        ]).utf8)
        let (data, response) = try await authClient.transport.send(request, body: body)
        guard response.status.code == 200 else {
            let oauthError = (try? JSONValue.parseObject(data))?["error"]?.stringValue
            throw AuthError(
                oauthError == "invalid_grant" ? .invalidGrant : .tokenRequestFailed,
                "The shared session has expired and could not be refreshed (HTTP \(response.status.code)); log in normally.",
                providerID: SchibstedProvider.id, oauthError: oauthError, httpStatus: response.status.code
            )
        }
        let tokens = try TokenResponse(json: data, tokenTypeWhenAbsent: "Bearer")
        let now = authClient.clock.now()
        let expiresAt = tokens.expiresIn.map { now.addingTimeInterval($0) }
        if let vendorSession = account.vendorSession, let vendorStore {
            let updated = try vendorSession.updated(accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, expiresAt: expiresAt, now: now)
            _ = try await vendorStore.replaceGenericPassword(updated, service: SchibstedVendorSession.service, account: account.clientId)
        } else if var credential = account.credential, let sharedStorage {
            credential.accessToken = tokens.accessToken
            credential.refreshToken = tokens.refreshToken ?? credential.refreshToken
            credential.expiresAt = expiresAt
            credential.updatedAt = now
            try await sharedStorage.store(credential, for: credential.storageKey)
        }
        return tokens.accessToken
    }
}
