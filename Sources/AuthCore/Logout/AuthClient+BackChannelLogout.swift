import Foundation

/// What a verified back-channel logout ended.
public struct BackChannelLogoutResult: Sendable, Equatable {
    /// The logout token's `sub`, when it named the user.
    public let subject: String?
    /// The logout token's `sid`, when it named the provider's session.
    public let sessionID: String?
    /// The stored accounts that were signed out (none when the user had no session here: not an error).
    public let endedAccounts: [StorageKey]
}

extension AuthClient {
    /// The `events` member that makes a JWT a logout token (OpenID Connect Back-Channel Logout 1.0 §2.4).
    package static let backChannelLogoutEvent = "http://schemas.openid.net/event/backchannel-logout"

    /// Verifies a logout token the provider POSTed to the app's back-channel logout endpoint and ends the matching
    /// stored sessions (OpenID Connect Back-Channel Logout 1.0 §2.6).
    ///
    /// Checks, in order: the JWS and its pinned algorithm; the signature with a key from the provider's `jwks_uri`;
    /// `iss` (the provider's issuer policy), `aud` (this client), `iat` (not in the future, not older than the ID
    /// token policy allows), `exp` when present; the back-channel logout member of `events`; `sub` and/or `sid`;
    /// no `nonce` (which would make it an ID token); a `jti` not seen before by this client. Matching stored
    /// credentials — by subject, and by the `sid` of their ID token when the token names one — are removed and
    /// ``AuthEvent/SignOutReason/backChannelLogout`` is published for each; a live ``Session`` of such an account
    /// finds nothing to refresh from.
    ///
    /// Answer the provider with HTTP 200 on success and 400 on any thrown error (§2.8).
    ///
    /// - Throws: `invalid_logout_token` naming the failed rule; `unsupported_algorithm`, `invalid_signature`,
    ///   `unknown_key_id` from the signature check.
    public func handleBackChannelLogout(_ logoutToken: String) async throws -> BackChannelLogoutResult {
        try await instrumented(.backChannelLogout) { try await self.handleBackChannelLogoutOperation(logoutToken) }
    }

    private func handleBackChannelLogoutOperation(_ logoutToken: String) async throws -> BackChannelLogoutResult {
        let verified = try await verifyLogoutToken(logoutToken)
        do {
            let ended: [StorageKey]
            do {
                ended = try await endSessions(subject: verified.subject, sessionID: verified.sessionID, issuer: verified.issuer)
            } catch {
                // The token was good and nothing may have ended: the provider's retry of it must be accepted.
                await forgetLogoutToken(verified)
                throw error
            }
            log(.info, "logout.backchannel", "Back-channel logout ended \(ended.count) stored session(s).")
            return BackChannelLogoutResult(subject: verified.subject, sessionID: verified.sessionID, endedAccounts: ended)
        } catch let error as AuthError {
            throw error.attributed(to: provider.id)
        }
    }

    /// Verifies a logout token as ``handleBackChannelLogout(_:)`` does — every rule of §2.6, its `jti` recorded as
    /// used — and ends nothing: for a caller that finds the sessions the token names itself, by an index (the web
    /// sign-in core), instead of reading every stored credential. If the caller cannot end them, it calls
    /// ``forgetLogoutToken(_:)`` so that the provider's retry is not taken for a replay.
    package func verifyLogoutToken(_ logoutToken: String) async throws -> VerifiedLogoutToken {
        do {
            let metadata = try await metadata()
            let policy = provider.idTokenPolicy
            let validator = IDTokenValidator(issuer: metadata.issuer, clientID: provider.client.clientID, policy: policy)
            let (jws, algorithm) = try validator.parse(logoutToken)
            let key = try await idTokenVerifier.providerKey(for: jws, algorithm: algorithm, metadata: metadata, now: clock.now(), tokenKind: "logout tokens")
            let claims = try jws.verifiedClaims(with: key, algorithm: algorithm, tokenKind: "logout token", malformed: .invalidLogoutToken)
            let (subject, sessionID) = try await checkLogoutClaims(claims, metadata: metadata, policy: policy)
            return VerifiedLogoutToken(subject: subject, sessionID: sessionID, tokenID: claims["jti"]?.stringValue ?? "", issuer: metadata.issuer)
        } catch let error as AuthError {
            let attributed = error.attributed(to: provider.id)
            log(.notice, "logout.backchannel.refused", attributed.message, ["code": attributed.code.rawValue])
            throw attributed
        }
    }

