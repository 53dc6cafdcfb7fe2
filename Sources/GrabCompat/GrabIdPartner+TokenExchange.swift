import AuthAppSupport
import AuthCore
import AuthGrab
import Foundation

// The code exchange of a Grab login: the vendor's request shape, and the ID token vouched for — on the device when the
// discovery document allows it, else by Grab's own verification endpoint — before anything is stored.
extension GrabIdPartner {
    /// The vendor's `exchangeToken`, with the checks it lacked: the redirect is validated (exact URI, single-use
    /// `state`, `iss`), the code redeemed with parameters in the URL query, and the ID token vouched for before
    /// anything is stored.
    ///
    /// The ID token is validated on the device when the discovery document names `issuer` and `jwks_uri`. Without
    /// them, or when the token's shape differs from what local validation expects (an `aud` or `iss` other than the
    /// configuration's), Grab's own `id_token_verification_endpoint` decides, as the vendor's `getIdTokenInfo` asks
    /// it: the token came straight from Grab's token endpoint over TLS, and that endpoint is Grab's word on it. A
    /// refusal there, a nonce that is not this login's, or a bad signature fails the login and stores nothing.
    func exchange(_ callback: URL, request: AuthorizationRequest, client: AuthClient) async throws -> Session {
        let authorization = try await client.completeAuthorization(redirect: callback)
        let metadata = try await client.metadata()
        let nonce = FormEncoding.decode(request.url.query ?? "").first { $0.0 == "nonce" }?.1
        let tokens = try await redeem(authorization, metadata: metadata, client: client)
        var verifiedInfo: [String: JSONValue]?
        var localClaims: IDTokenClaims?
        let subject: String
        if GrabProvider.validatesIDTokenLocally(metadata) {
            do {
                let claims = try await client.verifyIDToken(tokens.idToken, nonce: nonce)
                try Self.checkAccessTokenHash(claims, idToken: tokens.idToken, accessToken: tokens.accessToken)
                (localClaims, subject) = (claims, claims.subject)
            } catch let error as AuthError where Self.shapeCodes.contains(error.code) {
                client.log(
                    .notice, "grab.id_token.verified_remotely", "The ID token's shape differs from local validation's; Grab's verification endpoint decides.",
                    ["code": error.code.rawValue])
                let info = try await verifyAtGrab(tokens.idToken, nonce: nonce, metadata: metadata, client: client)
                (verifiedInfo, subject) = (info.claims, info.subject)
            }
        } else {
            client.log(.info, "grab.id_token.verified_remotely", "The discovery document names no issuer or jwks_uri; Grab's verification endpoint vouches for the ID token.")
            let info = try await verifyAtGrab(tokens.idToken, nonce: nonce, metadata: metadata, client: client)
            (verifiedInfo, subject) = (info.claims, info.subject)
        }
        // The vendor's token request and verification, then the engine's one ending of a sign-in (the provider's
        // identity rule, its identity, storage, the signedIn event), as for every other way in.
        let redeemed = TokenResponse(
            accessToken: tokens.accessToken, tokenType: tokens.tokenType, expiresIn: tokens.expiresIn, refreshToken: tokens.refreshToken,
            idToken: tokens.idToken, scope: tokens.scope?.joined(separator: " "))
        let session = try await client.admitVerifiedTokens(
            redeemed, claims: localClaims, subject: subject, metadata: metadata,
            annotations: [Self.scopeAnnotation: GrabVendorSession.scopeKey(GrabVendorSession.configuration(of: client) ?? configuration)])
        if let verifiedInfo { await cache(verifiedInfo, in: session) }
        return session
    }

    /// Local validation's failures that mean "another shape", not "forged": Grab's endpoint may still vouch for it.
    static let shapeCodes: Set<AuthError.Code> = [.invalidAudience, .invalidIssuer, .invalidAuthorizedParty]

