public import Foundation

extension AuthClient {
    /// Parameters only the engine may set; a provider or app that tries is told so.
    package static let reservedParameters: Set<String> = [
        "response_type", "client_id", "redirect_uri", "state", "nonce", "code_challenge", "code_challenge_method",
        "dpop_jkt"
    ]

    /// Signs a user in: prepares the request, lets `userAgent` show it, and completes with the redirect.
    ///
    /// - Returns: a session whose credential is already stored.
    /// - Throws: an ``AuthError``; nothing is stored when sign-in fails.
    public func signIn(with userAgent: any UserAgent, options: SignInOptions = SignInOptions()) async throws -> Session {
        let request = try await prepareSignIn(options: options)
        let redirect: URL
        do {
            redirect = try await userAgent.authorize(request)
        } catch let error as AuthError {
            throw error.attributed(to: provider.id)
        } catch is CancellationError {
            throw AuthError(.userCancelled, "The sign-in was cancelled.", providerID: provider.id)
        } catch {
            throw AuthError(.authorizationFailed, "The user agent could not complete the sign-in.", providerID: provider.id, underlying: error)
        }
        return try await completeSignIn(redirect: redirect)
    }

    /// Builds an authorization request with a fresh PKCE verifier, `state` and `nonce`, and remembers it until
    /// its redirect arrives (at most ``Options/authorizationLifetime``).
    ///
    /// Use this with ``completeSignIn(redirect:)`` when the redirect reaches the app by another path than a
    /// ``UserAgent`` (a universal link, a native app's callback).
    public func prepareSignIn(options: SignInOptions = SignInOptions()) async throws -> AuthorizationRequest {
        let (request, pending) = try await makeAuthorization(options: options)
        await pendingSignIns.insert(pending, now: pending.createdAt)
        return request
    }

    /// How many authorization requests are held, expired ones not yet swept included (for tests of the sweep).
    package func heldAuthorizationCount() async -> Int {
        await pendingSignIns.count
    }

