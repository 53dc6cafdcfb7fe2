import AuthCore
import Foundation

// The token endpoint: authorization code (PKCE), refresh (rotation and reuse detection), and the response with its ID token.
extension TestIdentityProvider {
    /// A token request: the behaviour's outages first, then the DPoP proof, the client, the quirks, and the grant.
    func token(_ request: CapturedRequest, url: URL) -> (Data, HTTPResponse) {
        var form = formParameters(request)
        if form.isEmpty, configuration.quirks.tokenParametersInQuery { form = queryParameters(url) }
        tokenRequestsByGrant[form["grant_type"] ?? "", default: 0] += 1
        if behavior.failingTokenRequests > 0 {
            behavior.failingTokenRequests -= 1
            return json(["error": "temporarily_unavailable"], status: 503, url: url)
        }
        if let replacement = behavior.tokenResponseReplacement {
            return (replacement.body, .make(status: replacement.status, headers: replacement.headers))
        }
        // A server without DPoP ignores the header; one with it checks the proof before anything else.
        tokenRequestProofThumbprint = nil
        if configuration.dpop != nil, let proof = request.value(forHTTPHeaderField: "DPoP") {
            switch verifyDPoPProof(proof, method: "POST", url: url, accessToken: nil) {
            case .success(let thumbprint): tokenRequestProofThumbprint = thumbprint
            case .failure(let failure): return tokenEndpointDPoPError(failure, url: url)
            }
        }
        if let refusal = configuration.quirks.checkTokenFormBeforeClientAuthentication?(form) {
            return oauthError(refusal.error, description: refusal.description, status: refusal.status, url: url)
        }
        let client: Client
        switch authenticateClient(request, form: form) {
        case .success(let authenticated): client = authenticated
        case .failure(let failure): return clientAuthenticationError(failure, url: url)
        }
        if let problem = configuration.quirks.validateTokenRequest?(request, form) {
            return oauthError("invalid_request", description: problem, url: url)
        }
        switch form["grant_type"] {
        case "authorization_code": return redeemCode(form, client: client, url: url)
        case "refresh_token" where configuration.issuesRefreshTokens: return redeemRefreshToken(form, client: client, url: url)
        case TokenGrant.deviceCode(Secret("")).grantType where configuration.paths.deviceAuthorization != nil:
            return redeemDeviceCode(form, client: client, url: url)
        case Self.tokenExchangeGrantType where configuration.tokenExchange != nil:
            return redeemTokenExchange(request, form: form, client: client, url: url)
        default: return oauthError("unsupported_grant_type", url: url)
        }
    }

    private func redeemCode(_ form: [String: String], client: Client, url: URL) -> (Data, HTTPResponse) {
        guard let code = form["code"], var issued = codes[code] else { return oauthError("invalid_grant", url: url) }
        if configuration.dpop != nil, let bound = issued.dpopKeyThumbprint, bound != tokenRequestProofThumbprint {
            let failure: DPoPProofFailure = tokenRequestProofThumbprint == nil ? .missingProof : .keyMismatch
            dpopProofFailures.append(failure)
            return oauthError("invalid_dpop_proof", description: "the code is bound to another key (dpop_jkt)", url: url)
        }
        guard !issued.used else {
            // A replayed code: revoke what it issued (RFC 6749 §4.1.2).
            if let family = issued.family { revokedFamilies.insert(family) }
            return oauthError("invalid_grant", description: "code already used", url: url)
        }
        issued.used = true
        codes[code] = issued
        guard issued.clientID == client.id, issued.redirectURI == form["redirect_uri"], issued.expiresAt > clock.now()
        else { return oauthError("invalid_grant", url: url) }
        let verified =
            issued.challenge.map { challenge in form["code_verifier"].map { PKCE.challenge(for: Secret($0)) == challenge } ?? false }
            ?? (form["code_verifier"] == nil)  // without a challenge, a verifier proves nothing and is refused
        guard verified else {
            return oauthError("invalid_grant", description: "PKCE verification failed", url: url)
        }
        let family = issue("family")
        codes[code]?.family = family
        familyClaims[family] = issued.extraClaims
        familyParameters[family] = issued.parameters
        return tokenResponse(
            client: client, scope: issued.scope, family: family, nonce: issued.nonce, issuesDeviceSecret: true,
            includeRefresh: configuration.issuesRefreshTokens
                && configuration.refreshTokenRequiresScope.map { issued.scope.split(separator: " ").contains(Substring($0)) } ?? true
                && configuration.quirks.issuesRefreshToken?(issued.parameters) ?? true,
            url: url
        )
    }

