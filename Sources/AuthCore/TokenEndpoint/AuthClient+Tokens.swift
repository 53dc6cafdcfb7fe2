package import Foundation

extension AuthClient {
    /// The client's credentials for a server-to-server call a provider makes itself (a pushed authorization request,
    /// a vendor endpoint): form parameters and headers from the same mechanism the engine's token endpoint uses for
    /// token, device authorization, revocation and introspection requests, so `private_key_jwt` or a secret is
    /// applied once and the same way everywhere.
    ///
    /// - Throws: `invalid_configuration` for `private_key_jwt` without a signing key; `insecure_endpoint` when
    ///   `destination` is on another origin than the token endpoint an assertion is made for.
    package func clientAuthentication(for metadata: ProviderMetadata, destination: URL) throws -> (parameters: [(String, String)], headers: [String: String]) {
        try tokenEndpoint.clientAuthentication(for: metadata, destination: destination)
    }

    /// A key from a document the provider publishes at `url` (a JWKS, or another format such as a DID document that
    /// `decode` turns into keys), through the client's key cache: trusted for the response's `Cache-Control: max-age`
    /// (capped by ``Options/keySetMaximumAge``), refetched once, rate-limited, for an unknown `kid`.
    ///
    /// Providers use it for keys outside the JWKS (GOV.UK One Login's identity key); the request goes through the
    /// client's guarded transport.
    package func publishedKey(
        id keyID: String?,
        for algorithm: JWSAlgorithm,
        at url: URL,
        now: Date,
        accept: String = "application/json",
        decode: @escaping @Sendable (Data) throws -> JSONWebKeySet
    ) async throws -> JSONWebKey {
        try await idTokenVerifier.publishedKey(id: keyID, for: algorithm, at: url, now: now, accept: accept, decode: decode)
    }

    /// Redeems `credential`'s refresh token and stores the result before returning it.
    ///
    /// One refresh runs per account at a time — in this process (however many ``Session`` values ask) and, when
    /// the storage offers it, across processes (``TokenStorage/withExclusiveAccess(to:_:)``). Inside that section
    /// the stored credential is read again first: when another process has already refreshed, its still-valid
    /// token is used and no request is sent; otherwise the *stored* refresh token is the one redeemed.
    ///
    /// A refresh response without a refresh token keeps the old one. A new ID token goes through the identity gate's
    /// ``recheckIdentity(_:of:)``: another issuer or subject is refused with the stored credential left as it was; a
    /// refusal by the provider's identity rule removes it (the user may no longer be signed in). `invalid_grant`
    /// removes the stored credential only while it still holds the rejected refresh token (a newer one, written by
    /// another process, is kept and used).
    ///
    /// Nothing else signs out. The stored credential is marked just before the request is sent
    /// (``Credential/refreshPendingSince``) and the mark stays when the answer may have been lost — the request sent
    /// and no answer, a timeout, a cancellation in flight, a success that could not be read, a process killed in flight:
    /// the tokens are kept, and the next attempt presents the same refresh token, which a provider with a reuse grace
    /// period answers. One that treats the reuse as theft answers `invalid_grant`, and the sign-out then says a refresh
    /// answer was lost (``AuthEvent/SignOutReason/refreshAnswerLost``). When the provider answered without carrying the
    /// refresh out (a 5xx, a 429, a refusal other than `invalid_grant`), the mark is withdrawn.
    func refresh(_ credential: Credential) async throws -> (Credential, IDTokenClaims?) {
        let key = credential.storageKey
        let (instrumentation, providerID) = (self.instrumentation, provider.id)
        return try await refreshes.run(
            key,
            joined: {
                instrumentation.record(AuthInstrumentationEvent(kind: .refreshCoalesced, providerID: providerID))
            }
        ) { [self] in
            try await instrumented(.refresh) { [self] in try await refreshOperation(credential) }
        }
    }

    /// The refresh itself, run once per account at a time.
    private func refreshOperation(_ credential: Credential) async throws -> (Credential, IDTokenClaims?) {
        do {
            return try await storage.withExclusiveAccess(to: credential.storageKey) { [self] in
                try await refreshHoldingAccount(credential)
            }
        } catch let error as AuthError {
            let attributed = error.attributed(to: provider.id)
            log(.notice, "refresh.failed", attributed.message, ["code": attributed.code.rawValue])
            throw attributed
        }
    }