    /// Forgets that `token` was used, so that the provider's retry of a logout that could not be carried out is accepted.
    package func forgetLogoutToken(_ token: VerifiedLogoutToken) async {
        await logoutTokenIDs.forget(token.tokenID)
    }

    /// The claim rules of §2.6 steps 3–8; returns (`sub`, `sid`).
    private func checkLogoutClaims(
        _ claims: [String: JSONValue],
        metadata: ProviderMetadata,
        policy: IDTokenPolicy
    ) async throws -> (String?, String?) {
        func refuse(_ reason: String) -> AuthError { AuthError(.invalidLogoutToken, "The logout token \(reason).") }
        try checkSignedEventClaims(claims, metadata: metadata, policy: policy, refuse: refuse)
        let now = clock.now()
        guard let events = claims["events"]?.objectValue, events[Self.backChannelLogoutEvent]?.objectValue != nil else {
            throw refuse("has no back-channel logout event in 'events'")
        }
        let subject = claims["sub"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        let sessionID = claims["sid"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        guard subject != nil || sessionID != nil else { throw refuse("names neither 'sub' nor 'sid'") }
        guard claims["nonce"] == nil else { throw refuse("carries a 'nonce', which only ID tokens may") }
        guard let jti = claims["jti"]?.stringValue, !jti.isEmpty else { throw refuse("has no 'jti'") }
        guard await logoutTokenIDs.insert(jti, now: now, keepFor: policy.maximumIssuedAtAge + 2 * policy.clockSkew) else {
            throw refuse("was already used ('jti' replayed)")
        }
        return (subject, sessionID)
    }

    /// Removes this client's stored credentials for `subject` (and, when given, the provider session `sessionID`).
    private func endSessions(subject: String?, sessionID: String?, issuer: String) async throws -> [StorageKey] {
        var ended: [StorageKey] = []
        for key in try await storage.storedKeys()
        where key.providerID == provider.id && key.issuer == issuer && key.clientID == provider.client.clientID {
            // Matched by the subject the credential holds, never by its key's account: an account name (a web
            // session's, or one an app chose) may equal another user's subject.
            // A storage that cannot answer fails the logout (the provider may retry); an unreadable credential is not
            // this user's to end.
            var stored: Credential?
            if subject != nil || sessionID != nil {
                do {
                    stored = try await storage.credential(for: key)
                } catch let error as AuthError where error.code == .storageCorrupted {
                    continue
                }
            }
            if let subject, stored?.subject != subject { continue }
            if let sessionID {
                let storedSessionID = stored?.idToken.flatMap { try? CompactJWS(parsing: $0.reveal()) }
                    .flatMap { try? JSONValue.parseObject($0.payload) }?["sid"]?.stringValue
                guard storedSessionID == sessionID else { continue }
            }
            try await storage.withExclusiveAccess(to: key) { try await self.storage.removeCredential(for: key) }
            await eventHub.publish(AuthEvent(.signedOut(.backChannelLogout), account: key))
            ended.append(key)
        }
        return ended
    }
}

/// A logout token that passed every rule of OpenID Connect Back-Channel Logout 1.0 §2.6: what it names.
package struct VerifiedLogoutToken: Sendable, Equatable {
    /// `sub`, when it named the user.
    package let subject: String?
    /// `sid`, when it named the provider's session.
    package let sessionID: String?
    /// `jti`, recorded as used.
    package let tokenID: String
    /// The provider's issuer.
    package let issuer: String
}

/// The `jti`s of accepted logout tokens, kept as long as a token with that `jti` could still be accepted.
actor SeenTokenIDs {
    private var expiries: [String: Date] = [:]

    /// Records `id`; `false` when it was already recorded and has not expired.
    func insert(_ id: String, now: Date, keepFor lifetime: TimeInterval) -> Bool {
        expiries = expiries.filter { $0.value > now }
        guard expiries[id] == nil else { return false }
        expiries[id] = now.addingTimeInterval(lifetime)
        return true
    }

    /// Forgets `id` (its logout could not be carried out, so a retry must not look like a replay).
    func forget(_ id: String) {
        expiries[id] = nil
    }
}