    private func redeemRefreshToken(_ form: [String: String], client: Client, url: URL) -> (Data, HTTPResponse) {
        guard let token = form["refresh_token"], var record = refreshTokens[token], record.clientID == client.id else {
            return oauthError("invalid_grant", url: url)
        }
        guard !revokedFamilies.contains(record.family) else { return oauthError("invalid_grant", url: url) }
        // Checked before the token counts as used: a refused proof spends nothing.
        if let bound = record.dpopKeyThumbprint, bound != tokenRequestProofThumbprint {
            let failure: DPoPProofFailure = tokenRequestProofThumbprint == nil ? .missingProof : .keyMismatch
            dpopProofFailures.append(failure)
            return oauthError("invalid_dpop_proof", description: "the refresh token is bound to another key", url: url)
        }
        if record.used {
            refreshTokenReuseDetected = true
            revokedFamilies.insert(record.family)
            return oauthError("invalid_grant", description: "refresh token reuse detected", url: url)
        }
        if configuration.rotatesRefreshTokens {
            record.used = true
            refreshTokens[token] = record
        }
        return tokenResponse(
            client: client,
            scope: form["scope"] ?? record.scope,
            family: record.family,
            nonce: nil,
            includeRefresh: configuration.rotatesRefreshTokens && !behavior.omitsRefreshTokenOnRefresh,
            url: url
        )
    }

    func tokenResponse(
        client: Client,
        scope: String,
        family: String,
        nonce: String?,
        issuesDeviceSecret: Bool = false,
        includeRefresh: Bool,
        extraMembers: [String: JSONValue] = [:],
        url: URL
    ) -> (Data, HTTPResponse) {
        let now = clock.now()
        let accessToken = issue("at")
        // A proof binds the tokens to its key, unless the provider is set to ignore it (a hostile server).
        let boundTo = behavior.issuesBearerDespiteDPoP ? nil : tokenRequestProofThumbprint
        accessTokens[accessToken] = AccessRecord(
            subject: user.subject,
            clientID: client.id,
            scope: scope,
            family: family,
            expiresAt: now.addingTimeInterval(configuration.accessTokenLifetime),
            dpopKeyThumbprint: boundTo
        )
        var body: [String: JSONValue] = [
            "access_token": .string(accessToken),
            "token_type": boundTo == nil ? "Bearer" : "DPoP",
            "expires_in": .number(configuration.accessTokenLifetime),
            "scope": .string(scope)
        ]
        if includeRefresh {
            let refreshToken = issue("rt")
            // RFC 9449 §5: a public client's refresh token is bound to the key; a confidential client's is not.
            let isPublic = client.secret == nil && client.publicKey == nil
            refreshTokens[refreshToken] = RefreshRecord(
                clientID: client.id, scope: scope, family: family, dpopKeyThumbprint: isPublic ? boundTo : nil
            )
            body["refresh_token"] = .string(refreshToken)
        }
        if scope.split(separator: " ").contains("openid") {
            var extra = familyClaims[family] ?? [:]
            // The provider's session id (OpenID Connect Front- and Back-Channel Logout): one per sign-in.
            extra["sid"] = extra["sid"] ?? .string("sid-" + family)
            // Native SSO §3.1–3.2: a device secret for `device_sso`, bound to the ID token by `ds_hash`.
            if issuesDeviceSecret, let deviceSecret = issueDeviceSecret(client: client, scope: scope, family: family) {
                body["device_secret"] = .string(deviceSecret)
                extra["ds_hash"] = .string(IDTokenValidator.accessTokenHash(Secret(deviceSecret), algorithm: configuration.signingAlgorithm))
            }
            var idToken = makeIDToken(clientID: client.id, nonce: nonce, accessToken: accessToken, extraClaims: extra, now: now)
            issuedSecrets.append(idToken)
            if let encryption = behavior.idTokenEncryption {
                idToken = encryption.apply(Data(idToken.utf8), contentType: "JWT")
                issuedSecrets.append(idToken)
            }
            body["id_token"] = .string(idToken)
        }
        body.merge(extraMembers) { _, extra in extra }
        body.merge(behavior.tokenResponseOverrides) { _, override in override }
        for name in behavior.tokenResponseRemovals { body[name] = nil }
        // An exchange's answer (Native SSO's carries `issued_token_type`) takes the exchange's own overrides too.
        if extraMembers["issued_token_type"] != nil {
            for (name, value) in behavior.tokenExchangeOverrides { body[name] = value == .null ? nil : value }
        }
        return json(body, url: url, headers: ["Cache-Control": "no-store", "Pragma": "no-cache"])
    }

