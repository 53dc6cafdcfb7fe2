public import Foundation
public import HTTPTypes

/// A signed-in user of one provider.
///
/// ``validAccessToken()`` refreshes ahead of expiry **single-flight**: however many tasks ask at once, one
/// refresh request is sent, the rotated refresh token is stored, and only then do the callers resume.
/// ``send(_:body:)`` adds the bearer token and, on a 401, refreshes once (shared with concurrent 401s) and retries once.
/// A refresh rejected with `invalid_grant`, or whose new ID token the provider's identity rule refuses, signs the
/// account out and emits ``AuthEvent/Kind/signedOut(_:)``; a transient failure keeps the tokens, and so does a new
/// ID token that names another user or issuer (`subject_mismatch`: the answer is refused, the session kept).
public actor Session {
    /// The client this session belongs to.
    public nonisolated let client: AuthClient
    /// The current credential (updated by refreshes).
    public private(set) var credential: Credential
    /// The claims of the latest validated ID token.
    public private(set) var idTokenClaims: IDTokenClaims?
    /// Whether the session is still signed in (false after ``signOut(revokingTokens:)`` or a rejected refresh).
    public private(set) var isSignedIn = true
    /// The storage key of this account.
    public nonisolated let storageKey: StorageKey

    /// The refresh in flight, shared by concurrent callers (one key: this session's account).
    private let refreshes = SingleFlight<StorageKey, Credential>()

    init(client: AuthClient, credential: Credential, idTokenClaims: IDTokenClaims?) {
        self.client = client
        self.credential = credential
        self.idTokenClaims = idTokenClaims
        self.storageKey = credential.storageKey
    }

    /// The provider's id.
    public nonisolated var providerID: ProviderID { storageKey.providerID }

    /// The user's subject, when the provider identified them with an ID token.
    public var subject: String? { credential.subject }

    /// Events for this account only. Each call returns a new stream.
    public nonisolated func events() async -> AsyncStream<AuthEvent> {
        let account = storageKey
        return await client.eventHub.subscribe { $0.account == account }
    }

    // MARK: Tokens

    /// An access token valid for at least the client's refresh margin, refreshing first when needed.
    ///
    /// Without a refresh token (GOV.UK One Login for services, Uber without `offline_access`) there is nothing to
    /// refresh ahead with, so the token is used until it expires: the session lasts exactly as long as its access
    /// token (three minutes at GOV.UK), then this throws `not_signed_in`.
    ///
    /// - Throws: `not_signed_in` after sign-out, or once a token without a refresh token expired; `invalid_grant` when
    ///   the refresh token was rejected (the session is then signed out); a retryable error (`network_error`,
    ///   `server_error`) when the refresh could not be done — the tokens are kept.
    public func validAccessToken() async throws -> Secret {
        try requireSignedIn()
        let margin = credential.refreshToken == nil ? 0 : client.options.refreshMargin
        if !credential.isExpired(at: client.clock.now(), margin: margin) {
            return credential.accessToken
        }
        return try await refresh().accessToken
    }

    /// Keeps `value` under `key` in ``Credential/annotations`` and writes the credential to storage, so it survives a
    /// relaunch; `nil` removes it. For small, non-secret, provider-specific facts about the current tokens.
    ///
    /// - Throws: `not_signed_in` after sign-out; a storage error (the in-memory value is then unchanged).
    public func setAnnotation(_ value: String?, forKey key: String) async throws {
        try requireSignedIn()
        var updated = credential
        var annotations = updated.annotations ?? [:]
        annotations[key] = value
        updated.annotations = annotations.isEmpty ? nil : annotations
        try await client.store(updated)
        credential = updated
    }

    /// Refreshes now, sharing one request among concurrent callers.
    @discardableResult
    public func refresh() async throws -> Credential {
        try requireSignedIn()
        let current = credential
        return try await refreshes.run(storageKey) { [self] in try await refreshOnce(current) }
    }

    /// The refresh ``refresh()`` shares: redeems `current`'s refresh token, keeps the result and announces it.
    private func refreshOnce(_ current: Credential) async throws -> Credential {
        do {
            let (updated, claims) = try await client.refresh(current)
            credential = updated
            if let claims { idTokenClaims = claims }
            await client.eventHub.publish(AuthEvent(.refreshed, account: storageKey))
            return updated
        } catch let error as AuthError {
            if let reason = error.signOutReason {
                // client.refresh already removed the stored credential.
                isSignedIn = false
                await client.eventHub.publish(AuthEvent(.signedOut(reason), account: storageKey))
            } else {
                await client.eventHub.publish(AuthEvent(.refreshFailed(error.code), account: storageKey))
            }
            throw error
        }
    }

    /// The current access token after a request with `rejected` failed with 401: refreshes unless another
    /// caller already replaced that token, so a burst of 401s costs one refresh.
    private func accessToken(replacing rejected: Secret) async throws -> Secret {
        try requireSignedIn()
        if credential.accessToken != rejected { return credential.accessToken }
        return try await refresh().accessToken
    }

    private func requireSignedIn() throws {
        guard isSignedIn else {
            throw AuthError(.notSignedIn, "The session is signed out; sign in again.", providerID: providerID)
        }
    }

    // MARK: Authorized requests

    /// Sends `request` with `Authorization: Bearer <access token>` — or, for a DPoP-bound token, `Authorization: DPoP
    /// <access token>` and a fresh `DPoP` proof of this method and URL (RFC 9449 §7), retried once with the server's
    /// nonce when it asks for one; on 401 refreshes once and retries once.
    ///
    /// A `401` with an RFC 9470 `insufficient_user_authentication` challenge is not retried (a refreshed token carries
    /// the same authentication): it throws `step_up_required` with what the resource asked in ``AuthError/stepUp``;
    /// ``send(_:body:steppingUpWith:redirectURI:)`` meets it.
    ///
    /// - Returns: the response as received (including a second 401, which is not retried again).
    /// - Throws: refresh errors (see ``validAccessToken()``), `network_error` when the request cannot be sent,
    ///   `step_up_required` for a step-up challenge, `invalid_step_up_challenge` for one that cannot be read.
    ///
    /// ```swift
    /// let (data, response) = try await session.send(HTTPRequest(method: .get, url: apiURL))
    /// ```
    public func send(_ request: HTTPRequest, body: Data? = nil) async throws -> (Data, HTTPResponse) {
        switch try await sendOrChallenge(request, body: body) {
        case .answered(let data, let response): return (data, response)
        case .challenged(let requirement, _): throw requirement.error(providerID: providerID)
        }
    }

    /// What one authorized request came to: an answer, or a step-up challenge (with the step-up count when it was sent).
    enum Outcome {
        case answered(Data, HTTPResponse)
        case challenged(StepUpRequirement, stepUpsBefore: Int)
    }

    /// Sends `request` as ``send(_:body:)`` does, returning a step-up challenge instead of throwing it.
    func sendOrChallenge(_ request: HTTPRequest, body: Data?) async throws -> Outcome {
        let token = try await validAccessToken()
        let stepUpsBefore = stepUps
        // A refresh keeps the key, so the one read here also proves possession for a refreshed token.
        let dpopKey = credential.dpopKey
        let first = try await send(request, body: body, token: token, dpopKey: dpopKey)
        guard first.1.status == .unauthorized else { return .answered(first.0, first.1) }
        if let requirement = try challenge(in: first.1) { return .challenged(requirement, stepUpsBefore: stepUpsBefore) }
        client.log(.debug, "request.unauthorized", "A request was answered 401; refreshing once.")
        let fresh = try await accessToken(replacing: token)
        let second = try await send(request, body: body, token: fresh, dpopKey: dpopKey)
        if let requirement = try challenge(in: second.1) { return .challenged(requirement, stepUpsBefore: stepUpsBefore) }
        return .answered(second.0, second.1)
    }

    /// The step-up requirement of `response`, logged (its code, never a header value).
    private func challenge(in response: HTTPResponse) throws -> StepUpRequirement? {
        do {
            guard let requirement = try StepUpRequirement.required(by: response) else { return nil }
            client.log(.info, "request.step_up_required", "A resource asked the user to authenticate again (RFC 9470).")
            return requirement
        } catch let error as AuthError {
            client.log(.warning, "request.invalid_step_up_challenge", "A resource's step-up challenge cannot be read.", ["code": error.code.rawValue])
            throw error.attributed(to: providerID)
        }
    }

    /// How many step-up sign-ins this session has completed (``send(_:body:steppingUpWith:redirectURI:)``): a request challenged
    /// after another caller's step-up retries with its tokens rather than starting a second one.
    var stepUps = 0
    /// The step-up sign-in in flight, joined by concurrent callers.
    var stepUpInFlight: Task<StepUpResult, any Error>?

    /// What a step-up sign-in gave: its credential (already stored, under this session's key) and its ID token's claims.
    struct StepUpResult: Sendable {
        let credential: Credential
        let claims: IDTokenClaims?
    }

    /// Takes the tokens and claims of a completed step-up sign-in, once (every caller that waited for it calls this).
    func adoptStepUp(_ stepped: StepUpResult) {
        guard credential.accessToken != stepped.credential.accessToken else { return }
        credential = stepped.credential
        idTokenClaims = stepped.claims
        isSignedIn = true
        stepUps += 1
    }

    private nonisolated func send(_ request: HTTPRequest, body: Data?, token: Secret, dpopKey: DPoPKey?) async throws -> (Data, HTTPResponse) {
        let client = client
        do {
            return try await client.sendAuthorized(request, body: body, accessToken: token, dpopKey: dpopKey) {
                try await client.transport.send($0, body: $1)
            }
        } catch let error as AuthError {
            throw error.attributed(to: providerID)
        } catch {
            throw AuthError(
                .network,
                "The request to \(request.url?.host ?? "the server") failed; check the network connection.",
                providerID: providerID,
                underlying: error
            )
        }
    }

    // MARK: User info and introspection

    /// The user's claims from the user info endpoint; `sub` must equal the ID token's. A 401 refreshes once.
    ///
    /// - Throws: `subject_mismatch` when the user info names another user; `endpoint_unavailable`.
    public func userInfo() async throws -> UserInfoClaims {
        let token = try await validAccessToken()
        if let (info, _) = try await userInfoIfAuthorized(token) { return info }
        let fresh = try await accessToken(replacing: token)
        guard let (info, _) = try await userInfoIfAuthorized(fresh) else {
            throw AuthError(.httpError, "The user info endpoint rejected a freshly refreshed token (HTTP 401).", providerID: providerID, httpStatus: 401)
        }
        return info
    }

    private func userInfoIfAuthorized(_ token: Secret) async throws -> (UserInfoClaims, Int)? {
        let (info, status) = try await client.userInfo(accessToken: token, dpopKey: credential.dpopKey, subject: credential.subject)
        return info.map { ($0, status) }
    }

    /// Introspects the current access token (or refresh token) at the provider (RFC 7662).
    public func introspect(_ hint: TokenTypeHint = .accessToken) async throws -> IntrospectionResult {
        try requireSignedIn()
        let token = hint == .refreshToken ? credential.refreshToken : credential.accessToken
        guard let token else {
            throw AuthError(.notSignedIn, "The session has no refresh token to introspect.", providerID: providerID)
        }
        return try await client.introspect(token, hint: hint)
    }

    // MARK: Sign-out

    /// What ``signOut(revokingTokens:)`` managed to do at the provider.
    public struct SignOutReport: Sendable {
        /// Whether the refresh token was revoked.
        public var revokedRefreshToken = false
        /// Whether the access token was revoked.
        public var revokedAccessToken = false
        /// The first revocation error, if any (local sign-out happened regardless).
        public var revocationError: AuthError?
    }

    /// Signs out: removes the stored credential first, then (when asked and the provider has a revocation
    /// endpoint) revokes the refresh token and then the access token (RFC 7009); a provider that revokes with its own
    /// API (GitHub's `DELETE /applications/{client_id}/grant`) is asked to revoke the grant instead.
    ///
    /// Sign-out wins over a refresh that is already running: no new refresh can start, the running one is allowed
    /// to finish, and only then is the credential removed — inside the storage's exclusive section, so a refresh in
    /// another process cannot write after it either. After this returns nothing is in storage (a later
    /// ``AuthClient/restoreSession(account:)`` finds nothing), and the newest stored tokens — including those a
    /// concurrent refresh obtained — are the ones revoked. Local data is cleared even when revocation fails; the
    /// report says what happened at the provider.
    ///
    /// - Throws: only when the stored credential cannot be removed (the session then stays signed in).
    @discardableResult
    public func signOut(revokingTokens: Bool = true) async throws -> SignOutReport {
        let wasSignedIn = isSignedIn
        isSignedIn = false
        // A refresh in flight stores its result when its response arrives; waiting for it here means that store
        // happens before the removal below, never after it.
        if let running = refreshes.running(storageKey) { _ = try? await running.value }
        // Inside the account's exclusive section, so a refresh in another process cannot write after the removal;
        // what was stored last (perhaps newer than what this session saw) is what gets revoked below.
        let storage = client.storage
        let key = storageKey
        let newest: Credential?
        do {
            newest = try await storage.withExclusiveAccess(to: key) {
                let stored = try? await storage.credential(for: key)
                try await storage.removeCredential(for: key)
                return stored
            }
        } catch {
            isSignedIn = wasSignedIn
            throw error
        }
        if let newest, newest.storageKey == key { credential = newest }
        if wasSignedIn {
            await client.eventHub.publish(AuthEvent(.signedOut(.requested), account: storageKey))
        }
        client.log(.info, "signout.completed", "Signed out locally.")
        var report = SignOutReport()
        guard revokingTokens, wasSignedIn else { return report }
        // A provider that revokes with its own API (GitHub's grant deletion) is asked instead of RFC 7009; its failure
        // is reported and logged (its code only, no token), and the local sign-out above stands.
        do {
            if let revoked = try await client.revokeGrantIfProviderDoes(credential) {
                report.revokedAccessToken = revoked
                report.revokedRefreshToken = revoked && credential.refreshToken != nil
                return report
            }
        } catch let error as AuthError {
            report.revocationError = error
            client.log(.warning, "signout.revocation_failed", "Signed out locally; the provider did not revoke the grant.", ["code": error.code.rawValue])
            return report
        } catch {
            client.log(.warning, "signout.revocation_failed", "Signed out locally; the grant revocation did not finish.")
            return report
        }
        guard (try? await client.metadata().revocationEndpoint) != nil else { return report }
        // The refresh token first: revoking it ends the grant, so a stolen access token is the smaller loss.
        if let refreshToken = credential.refreshToken {
            do {
                try await client.revoke(refreshToken, hint: .refreshToken)
                report.revokedRefreshToken = true
            } catch let error as AuthError {
                report.revocationError = error
            }
        }
        do {
            try await client.revoke(credential.accessToken, hint: .accessToken)
            report.revokedAccessToken = true
        } catch let error as AuthError {
            report.revocationError = report.revocationError ?? error
        }
        return report
    }

    /// The RP-initiated logout URL to open in the browser, ending the provider's web session too.
    ///
    /// - Parameters:
    ///   - postLogoutRedirectURI: where the provider sends the browser afterwards (must be registered).
    ///   - state: echoed back to the post-logout redirect.
    ///   - includingIDTokenHint: `false` leaves the raw ID token out (for a URL shown to a person).
    public func endSessionURL(postLogoutRedirectURI: URL? = nil, state: String? = nil, includingIDTokenHint: Bool = true) async throws -> URL {
        try await client.endSessionURL(
            for: credential, postLogoutRedirectURI: postLogoutRedirectURI, state: state, includingIDTokenHint: includingIDTokenHint
        )
    }
}