    /// Builds an authorization request and what its redirect will be checked against, without remembering it.
    func makeAuthorization(options: SignInOptions) async throws -> (AuthorizationRequest, PendingSignIn) {
        let metadata = try await metadata()
        try checkFAPI2(metadata: metadata, options: options)
        let pushes = try pushesAuthorization(metadata)
        let client = provider.client
        let redirectURI = options.redirectURI ?? client.redirectURI
        var scopes = client.scopes
        for scope in options.additionalScopes where !scopes.contains(scope) { scopes.append(scope) }
        let context = SignInContext(options: options, metadata: metadata, scopes: scopes, redirectURI: redirectURI)

        // One draw of the CSPRNG for the three secrets: PKCE verifier, state and nonce (256 bits each).
        let secrets = SecureRandom.tokens(3)
        let pkce = options.omitsPKCEForBackendExchange ? nil : PKCE(generated: secrets[0])
        let state = try await authorizationState(chosen: options.state, generated: secrets[1])
        let nonce = scopes.contains("openid") ? secrets[2] : nil

        var parameters: [(String, String)] = [
            ("response_type", "code"),
            ("client_id", client.clientID),
            ("redirect_uri", redirectURI.absoluteString),
            ("scope", scopes.joined(separator: " ")),
            ("state", state)
        ]
        parameters.reserveCapacity(16)
        if let nonce { parameters.append(("nonce", nonce)) }
        if let pkce { parameters += [("code_challenge", pkce.challenge), ("code_challenge_method", pkce.method)] }
        // The code is bound to the key that will redeem it (RFC 9449 §10): a stolen code is useless without the key.
        // A code a backend redeems (no PKCE here) is the backend's to bind.
        let dpopKey = pkce == nil ? nil : try newDPoPKey(for: metadata)
        if let dpopKey { parameters.append(("dpop_jkt", dpopKey.thumbprint)) }

        var extra: [String: String] = [:]
        if let hint = options.loginHint, !hint.isEmpty { extra["login_hint"] = hint }
        if let hint = options.idTokenHint, !hint.isEmpty { extra["id_token_hint"] = hint.reveal() }
        if !options.prompt.isEmpty { extra["prompt"] = options.prompt.joined(separator: " ") }
        if let maxAge = options.maxAge {
            guard maxAge >= 0 else {
                throw AuthError(.invalidConfiguration, "max_age must be zero or more seconds; got \(maxAge).", providerID: provider.id)
            }
            extra["max_age"] = String(maxAge)
        }
        if !options.acrValues.isEmpty { extra["acr_values"] = options.acrValues.joined(separator: " ") }
        if options.requiresACR {
            guard !options.acrValues.isEmpty else {
                throw AuthError(.invalidConfiguration, "requiresACR needs at least one value in acrValues.", providerID: provider.id)
            }
            // OpenID Connect Core §5.5.1.1: an essential acr request goes in the claims parameter.
            let request: JSONValue = ["id_token": ["acr": ["essential": true, "values": .array(options.acrValues.map(JSONValue.string))]]]
            extra["claims"] = String(decoding: try request.jsonData(), as: UTF8.self)
        }
        if !options.uiLocales.isEmpty { extra["ui_locales"] = options.uiLocales.joined(separator: " ") }
        extra.merge(provider.authorizationParameters(for: context)) { _, fromProvider in fromProvider }
        extra.merge(options.additionalParameters) { _, fromApp in fromApp }
        if extra.keys.contains(where: Self.reservedParameters.contains) {
            let reserved = Set(extra.keys).intersection(Self.reservedParameters)
            throw AuthError(
                .invalidConfiguration,
                "The parameters \(reserved.sorted().joined(separator: ", ")) are set by the engine and cannot be overridden.",
                providerID: provider.id
            )
        }
        for (name, value) in extra.sorted(by: { $0.key < $1.key }) { parameters.append((name, value)) }

        let now = clock.now()
        if provider.behavior.usesSignedRequestObject {
            parameters = try signedRequestObject(parameters, metadata: metadata, now: now)
        }
        let expiresAt = now.addingTimeInterval(self.options.authorizationLifetime)
        let pending = PendingSignIn(
            providerID: provider.id,
            clientID: client.clientID,
            state: state,
            nonce: nonce,
            codeVerifier: pkce?.verifier,
            dpopKey: dpopKey,
            redirectURI: redirectURI,
            scopes: scopes,
            options: options,
            createdAt: now,
            expiresAt: expiresAt,
            metadata: metadata
        )
        var url = metadata.authorizationEndpoint.appendingQuery(parameters)
        var pushedRequestExpiresAt: Date?
        if pushes {
            // RFC 9126 §4: the browser carries only the client and the reference; the parameters went by back channel.
            let pushed = try await pushAuthorizationRequest(parameters, metadata: metadata)
            // A provider that applies OpenID Connect Core §6.1 to pushed requests also wants the parameters OAuth
            // requires in the URL (`par_repeat`): the pushed values, never others.
            let repeated = parameters.filter { client.pushedRequestRepeatedParameters.contains($0.0) }
            url = metadata.authorizationEndpoint.appendingQuery([("client_id", client.clientID), ("request_uri", pushed.requestURI)] + repeated)
            pushedRequestExpiresAt = pushed.expiresAt
        }
        log(
            .debug, "signin.prepared", "Authorization request prepared.",
            [
                "endpoint": metadata.authorizationEndpoint.host ?? "?",
                "scopes": scopes.joined(separator: " ")
            ])
        var authorization = AuthorizationRequest(
            providerID: provider.id,
            url: url,
            redirectURI: redirectURI,
            state: state,
            prefersEphemeralSession: options.prefersEphemeralSession ?? provider.behavior.prefersEphemeralWebSession,
            expiresAt: expiresAt
        )
        authorization.pushedRequestExpiresAt = pushedRequestExpiresAt
        return (authorization, pending)
    }

