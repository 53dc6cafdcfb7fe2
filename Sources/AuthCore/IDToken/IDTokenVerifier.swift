import Foundation

/// Verifies the provider's ID tokens for ``AuthClient``: everything between "the token endpoint answered" and "the
/// credential may be stored" that concerns who signed in.
///
/// It owns the provider's keys (the JWKS cache: `Cache-Control` lifetime, one rate-limited refetch for an unknown
/// `kid`), the token checks of OpenID Connect Core §3.1.3.7 (``IDTokenValidator``: pinned algorithms, signature,
/// `iss`, `aud`, `azp`, `exp`, `iat`, `nbf`, `nonce`, `at_hash`), what the app asked of the authentication
/// (`max_age`/`auth_time`, `prompt=login`, `acr`), and the rules of a refreshed ID token (§12.2: the same issuer and
/// subject). Logout tokens take their keys from it too.
///
/// A value held by ``AuthClient``; its only state is the key cache, so verifying a token whose key is cached costs
/// one actor hop (the cache) and the signature check — as it did before this type existed.
struct IDTokenVerifier: Sendable {
    /// The provider: the client id (the audience) and its ``IDTokenPolicy``.
    let provider: any AuthProvider
    /// How key sets are fetched and the verifier's events logged.
    let http: ProviderHTTPClient
    /// The provider's key sets by URL.
    let keySets: KeySetCache
    /// The time every check compares against.
    let clock: any WallClock
    /// The shortest interval between two refetches triggered by unknown key ids (``AuthClient/Options/keySetRefetchInterval``).
    let keySetRefetchInterval: TimeInterval
    /// How long a key set is trusted at most (``AuthClient/Options/keySetMaximumAge``).
    let keySetMaximumAge: TimeInterval

    /// Validates an ID token against the provider's issuer, this client, the key set and the clock.
    ///
    /// - Parameters:
    ///   - nonce: the nonce the authorization request sent; `nil` where none was sent (refresh, device flow,
    ///     imported tokens).
    ///   - accessToken: the access token issued with the ID token, for `at_hash`.
    func verify(
        _ idToken: Secret,
        nonce: String?,
        accessToken: Secret?,
        metadata: ProviderMetadata
    ) async throws -> IDTokenClaims {
        let validator = IDTokenValidator(
            issuer: metadata.issuer,
            clientID: provider.client.clientID,
            policy: provider.idTokenPolicy.pinned(for: provider.client.profile)
        )
        let (jws, algorithm) = try validator.parse(idToken.reveal())
        let now = clock.now()
        let key = try await providerKey(for: jws, algorithm: algorithm, metadata: metadata, now: now, tokenKind: "ID tokens")
        let claims = try validator.validate(jws, algorithm: algorithm, key: key, nonce: nonce, accessToken: accessToken, now: now)
        http.log(.debug, "idtoken.validated", "ID token validated.", ["alg": algorithm.rawValue])
        return claims
    }

    /// What the app asked of the authentication itself (OpenID Connect Core §3.1.2.1, §3.1.3.7 steps 12–13):
    /// with `max_age`, `auth_time` is required and no older than `max_age`; with `prompt=login`, an `auth_time`
    /// must not predate the request; with ``SignInOptions/requiresACR``, `acr` must be one of `acrValues`.
    /// The provider's clock skew applies to every comparison.
    ///
    /// - Parameters:
    ///   - claims: the verified ID token's claims; `nil` when the provider issued none.
    ///   - options: what the authorization request asked for.
    ///   - requestedAt: when the authorization request was made.
    func checkAuthentication(_ claims: IDTokenClaims?, requested options: SignInOptions, requestedAt: Date) throws {
        let skew = provider.idTokenPolicy.clockSkew
        if let maxAge = options.maxAge {
            guard let authTime = claims?.authenticationTime else {
                throw AuthError(.missingClaim, "The ID token has no 'auth_time' though max_age was requested.")
            }
            let age = clock.now().timeIntervalSince(authTime)
            guard age <= TimeInterval(maxAge) + skew else {
                throw AuthError(
                    .authenticationTooOld,
                    "The user authenticated \(Int(exactly: age.rounded()) ?? -1) s ago; max_age allows \(maxAge) s. The provider did not re-authenticate the user."
                )
            }
        }
        if options.prompt.contains("login"), let authTime = claims?.authenticationTime,
            authTime.addingTimeInterval(skew) < requestedAt
        {
            throw AuthError(.authenticationTooOld, "The ID token's 'auth_time' predates this prompt=login request: the provider did not ask the user to log in again.")
        }
        if options.requiresACR {
            guard let acr = claims?.authenticationContextClass, options.acrValues.contains(acr) else {
                throw AuthError(
                    .acrNotSatisfied,
                    "The ID token's acr '\(claims?.authenticationContextClass ?? "none")' is not one of the required \(options.acrValues.joined(separator: ", "))."
                )
            }
        }
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
    /// `decode` turns into keys), through the key cache: trusted for the response's `Cache-Control: max-age` (capped
    /// by ``keySetMaximumAge``), refetched once, rate-limited, for an unknown `kid`.
    func publishedKey(
        id keyID: String?,
        for algorithm: JWSAlgorithm,
        at url: URL,
        now: Date,
        accept: String,
        decode: @escaping @Sendable (Data) throws -> JSONWebKeySet
    ) async throws -> JSONWebKey {
        let http = http
        return try await keySets.key(
            id: keyID,
            for: algorithm,
            at: url,
            now: now,
            minimumRefetchInterval: keySetRefetchInterval,
            maximumAge: keySetMaximumAge
        ) {
            let (data, response) = try await http.getResponse(url, endpoint: "jwks_uri", accept: accept)
            http.instrumentation.record(AuthInstrumentationEvent(kind: .keySetFetched, providerID: http.providerID))
            let cacheControl = response.headerFields[.cacheControl]
            return KeySetCache.Fetched(keySet: try decode(data), maxAge: KeySetCache.maxAge(cacheControl: cacheControl))
        }
    }
}
