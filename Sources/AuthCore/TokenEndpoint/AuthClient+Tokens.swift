package import Foundation
import HTTPTypes

extension AuthClient {
    /// Sends a token request (form body, RFC 6749 §4.1.3 / §6) and parses the response.
    ///
    /// - Parameter dpopKey: the key the tokens are (to be) bound to: every attempt carries a DPoP proof signed by it,
    ///   and the answer must be a `DPoP` token; `nil` for bearer tokens.
    func requestTokens(grant: TokenGrant, metadata: ProviderMetadata, dpopKey: DPoPKey? = nil) async throws -> TokenResponse {
        var parameters: [(String, String)] = [("grant_type", grant.grantType)]
        switch grant {
        case .authorizationCode(let code, let verifier, let redirectURI):
            parameters += [
                ("code", code.reveal()),
                ("redirect_uri", redirectURI.absoluteString),
                ("code_verifier", verifier.reveal()),
            ]
        case .refreshToken(let token):
            parameters.append(("refresh_token", token.reveal()))
        case .deviceCode(let code):
            parameters.append(("device_code", code.reveal()))
        }
        let providerHeaders: [String: String]
        let extra: [String: String]
        do {
            providerHeaders = try await provider.tokenRequestHeaders(for: grant)
            extra = try await provider.tokenRequestParameters(for: grant)
        } catch let error as AuthError {
            throw error.attributed(to: provider.id)
        } catch {
            throw AuthError(
                .tokenRequestFailed,
                "The extra token request headers or parameters could not be computed (\(type(of: error))); nothing was sent.",
                providerID: provider.id,
                underlying: error
            )
        }
        let grantParameters = parameters
        // Once per attempt: a client assertion is signed afresh each time, so its `jti` is never sent twice.
        let form = { [self] () throws -> (parameters: [(String, String)], headers: [String: String]) in
            var parameters = grantParameters
            var headers = providerHeaders
            try authenticateClient(parameters: &parameters, headers: &headers, metadata: metadata)
            parameters += extra.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            return (parameters, headers)
        }

        log(.debug, "token.request", "Requesting tokens.", [
            "grant_type": grant.grantType, "endpoint": metadata.tokenEndpoint.host ?? "?",
        ])
        // Retries happen only where the provider documents them (`ProviderBehavior/tokenRequestRetries`, 0 by default): a code or a
        // rotating refresh token whose response was lost may already be spent, and replaying it blindly would get
        // the whole grant revoked by a provider with reuse detection.
        let data: Data
        do {
            data = try await withRetries(provider.behavior.tokenRequestRetries) {
                try await postTokenRequest(metadata.tokenEndpoint, dpopKey: dpopKey, form: form)
            }
        } catch let error as AuthError where error.code == .network || error.code == .timedOut {
            var lost = error
            lost.message += " The request may have reached the provider and its answer been lost; the "
                + (grant.grantType == "refresh_token" ? "refresh token" : grant.grantType == "authorization_code" ? "authorization code" : "device code")
                + " was not sent again, because the provider may already have used it up."
            throw lost
        } catch let error as AuthError where error.code == .httpError && error.httpStatus == 400 {
            var unexplained = error
            unexplained.message = grant.grantType == "refresh_token"
                ? "The token endpoint refused the refresh with HTTP 400 and no OAuth error. This usually means the refresh token was already used (rotated) by another process or session; sign in again if it persists."
                : "The token endpoint refused the code exchange with HTTP 400 and no OAuth error. This usually means the code was already redeemed or the redirect URI differs from the registered one; sign in again."
            throw unexplained
        }
        do {
            let tokens = try TokenResponse(json: data, tokenTypeWhenAbsent: provider.behavior.tokenTypeWhenAbsent)
            try checkTokenBinding(tokens, dpopKey: dpopKey)
            return tokens
        } catch let error as AuthError {
            throw error.attributed(to: provider.id)
        }
    }

    /// Runs `operation`, repeating it up to `retries` more times after a retryable failure (5xx, transport).
    func withRetries<T>(_ retries: Int, _ operation: () async throws -> T) async throws -> T {
        var attempt = 0
        while true {
            do {
                return try await operation()
            } catch let error as AuthError where error.isRetryable && attempt < retries {
                attempt += 1
                log(.notice, "http.retry", "Retrying after a transient failure.", ["code": error.code.rawValue, "attempt": String(attempt)])
            }
        }
    }