    /// The `generated` random state, or the caller's own when it is long enough, URL-safe and never used by this client.
    private func authorizationState(chosen: String?, generated: String) async throws -> String {
        guard let chosen else { return generated }
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        guard chosen.count >= SignInOptions.minimumCallerStateLength, chosen.allSatisfy(unreserved.contains) else {
            throw AuthError(
                .invalidConfiguration,
                "A caller-chosen state must be at least \(SignInOptions.minimumCallerStateLength) characters of A-Z a-z 0-9 - . _ ~ (for example 16 random bytes in base64url); it is what protects the login against CSRF.",
                providerID: provider.id
            )
        }
        guard await pendingSignIns.reserveCallerState(chosen) else {
            throw AuthError(.invalidConfiguration, "This state was already used by this client; choose a new one for every login.", providerID: provider.id)
        }
        return chosen
    }

    /// Validates the redirect of a request from ``prepareSignIn(options:)``, exchanges the code, validates the
    /// tokens, stores the credential, and returns the session.
    ///
    /// The redirect must match the redirect URI exactly; its `state` must belong to an outstanding request and is
    /// consumed (a second use fails with `state_mismatch`); its RFC 9207 `iss` must name the provider's issuer,
    /// and must be present when the provider declares support.
    public func completeSignIn(redirect: URL) async throws -> Session {
        try await instrumented(.signIn) {
            try await self.signInEntrance {
                let (pending, metadata, code, response) = try await self.validateRedirect(redirect)
                return try await self.finishSignIn(code: code, pending: pending, metadata: metadata, response: response.parameters)
            }
        }
    }

    /// Prepares a sign-in like ``prepareSignIn(options:)`` but hands what its redirect is checked against to the
    /// caller instead of keeping it in this client's memory: store the ``PendingSignIn`` (keyed by its `state`)
    /// where every instance can read it, and complete with ``completeSignIn(redirect:resuming:)``.
    ///
    /// - Throws: as ``prepareSignIn(options:)``; `invalid_configuration` for options without PKCE (UberCompat's
    ///   backend exchange).
    public func prepareResumableSignIn(options: SignInOptions = SignInOptions()) async throws -> (request: AuthorizationRequest, pending: PendingSignIn) {
        var (request, pending) = try await makeAuthorization(options: options)
        guard pending.codeVerifier != nil else {
            throw AuthError(.invalidConfiguration, "A resumable sign-in needs PKCE; omitsPKCEForBackendExchange cannot be used with it.", providerID: provider.id)
        }
        pending.metadata = nil
        return (request, pending)
    }

    /// Completes a sign-in from ``prepareResumableSignIn(options:)``, possibly started by another instance: the
    /// redirect's `state` must be `pending`'s, `pending` must be this client's and unexpired; then every check of
    /// ``completeSignIn(redirect:)`` applies (exact redirect, RFC 9207 `iss`, code exchange with PKCE, ID token with
    /// the nonce, DPoP binding).
    ///
    /// - Throws: `state_mismatch` for another state or an expired sign-in; `invalid_configuration` for another
    ///   provider's or client's sign-in; the errors of ``completeSignIn(redirect:)``. Nothing is stored on failure.
    public func completeSignIn(redirect: URL, resuming pending: PendingSignIn) async throws -> Session {
        try await instrumented(.signIn) {
            try await self.signInEntrance {
                guard pending.providerID == self.provider.id, pending.clientID == self.provider.client.clientID else {
                    throw AuthError(.invalidConfiguration, "This pending sign-in belongs to another provider or client.")
                }
                guard let verifier = pending.codeVerifier else {
                    throw AuthError(.invalidConfiguration, "A resumable sign-in needs PKCE.")
                }
                _ = try PKCE(verifier: verifier)  // a verifier RFC 7636 §4.1 would refuse never reaches the provider
                let (_, metadata, code, response) = try await self.validateRedirect(redirect, resuming: pending)
                return try await self.finishSignIn(code: code, pending: pending, metadata: metadata, response: response.parameters)
            }
        }
    }