    /// `at_hash`, when the ID token has one (the engine's sign-in checks it; `verifyIDToken` has no access token).
    static func checkAccessTokenHash(_ claims: IDTokenClaims, idToken: Secret, accessToken: Secret) throws {
        guard let expected = claims.all["at_hash"] else { return }
        guard let algorithm = JWSAlgorithm(rawValue: try CompactJWS(parsing: idToken.reveal()).header.algorithm) else {
            throw AuthError(.unsupportedAlgorithm, "The ID token's algorithm is not one this SDK knows.", providerID: GrabProvider.id)
        }
        guard expected.stringValue == IDTokenValidator.accessTokenHash(accessToken, algorithm: algorithm) else {
            throw AuthError(.accessTokenHashMismatch, "The ID token's 'at_hash' does not match the access token.", providerID: GrabProvider.id)
        }
    }

    /// What Grab's token endpoint answered, with the members the vendor required (`refresh_token` optional).
    struct GrabTokens {
        var accessToken: Secret
        var tokenType: String
        var expiresIn: TimeInterval
        var idToken: Secret
        var refreshToken: Secret?
        var scope: [String]?
    }

    /// `POST <token_endpoint>?client_id&grant_type&redirect_uri&code_verifier&code` with no body, as the vendor's
    /// `GrabApi.fetchToken`. Any non-2xx is `exchangeTokenServiceFailed` (the vendor's), with the OAuth `error`
    /// kept in the underlying `AuthError`; a token type other than Bearer is kept as Grab names it, as the vendor did.
    func redeem(_ authorization: AuthorizationCodeResult, metadata: ProviderMetadata, client: AuthClient) async throws -> GrabTokens {
        guard let verifier = authorization.codeVerifier else {
            throw AuthError(.invalidConfiguration, "A Grab login is always requested with PKCE.", providerID: GrabProvider.id)
        }
        let url = metadata.tokenEndpoint.appendingQuery([
            ("client_id", client.provider.client.clientID), ("grant_type", "authorization_code"),
            ("redirect_uri", authorization.redirectURI.absoluteString), ("code_verifier", verifier.reveal()), ("code", authorization.code.reveal())
        ])
        var request = HTTPRequest(method: .post, url: url)
        request.headerFields.set("application/json", forName: "Accept")
        let (data, response) = try await send(request, client: client, unreachable: "Grab's token endpoint could not be reached.")
        let object = try? JSONValue.parseObject(data)
        let status = response.status.code
        guard (200..<300).contains(status) else {
            let oauthError = object?["error"]?.stringValue
            let code: AuthError.Code = oauthError == "invalid_grant" ? .invalidGrant : status >= 500 ? .serverError : .tokenRequestFailed
            throw AuthError(
                code, "Grab's token endpoint answered HTTP \(status)" + (oauthError.map { " '\($0)'" } ?? "") + ".",
                providerID: GrabProvider.id, oauthError: oauthError, httpStatus: status, endpoint: "token_endpoint")
        }
        func member(_ key: String) throws -> JSONValue {
            guard let value = object?[key], value != .null else {
                throw AuthError(.invalidResponse, "Grab's token response has no '\(key)'.", providerID: GrabProvider.id, endpoint: "token_endpoint")
            }
            return value
        }
        guard let accessToken = try member("access_token").stringValue, !accessToken.isEmpty,
            let tokenType = try member("token_type").stringValue, !tokenType.isEmpty,
            let idToken = try member("id_token").stringValue, !idToken.isEmpty
        else {
            throw AuthError(.invalidResponse, "Grab's token response has an empty or non-text token member.", providerID: GrabProvider.id, endpoint: "token_endpoint")
        }
        let expiry = try member("expires_in")
        guard let expiresIn = expiry.numberValue ?? expiry.stringValue.flatMap(Double.init), expiresIn.isFinite, expiresIn > 0, expiresIn < 1e9 else {
            throw AuthError(.invalidResponse, "Grab's token response has an unusable 'expires_in'.", providerID: GrabProvider.id, endpoint: "token_endpoint")
        }
        let refresh = object?["refresh_token"]?.stringValue.flatMap { $0.isEmpty ? nil : Secret($0) }
        let scope = object?["scope"]?.stringValue.map(ProviderConfiguration.words)
        return GrabTokens(
            accessToken: Secret(accessToken), tokenType: tokenType.lowercased() == "bearer" ? "Bearer" : tokenType,
            expiresIn: expiresIn, idToken: Secret(idToken), refreshToken: refresh, scope: scope)
    }