    /// Builds an ID token for the configured user, applying the behavior's claim, header and signing knobs.
    private func makeIDToken(clientID: String, nonce: String?, accessToken: String, extraClaims: [String: JSONValue], now: Date) -> String {
        let algorithm = configuration.signingAlgorithm
        let userClaims = configuration.quirks.idTokenIncludesUserClaims ? user.claims : [:]
        var claims: [String: JSONValue] = userClaims.merging(extraClaims) { _, extra in extra }
        claims["iss"] = .string(configuration.issuer.absoluteString)
        claims["sub"] = .string(user.subject)
        claims["aud"] = .string(clientID)
        claims["iat"] = .number(now.timeIntervalSince1970.rounded(.down))
        claims["exp"] = .number((now.timeIntervalSince1970 + configuration.idTokenLifetime).rounded(.down))
        // The user's authentication (with step-up settings: kept across refreshes), else this token's issue.
        claims["auth_time"] = extraClaims["auth_time"] ?? .number(now.timeIntervalSince1970.rounded(.down))
        claims["at_hash"] = .string(IDTokenValidator.accessTokenHash(Secret(accessToken), algorithm: algorithm))
        if let nonce { claims["nonce"] = .string(nonce) }
        claims.merge(behavior.idTokenClaimOverrides) { _, override in override }
        for name in behavior.idTokenClaimRemovals { claims[name] = nil }
        claims.merge(frontDesk?.idTokenClaimOverrides(now: now, provider: self) ?? [:]) { _, fault in fault }

        let keys = behavior.signing == .rotatedKey ? TestSigningKeys.rotated : TestSigningKeys.primary
        var header: [String: JSONValue] = [
            "alg": .string(algorithm.rawValue), "kid": .string(keys.keyID(for: algorithm)), "typ": "JWT"
        ]
        switch behavior.signing {
        case .unsigned: header["alg"] = "none"
        case .hmacWithRSAPublicKey: header["alg"] = "HS256"
        default: break
        }
        header.merge(behavior.idTokenHeaderOverrides) { _, override in override }
        for name in behavior.idTokenHeaderRemovals { header[name] = nil }

        let signing = behavior.signing
        return TestJWT.make(header: header, claims: claims) { input in
            switch signing {
            case .honest, .rotatedKey: return keys.sign(input, algorithm: algorithm)
            case .unsigned: return Data()
            case .hmacWithRSAPublicKey: return TestJWT.hmacSHA256(input, key: keys.rsaPublicKeyDER)
            case .corruptSignature: return keys.sign(input + Data("tampered".utf8), algorithm: algorithm)
            case .ecdsaZeroR: return Data(count: 32) + keys.sign(input, algorithm: .es256).suffix(32)
            case .ecdsaZeroS: return keys.sign(input, algorithm: .es256).prefix(32) + Data(count: 32)
            }
        }
    }
}