    /// The client's credentials for a back-channel call a provider makes itself (a pushed authorization request, a
    /// vendor endpoint): form parameters and headers from the same mechanism the engine uses for token, revocation
    /// and introspection requests, so `private_key_jwt` or a secret is applied once and the same way everywhere.
    ///
    /// - Throws: `invalid_configuration` for `private_key_jwt` without a signing key.
    public func clientAuthentication(for metadata: ProviderMetadata) throws -> (parameters: [(String, String)], headers: [String: String]) {
        var parameters: [(String, String)] = []
        var headers: [String: String] = [:]
        try authenticateClient(parameters: &parameters, headers: &headers, metadata: metadata)
        return (parameters, headers)
    }

    /// Adds the client's credentials to a back-channel request, as its registration says (RFC 6749 §2.3.1,
    /// RFC 7523 §2.2): `client_id` for a public client, HTTP Basic or form parameters with a secret, or a fresh
    /// signed assertion (audience: the token endpoint) for `private_key_jwt`. Every call that authenticates the
    /// client — token, revocation, introspection — comes through here.
    ///
    /// - Throws: `invalid_configuration` for `private_key_jwt` without a signing key.
    func authenticateClient(parameters: inout [(String, String)], headers: inout [String: String], metadata: ProviderMetadata) throws {
        let client = provider.client
        switch client.authenticationMethod {
        case .none:
            parameters.append(("client_id", client.clientID))
        case .clientSecretPost:
            parameters += [("client_id", client.clientID), ("client_secret", client.clientSecret?.reveal() ?? "")]
        case .clientSecretBasic:
            headers["Authorization"] = Self.basicAuthorization(clientID: client.clientID, secret: client.clientSecret)
        case .privateKeyJWT:
            guard let key = client.signingKey else {
                throw AuthError(.invalidConfiguration, "private_key_jwt needs the client's private key (signingKey).", providerID: provider.id)
            }
            let assertion = try ClientAssertion.make(
                clientID: client.clientID, audience: metadata.tokenEndpoint.absoluteString, key: key, now: clock.now()
            )
            parameters += [
                ("client_id", client.clientID), ("client_assertion_type", ClientAssertion.type),
                ("client_assertion", assertion.reveal()),
            ]
        }
    }

    /// `Basic base64(urlencode(id):urlencode(secret))`, as RFC 6749 §2.3.1 specifies.
    static func basicAuthorization(clientID: String, secret: Secret?) -> String {
        let pair = FormEncoding.escape(clientID) + ":" + FormEncoding.escape(secret?.reveal() ?? "")
        return "Basic " + Data(pair.utf8).base64EncodedString()
    }

    /// Validates an ID token against the provider's issuer, this client, the key set and the injected clock.
    func validateIDToken(
        _ idToken: Secret,
        nonce: String?,
        accessToken: Secret?,
        metadata: ProviderMetadata
    ) async throws -> IDTokenClaims {
        let validator = IDTokenValidator(
            issuer: metadata.issuer,
            clientID: provider.client.clientID,
            policy: provider.idTokenPolicy
        )
        let (jws, algorithm) = try validator.parse(idToken.reveal())
        let now = clock.now()
        let key = try await providerKey(for: jws, algorithm: algorithm, metadata: metadata, now: now, tokenKind: "ID tokens")
        let claims = try validator.validate(jws, algorithm: algorithm, key: key, nonce: nonce, accessToken: accessToken, now: now)
        log(.debug, "idtoken.validated", "ID token validated.", ["alg": algorithm.rawValue])
        return claims
    }