    /// The body of ``refresh(_:)``, run while this process holds the account's exclusive section.
    private func refreshHoldingAccount(_ known: Credential) async throws -> (Credential, IDTokenClaims?) {
        let key = known.storageKey
        // What is stored now may be newer than what this session last saw: another process refreshed, or signed out.
        let stored = try await storage.credential(for: key)?.validatedForUse()
        guard let current = stored else {
            throw AuthError(.notSignedIn, "The account was signed out (by another session or process); sign in again.", providerID: provider.id)
        }
        if current.refreshToken != known.refreshToken || current.accessToken != known.accessToken,
            !current.isExpired(at: clock.now(), margin: options.refreshMargin)
        {
            log(.info, "refresh.adopted", "Another session or process already refreshed; using its tokens.")
            return (current, nil)
        }
        guard let refreshToken = current.refreshToken else {
            // Some providers never issue one (GOV.UK One Login to services): the session ends with its access token.
            throw AuthError(
                .notSignedIn,
                "\(type(of: provider).displayName) issued no refresh token, so the session cannot be extended once its access token expires; sign in again.",
                providerID: provider.id
            )
        }
        // A refresh of this token sent before whose answer was never stored: the provider may have rotated it already.
        let earlierAnswerLost = current.refreshPendingSince != nil
        var marked: Credential?
        do {
            let metadata = try await metadata()
            if !earlierAnswerLost { marked = await markRefreshPending(current) }
            // A DPoP-bound refresh token is redeemed with a proof of the same key (RFC 9449 §5), and stays bound to it.
            let tokens = try await tokenEndpoint.request(.refreshToken(refreshToken), metadata: metadata, dpopKey: current.dpopKey)
            var claims: IDTokenClaims?
            if let idToken = tokens.idToken {
                // Without a nonce (a refresh request sends none); then the identity gate's checks (OpenID Connect
                // Core §12.2: the same issuer and subject, or the session would change hands silently; the
                // provider's identity rule). Nothing is stored when they refuse.
                let verified = try await idTokenVerifier.verify(idToken, nonce: nil, accessToken: tokens.accessToken, metadata: metadata)
                try recheckIdentity(verified, of: current)
                claims = verified
            }
            var updated = makeCredential(from: tokens, claims: claims, issuer: current.issuer, dpopKey: current.dpopKey)
            updated.subject = current.subject
            updated.accountName = current.accountName
            updated.profile = current.profile
            updated.refreshToken = tokens.refreshToken ?? current.refreshToken
            updated.idToken = tokens.idToken ?? current.idToken
            // A new device secret (Native SSO) must be vouched for by the new ID token's `ds_hash`, as at sign-in.
            updated.deviceSecret = try checkedDeviceSecret(tokens, claims: claims) ?? current.deviceSecret
            if tokens.idToken == nil { updated.annotations = current.annotations }
            if tokens.scope == nil { updated.scopes = current.scopes }
            try await store(updated)
            log(.info, "refresh.completed", "Access token refreshed.")
            return (updated, claims)
        } catch let refusal as AuthError where refusal.signOutReason != nil {
            // The provider's identity rule refused the refreshed ID token: this user may no longer be signed in.
            // Nothing of the answer was stored; the stored credential goes, as the session does — only while it still
            // holds the refresh token just redeemed (as for invalid_grant), and only if it could be removed: a
            // credential left in storage would come back at the next restore, so the session stays signed in then.
            var kept = refusal
            kept.signOutReason = nil
            guard (try? await storage.credential(for: key))?.refreshToken == refreshToken else { throw kept }
            do {
                try await storage.removeCredential(for: key)
            } catch {
                log(.warning, "refresh.signout_failed", "The identity rule refused the refreshed ID token, but the stored credential could not be removed.")
                throw kept
            }
            throw refusal
        } catch var error as AuthError where error.code == .invalidGrant {
            // Delete only what the provider rejected: if the stored refresh token changed meanwhile (a process that
            // does not share the lock), the newer tokens stay.
            let now = try? await storage.credential(for: key)
            if let now, now.refreshToken == refreshToken {
                do {
                    try await storage.removeCredential(for: key)
                } catch {
                    // Still stored, so it would come back at the next restore: the session stays signed in.
                    log(.warning, "refresh.signout_failed", "The provider refused the refresh token, but the stored credential could not be removed.")
                    throw error
                }
                if earlierAnswerLost {
                    error.signOutReason = .refreshAnswerLost
                    error.message =
                        "The provider refused the refresh token (invalid_grant) after a refresh answer was lost (a network failure, a "
                        + "timeout or an unreadable answer): it had already replaced the token and treats its second use as theft. Nothing was "
                        + "wrong with the account; sign in again."
                } else {
                    error.signOutReason = .refreshTokenRejected
                }
                throw error
            }
            if let now, !now.isExpired(at: clock.now(), margin: options.refreshMargin) {
                log(.info, "refresh.adopted", "The rejected refresh token was already replaced in storage; using the newer tokens.")
                return (now, nil)
            }
            throw error
        } catch let error as AuthError where !error.answerMayBeLost {
            // The provider answered without carrying the refresh out (a 5xx, a 429, a refusal), or this client refused
            // a readable answer: the mark written before the request is withdrawn, so the credential is as it was.
            if let marked { await withdrawMark(marked, restoring: current) }
            throw error
        }
    }