    /// Asks Grab's `id_token_verification_endpoint` about a new ID token (the vendor's `getIdTokenInfo` request).
    ///
    /// - Throws: `provider_validation_failed` when Grab does not answer 2xx (its "no"), `nonce_mismatch` when the
    ///   answer is for another login, `invalid_response` when it lacks a member, `network` when unreachable.
    func verifyAtGrab(_ idToken: Secret, nonce: String?, metadata: ProviderMetadata, client: AuthClient) async throws -> (claims: [String: JSONValue], subject: String) {
        guard let nonce else {
            throw AuthError(.nonceMismatch, "The Grab login was sent without a nonce, so its ID token cannot be tied to it.", providerID: GrabProvider.id)
        }
        let claims = try await fetchIdTokenInfo(
            idToken, nonce: nonce, clientId: client.provider.client.clientID, metadata: metadata, client: client,
            refusal: .providerValidationFailed)
        let info = try IdTokenInfo(verified: claims)
        guard info.nonce == nonce else {
            throw AuthError(.nonceMismatch, "Grab's verification of the ID token is for another login's nonce.", providerID: GrabProvider.id)
        }
        guard info.isValid(at: client.clock.now()), let subject = info.partnerUserId, !subject.isEmpty else {
            throw AuthError(
                .providerValidationFailed, "Grab's verification of the ID token says it is not valid now.", providerID: GrabProvider.id,
                endpoint: "id_token_verification_endpoint")
        }
        return (claims, subject)
    }

    /// `GET <verification endpoint>?client_id&id_token&nonce`; the JSON object of a 2xx answer. A non-2xx answer is
    /// `refusal` (`http_error` for getIdTokenInfo, `provider_validation_failed` during a login).
    func fetchIdTokenInfo(
        _ idToken: Secret, nonce: String, clientId: String, metadata: ProviderMetadata, client: AuthClient,
        refusal: AuthError.Code
    ) async throws -> [String: JSONValue] {
        guard let template = metadata.document["id_token_verification_endpoint"]?.stringValue, let endpoint = URL(string: template) else {
            throw AuthError(
                .endpointUnavailable, "Grab's service discovery has no id_token_verification_endpoint.",
                providerID: GrabProvider.id, endpoint: "id_token_verification_endpoint")
        }
        var request = HTTPRequest(method: .get, url: endpoint.appendingQuery([("client_id", clientId), ("id_token", idToken.reveal()), ("nonce", nonce)]))
        request.headerFields.set("no-cache", forName: "Cache-Control")
        let (data, response) = try await send(request, client: client, unreachable: "Grab's ID token verification could not be reached.")
        guard (200..<300).contains(response.status.code) else {
            throw AuthError(
                refusal, "Grab's ID token verification answered HTTP \(response.status.code).", providerID: GrabProvider.id,
                httpStatus: response.status.code, endpoint: "id_token_verification_endpoint")
        }
        guard let claims = try? JSONValue.parseObject(data) else {
            throw AuthError(
                .invalidResponse, "Grab's ID token verification did not answer with a JSON object.", providerID: GrabProvider.id,
                endpoint: "id_token_verification_endpoint")
        }
        return claims
    }

    /// Sends one of the requests Grab reads from the URL query (the code exchange, the ID token check), whose URLs
    /// carry secrets: a failure to reach Grab is `network` with `message`, without the transport's error, which may
    /// quote the URL.
    func send(_ request: HTTPRequest, client: AuthClient, unreachable message: String) async throws -> (Data, HTTPResponse) {
        do {
            return try await client.transport.send(request)
        } catch var error as AuthError {
            error.underlying = nil
            throw error
        } catch {
            throw AuthError(.network, message, providerID: GrabProvider.id)
        }
    }
}