    /// Exchanges the code and checks the result, then hands it to the identity gate: the token endpoint, then the ID
    /// token verifier (the token's own checks, then what the app asked of the authentication), then what the provider
    /// checks of this request, then ``admit(_:)``.
    func finishSignIn(code: Secret, pending: PendingSignIn, metadata: ProviderMetadata, response: [String: String]) async throws -> Session {
        let result = try await exchange(code: code, pending: pending, metadata: metadata)
        try checkStepUpIdentity(result.idTokenClaims, options: pending.options)
        do {
            try idTokenVerifier.checkAuthentication(result.idTokenClaims, requested: pending.options, requestedAt: pending.createdAt)
        } catch let error as AuthError where pending.options.stepUp != nil {
            throw AuthError(
                .stepUpNotSatisfied, "The step-up sign-in did not give the authentication the resource asked for: \(error.message)", underlying: error
            )
        }
        try provider.validate(result, for: pending.context(metadata: metadata))
        return try await admit(
            SignInEvidence(
                grant: .authorizationCode, tokens: result.tokens, claims: result.idTokenClaims, metadata: metadata, dpopKey: pending.dpopKey,
                authorizationResponse: response, accountName: pending.options.accountName
            )
        )
    }

    /// The one front door of a redirect: finds the pending sign-in it answers — `resuming`, when the caller kept it,
    /// else this client's own, by its `state`, consumed once — and runs ``checkResponse(_:redirect:pending:metadata:)``;
    /// returns the pending sign-in, its metadata and the code.
    ///
    /// - Throws: `missing_state` for a response without `state` (naming the provider's error, when it sent one);
    ///   `state_mismatch` for a `state` that is unknown, used, expired or not `resuming`'s; the errors of
    ///   ``checkResponse(_:redirect:pending:metadata:)``.
    func validateRedirect(_ redirect: URL, resuming: PendingSignIn? = nil) async throws -> (PendingSignIn, ProviderMetadata, Secret, AuthorizationResponse) {
        let response = try AuthorizationResponse(parsing: redirect)
        let pending: PendingSignIn
        if let state = response.state, !state.isEmpty {
            let now = clock.now()
            if let resuming {
                guard state == resuming.state, resuming.expiresAt > now else {
                    throw AuthError(.stateMismatch, "The authorization response's 'state' is not this sign-in's, or the sign-in expired.")
                }
                pending = resuming
            } else {
                guard let match = await pendingSignIns.consume(state: state, now: now) else {
                    throw AuthError(.stateMismatch, "The authorization response's 'state' is unknown, expired or already used.")
                }
                pending = match
            }
        } else if resuming == nil, provider.behavior.acceptsResponsesWithoutState {
            // RFC 9700 §2.1: PKCE protects the code exchange against CSRF when the server enforces it, so a response
            // without `state` from a provider whose apps never echo it is attributed to the one login pending for this
            // redirect — never guessed among several. A wrong code then fails at the token endpoint.
            guard let only = await pendingSignIns.consumeOnly(redirect: redirect, now: clock.now()) else {
                throw AuthError(
                    .missingState, "The authorization response has no 'state', and not exactly one login is waiting for this redirect, so it cannot be attributed safely.")
            }
            log(.info, "signin.stateless_response", "A response without 'state' was attributed to the only pending, PKCE-protected login.")
            pending = only
        } else {
            throw response.missingStateError("The authorization response has no 'state'; it was not sent in answer to this app's request.")
        }
        let metadata: ProviderMetadata
        if let known = pending.metadata { metadata = known } else { metadata = try await self.metadata() }
        return (pending, metadata, try checkResponse(response, redirect: redirect, pending: pending, metadata: metadata), response)
    }

    /// The checks every redirect passes once its pending sign-in is known: the exact redirect URI, RFC 9207
    /// `iss`, an OAuth error, and a code.
    func checkResponse(_ response: AuthorizationResponse, redirect: URL, pending: PendingSignIn, metadata: ProviderMetadata) throws -> Secret {
        guard AuthorizationResponse.redirect(redirect, matches: pending.redirectURI) else {
            throw AuthError(.redirectMismatch, "The redirect does not match the registered redirect URI exactly.")
        }
        if let issuer = response.issuer {
            // Compared as ID tokens are: a provider whose issuer is known to carry or drop one trailing slash
            // (Schibsted, GOV.UK) says so in its policy; everyone else is compared exactly.
            guard provider.idTokenPolicy.issuerMatches(issuer, expected: metadata.issuer) else {
                throw AuthError(.issuerParameterMismatch, "The authorization response comes from the issuer '\(issuer)', not '\(metadata.issuer)'.")
            }
        } else if metadata.authorizationResponseIssParameterSupported {
            throw AuthError(.missingIssuerParameter, "The authorization response has no 'iss' though the provider declares RFC 9207 support.")
        }
        if let error = response.oauthError { throw error.authorizationError }
        guard let code = response.code, !code.isEmpty else {
            throw AuthError(.missingAuthorizationCode, "The authorization response has neither a 'code' nor an 'error'.")
        }
        return Secret(code)
    }