    /// Marks `credential` in storage as having a refresh in flight (``Credential/refreshPendingSince``), before the
    /// request is sent, so that a process killed in flight leaves the mark too. Returns what was written; a failure to
    /// write is logged and does not stop the refresh.
    private func markRefreshPending(_ credential: Credential) async -> Credential? {
        // Read again: a process that does not share the lock may have written newer tokens, which must not be replaced.
        guard var marked = try? await storage.credential(for: credential.storageKey), marked.refreshToken == credential.refreshToken else {
            return nil
        }
        marked.refreshPendingSince = clock.now()
        do {
            try await storage.store(marked, for: credential.storageKey)
            return marked
        } catch {
            log(.warning, "refresh.mark_failed", "The stored credential could not be marked before the refresh; a lost answer would not be recognised.")
            return nil
        }
    }

    /// Writes `original` back over `marked`, while storage still holds the mark this process wrote.
    ///
    /// "The mark this process wrote" is the same tokens and the same mark time: with a storage that does not share the
    /// lock and a provider that keeps refresh tokens, another process may have stored newer access tokens (or a mark of
    /// its own) under the same refresh token meanwhile, and those must not be replaced by this process's older ones.
    /// The time is compared to the millisecond because storages round-trip dates through a number of seconds.
    private func withdrawMark(_ marked: Credential, restoring original: Credential) async {
        guard let stored = try? await storage.credential(for: original.storageKey), stored.refreshToken == marked.refreshToken,
            stored.accessToken == marked.accessToken, stored.idToken == marked.idToken,
            let storedMark = stored.refreshPendingSince, let ownMark = marked.refreshPendingSince,
            abs(storedMark.timeIntervalSince(ownMark)) < 0.001
        else { return }
        try? await storage.store(original, for: original.storageKey)
    }

    /// The session of the most recently updated stored credential of this client, or of `account` when given.
    ///
    /// The stored ID token's claims are read back without re-validation: they were validated when stored.
    public func restoreSession(account: String? = nil) async throws -> Session? {
        let keys: [StorageKey]
        do {
            keys = try await storage.storedKeys()
        } catch let error as AuthError {
            throw error.attributed(to: provider.id)
        }
        let issuer: String?
        do {
            issuer = try await knownIssuer()
        } catch let error as AuthError where Self.offlineCodes.contains(error.code) {
            // A provider-specific document names the issuer, and it cannot be loaded now: the sessions this client
            // stored are still this client's, so they restore offline (the document loads when an endpoint is needed).
            log(.notice, "session.restore.offline", "The provider's document could not be loaded; restoring from storage without it.")
            issuer = nil
        }
        let mine = keys.filter {
            $0.providerID == provider.id && (issuer == nil || $0.issuer == issuer) && $0.clientID == provider.client.clientID
                && (account == nil || $0.account == account)
        }
        var latest: Credential?
        for key in mine {
            guard let credential = try await storage.credential(for: key)?.validatedForUse() else { continue }
            if latest == nil || credential.updatedAt > latest!.updatedAt { latest = credential }
        }
        guard let latest else { return nil }
        log(.info, "session.restored", "Session restored from storage.")
        return Session(client: self, credential: latest, idTokenClaims: Self.storedClaims(of: latest))
    }

    /// The session stored under `key`, read directly (one storage read, however many accounts the storage holds):
    /// what a server that remembers each browser's account key uses on every request.
    ///
    /// - Returns: `nil` when nothing is stored there, or the key belongs to another provider or client.
    /// - Throws: `storage_corrupted` for an unusable stored credential; storage errors.
    public func restoreSession(key: StorageKey) async throws -> Session? {
        guard key.providerID == provider.id, key.clientID == provider.client.clientID else { return nil }
        let stored: Credential?
        do {
            stored = try await storage.credential(for: key)?.validatedForUse()
        } catch let error as AuthError {
            throw error.attributed(to: provider.id)
        }
        guard let credential = stored, credential.storageKey == key else { return nil }
        return Session(client: self, credential: credential, idTokenClaims: Self.storedClaims(of: credential))
    }

    /// The stored ID token's claims, read back without re-validation: they were validated when stored.
    static func storedClaims(of credential: Credential) -> IDTokenClaims? {
        credential.idToken.flatMap { try? CompactJWS(parsing: $0.reveal()) }
            .flatMap { try? JSONValue.parseObject($0.payload) }
            .flatMap { try? IDTokenClaims($0) }
    }

    /// The failures of loading a document that mean "not reachable now", as opposed to a document that is wrong.
    package static let offlineCodes: Set<AuthError.Code> = [.network, .serverError, .timedOut]

    /// The issuer, without the network when the configuration names it: discovery's document must name exactly the
    /// configured issuer, and fixed endpoints carry it; only a provider-specific document has to be loaded. So stored
    /// sessions are reachable offline, and discovery waits until an endpoint is needed.
    package func knownIssuer() async throws -> String {
        switch provider.endpointSource {
        case .discovery(let issuer): issuer.absoluteString
        case .fixed(let metadata): metadata.issuer
        case .custom: try await metadata().issuer
        }
    }
}