    /// The provider's key for `jws` from its `jwks_uri`: cached for the response's `Cache-Control: max-age` (capped),
    /// refetched once, rate-limited, for an unknown `kid`. ID tokens and logout tokens both take their keys here.
    ///
    /// - Parameter tokenKind: what is being verified, for the error when the provider has no `jwks_uri`.
    func providerKey(
        for jws: CompactJWS,
        algorithm: JWSAlgorithm,
        metadata: ProviderMetadata,
        now: Date,
        tokenKind: String
    ) async throws -> JSONWebKey {
        guard let jwksURI = metadata.jwksURI else {
            throw AuthError(.endpointUnavailable, "The provider publishes no 'jwks_uri', so its \(tokenKind) cannot be verified.")
        }
        return try await publishedKey(id: jws.header.keyID, for: algorithm, at: jwksURI, now: now, accept: "application/jwk-set+json, application/json") {
            try JSONWebKeySet(data: $0)
        }
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
        let channel = backChannel
        return try await keySetCache.key(
            id: keyID,
            for: algorithm,
            at: url,
            now: now,
            minimumRefetchInterval: options.keySetRefetchInterval,
            maximumAge: options.keySetMaximumAge
        ) {
            let (data, response) = try await channel.getResponse(url, endpoint: "jwks_uri", accept: accept)
            channel.instrumentation.record(AuthInstrumentationEvent(kind: .keySetFetched, providerID: channel.providerID))
            let cacheControl = response.headerFields[.cacheControl]
            return KeySetCache.Fetched(keySet: try decode(data), maxAge: KeySetCache.maxAge(cacheControl: cacheControl))
        }
    }

    /// Redeems `credential`'s refresh token and stores the result before returning it.
    ///
    /// One refresh runs per account at a time — in this process (however many ``Session`` values ask) and, when
    /// the storage offers it, across processes (``TokenStorage/withExclusiveAccess(to:_:)``). Inside that section
    /// the stored credential is read again first: when another process has already refreshed, its still-valid
    /// token is used and no request is sent; otherwise the *stored* refresh token is the one redeemed.
    ///
    /// A refresh response without a refresh token keeps the old one. A new ID token must name the same issuer
    /// and subject. `invalid_grant` removes the stored credential only while it still holds the rejected refresh
    /// token (a newer one, written by another process, is kept and used).
    func refresh(_ credential: Credential) async throws -> (Credential, IDTokenClaims?) {
        let key = credential.storageKey
        let (instrumentation, providerID) = (self.instrumentation, provider.id)
        return try await refreshes.run(key, joined: {
            instrumentation.record(AuthInstrumentationEvent(kind: .refreshCoalesced, providerID: providerID))
        }) { [self] in
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
        do {
            let metadata = try await metadata()
            // A DPoP-bound refresh token is redeemed with a proof of the same key (RFC 9449 §5), and stays bound to it.
            let tokens = try await requestTokens(grant: .refreshToken(refreshToken), metadata: metadata, dpopKey: current.dpopKey)
            var claims: IDTokenClaims?
            if let idToken = tokens.idToken {
                let validated = try await validateIDToken(idToken, nonce: nil, accessToken: tokens.accessToken, metadata: metadata)
                // The issuer is compared as ID tokens are (a provider may ignore one trailing slash: GOV.UK's `iss`
                // has one that an app's configured issuer may lack).
                guard provider.idTokenPolicy.issuerMatches(validated.issuer, expected: current.issuer),
                    validated.subject == current.subject
                else {
                    throw AuthError(
                        .subjectMismatch,
                        "The refreshed ID token names another user or issuer than the signed-in one.",
                        endpoint: "token_endpoint"
                    )
                }
                claims = validated
            }
            var updated = makeCredential(from: tokens, claims: claims, issuer: current.issuer, dpopKey: current.dpopKey)
            updated.subject = current.subject
            updated.refreshToken = tokens.refreshToken ?? current.refreshToken
            updated.idToken = tokens.idToken ?? current.idToken
            if tokens.idToken == nil { updated.annotations = current.annotations }
            if tokens.scope == nil { updated.scopes = current.scopes }
            try await store(updated)
            log(.info, "refresh.completed", "Access token refreshed.")
            return (updated, claims)
        } catch let error as AuthError where error.code == .invalidGrant {
            // Delete only what the provider rejected: if the stored refresh token changed meanwhile (a process that
            // does not share the lock), the newer tokens stay.
            let now = try? await storage.credential(for: key)
            if now?.refreshToken == refreshToken {
                try? await storage.removeCredential(for: key)
                throw error
            }
            if let now, !now.isExpired(at: clock.now(), margin: options.refreshMargin) {
                log(.info, "refresh.adopted", "The rejected refresh token was already replaced in storage; using the newer tokens.")
                return (now, nil)
            }
            throw error
        }
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