    /// Redeems the code at the token endpoint (with the PKCE verifier and the DPoP key of its request) and verifies
    /// the ID token against the request's nonce, as one instrumented `code_exchange` operation.
    func exchange(code: Secret, pending: PendingSignIn, metadata: ProviderMetadata) async throws -> SignInResult {
        try await instrumented(.codeExchange) { try await self.exchangeOperation(code: code, pending: pending, metadata: metadata) }
    }

    private func exchangeOperation(code: Secret, pending: PendingSignIn, metadata: ProviderMetadata) async throws -> SignInResult {
        guard let codeVerifier = pending.codeVerifier else {
            throw AuthError(
                .invalidConfiguration,
                "This authorization was requested without PKCE for a backend exchange; complete it with completeAuthorization(redirect:) and let the backend redeem the code.")
        }
        let grant = TokenGrant.authorizationCode(code: code, codeVerifier: codeVerifier, redirectURI: pending.redirectURI)
        let tokens = try await tokenEndpoint.request(grant, metadata: metadata, dpopKey: pending.dpopKey)
        var claims: IDTokenClaims?
        if let idToken = tokens.idToken {
            claims = try await idTokenVerifier.verify(idToken, nonce: pending.nonce, accessToken: tokens.accessToken, metadata: metadata)
        } else if pending.nonce != nil {
            throw AuthError(.missingIDToken, "The token response has no 'id_token' though the 'openid' scope was requested.")
        }
        return SignInResult(tokens: tokens, idTokenClaims: claims)
    }

    /// The authorization parameters as an RFC 9101 request object: every parameter becomes a claim of a JWT signed
    /// with the client's key (`iss` = client id, `aud` = the issuer — or the authorization endpoint where the provider's
    /// ``ProviderBehavior/requestObjectAudience`` says so —, `iat`, `exp` = five minutes, a fresh `jti`), and
    /// the query keeps only what OpenID Connect Core §6.1 requires outside it (`client_id`, `response_type`,
    /// `scope`) next to `request`.
    func signedRequestObject(_ parameters: [(String, String)], metadata: ProviderMetadata, now: Date) throws -> [(String, String)] {
        let client = provider.client
        guard let key = client.signingKey else {
            throw AuthError(.invalidConfiguration, "Signed request objects need the client's private key (signingKey).", providerID: provider.id)
        }
        var claims = [String: JSONValue](parameters.map { ($0.0, JSONValue.string($0.1)) }, uniquingKeysWith: { _, last in last })
        let issuedAt = now.timeIntervalSince1970.rounded(.down)
        claims["iss"] = .string(client.clientID)
        switch provider.behavior.requestObjectAudience {
        case .issuer: claims["aud"] = .string(metadata.issuer)
        case .authorizationEndpoint: claims["aud"] = .string(metadata.authorizationEndpoint.absoluteString)
        }
        claims["iat"] = .number(issuedAt)
        claims["exp"] = .number(issuedAt + 300)
        claims["jti"] = .string(SecureRandom.token())
        let outside = ["client_id", "response_type", "scope"]
        return parameters.filter { outside.contains($0.0) } + [("request", try key.signedJWT(type: "oauth-authz-req+jwt", claims: claims))]
    }

}

extension AuthClient {
    /// Forgets `request` before any response arrived (an app that did not open, a hand-off that timed out), so its
    /// `state` can no longer be used and it no longer counts as pending.
    public func abandon(_ request: AuthorizationRequest) async {
        await pendingSignIns.remove(state: request.state)
    }
}
