package import AuthCore
import Foundation

// OAuth 2.0 Token Exchange (RFC 8693) and OpenID Connect Native SSO for Mobile Apps 1.0 (draft 07) at the token
// endpoint, as strict as they are written: the token types, the audience, the scope, the device secret and its session.
extension TestIdentityProvider {
    /// `urn:ietf:params:oauth:grant-type:token-exchange` (RFC 8693 §2.1).
    public static let tokenExchangeGrantType = "urn:ietf:params:oauth:grant-type:token-exchange"
    static let accessTokenType = "urn:ietf:params:oauth:token-type:access_token"
    static let idTokenType = "urn:ietf:params:oauth:token-type:id_token"
    static let jwtType = "urn:ietf:params:oauth:token-type:jwt"
    static let deviceSecretType = "urn:x-oath:params:oauth:token-type:device-secret"

    /// What the token endpoint exchanges.
    public struct TokenExchangeSettings: Sendable {
        /// The `audience` and `resource` values the server issues tokens for; any other is `invalid_target`
        /// (RFC 8693 §2.2.2).
        public var audiences: [String]
        /// The app families of Native SSO: the client ids in one list share a sign-in (a `device_sso` sign-in of one
        /// gets a device secret; the others may present it, §4.3 step 5). Empty: no Native SSO.
        public var nativeSSOFamilies: [[String]]

        /// Creates settings.
        public init(audiences: [String] = ["https://api.example.test"], nativeSSOFamilies: [[String]] = []) {
            self.audiences = audiences
            self.nativeSSOFamilies = nativeSSOFamilies
        }
    }

    struct DeviceSecretRecord {
        /// The sign-in (refresh family) whose session the secret belongs to: revoking it ends the secret (§4.3 step 4).
        let family: String
        let familyClients: [String]
        let subject: String
        let scope: String
    }

    /// A device secret for a `device_sso` sign-in of a client in a Native SSO family (§3.2), or `nil`.
    func issueDeviceSecret(client: Client, scope: String, family: String) -> String? {
        let scopes = scope.split(separator: " ")
        guard scopes.contains("device_sso"), let members = configuration.tokenExchange?.nativeSSOFamilies.first(where: { $0.contains(client.id) }) else {
            return nil
        }
        let secret = issue("ds")
        deviceSecrets[secret] = DeviceSecretRecord(family: family, familyClients: members, subject: user.subject, scope: scope)
        issuedSecrets.append(secret)
        return secret
    }

    /// The token exchange grant: Native SSO when the actor is a device secret, else a plain RFC 8693 exchange.
    func redeemTokenExchange(_ request: CapturedRequest, form: [String: String], client: Client, url: URL) -> (Data, HTTPResponse) {
        let body = request.httpBody.flatMap { String(data: $0, encoding: .utf8) } ?? ""
        // RFC 8693 §2.1 allows several `audience` and `resource` parameters.
        let formValues = { (name: String) in FormEncoding.decode(body).filter { $0.0 == name }.map(\.1) }
        guard let subjectToken = form["subject_token"], let subjectType = form["subject_token_type"] else {
            return refuseExchange("invalid_request", "subject_token and subject_token_type are required", url: url)
        }
        // RFC 8693 §2.1: actor_token_type is REQUIRED with an actor_token, and not sent without one.
        guard (form["actor_token"] == nil) == (form["actor_token_type"] == nil) else {
            return refuseExchange("invalid_request", "actor_token and actor_token_type go together", url: url)
        }
        if form["actor_token_type"] == Self.deviceSecretType {
            return nativeSSO(form, audience: formValues("audience"), subjectToken: subjectToken, subjectType: subjectType, client: client, url: url)
        }
        let subject: AccessRecord
        switch subjectType {
        case Self.accessTokenType:
            guard let record = accessTokens[subjectToken], record.expiresAt > clock.now(), !revokedFamilies.contains(record.family) else {
                return refuseExchange("invalid_grant", "unknown or expired subject_token", url: url)
            }
            subject = record
        default:
            return refuseExchange("invalid_request", "unsupported subject_token_type", url: url)
        }
        let requested = form["requested_token_type"] ?? Self.accessTokenType
        guard [Self.accessTokenType, Self.jwtType].contains(requested) else {
            return refuseExchange("invalid_request", "unsupported requested_token_type", url: url)
        }
        let targets = formValues("audience") + formValues("resource")
        let known = configuration.tokenExchange?.audiences ?? []
        guard targets.allSatisfy(known.contains) else {
            return refuseExchange("invalid_target", "unknown audience or resource", url: url)
        }
        let granted = form["scope"] ?? subject.scope
        guard Set(granted.split(separator: " ")).isSubset(of: Set(subject.scope.split(separator: " "))) else {
            return refuseExchange("invalid_scope", "scope beyond the subject token's", url: url)
        }
        let now = clock.now()
        let lifetime = min(configuration.accessTokenLifetime, subject.expiresAt.timeIntervalSince(now).rounded(.down))
        var claims: [String: JSONValue] = [
            "iss": .string(configuration.issuer.absoluteString), "sub": .string(subject.subject), "client_id": .string(client.id),
            "aud": targets.isEmpty ? .string(client.id) : .array(targets.map(JSONValue.string)), "scope": .string(granted),
            "iat": .number(now.timeIntervalSince1970.rounded(.down)), "exp": .number((now.timeIntervalSince1970 + lifetime).rounded(.down)),
            "jti": .string(issue("jti"))
        ]
        if let actor = form["actor_token"] { claims["act"] = ["sub": .string(accessTokens[actor]?.subject ?? "actor")] }
        let boundTo = behavior.issuesBearerDespiteDPoP ? nil : tokenRequestProofThumbprint
        if let boundTo { claims["cnf"] = ["jkt": .string(boundTo)] }
        let algorithm = configuration.signingAlgorithm
        let keys = TestSigningKeys.primary
        let token = TestJWT.make(
            header: ["alg": .string(algorithm.rawValue), "kid": .string(keys.keyID(for: algorithm)), "typ": requested == Self.jwtType ? "JWT" : "at+jwt"],
            claims: claims
        ) { keys.sign($0, algorithm: algorithm) }
        issuedSecrets.append(token)
        if requested == Self.accessTokenType {
            accessTokens[token] = AccessRecord(
                subject: subject.subject, clientID: client.id, scope: granted, family: subject.family, expiresAt: now.addingTimeInterval(lifetime),
                dpopKeyThumbprint: boundTo)
        }
        // RFC 8693 §2.2.1: issued_token_type REQUIRED; token_type N_A for a token that is not an access token.
        var answer: [String: JSONValue] = [
            "access_token": .string(token), "issued_token_type": .string(requested),
            "token_type": requested == Self.jwtType ? "N_A" : (boundTo == nil ? "Bearer" : "DPoP"),
            "expires_in": .number(lifetime), "scope": .string(granted)
        ]
        answer.merge(behavior.tokenResponseOverrides) { _, override in override }
        for name in behavior.tokenResponseRemovals { answer[name] = nil }
        for (name, value) in behavior.tokenExchangeOverrides { answer[name] = value == .null ? nil : value }
        return json(answer, url: url, headers: ["Cache-Control": "no-store", "Pragma": "no-cache"])
    }

    /// Native SSO §4: the family's ID token and device secret for tokens of another app of the family (§4.3).
    private func nativeSSO(_ form: [String: String], audience: [String], subjectToken: String, subjectType: String, client: Client, url: URL) -> (Data, HTTPResponse) {
        guard subjectType == Self.idTokenType else { return refuseExchange("invalid_request", "the subject of Native SSO is an ID token", url: url) }
        guard form["requested_token_type"] == nil || form["requested_token_type"] == Self.accessTokenType else {
            return refuseExchange("invalid_request", "unsupported requested_token_type", url: url)
        }
        // §4.1: audience is the issuer.
        guard audience == [configuration.issuer.absoluteString] else {
            return refuseExchange("invalid_target", "the audience of Native SSO is the issuer", url: url)
        }
        // §4.3 step 1: a device secret this server issued.
        guard let deviceSecret = form["actor_token"], let record = deviceSecrets[deviceSecret] else {
            return refuseExchange("invalid_grant", "unknown device secret", url: url)
        }
        // §4.3 step 2–3: an ID token this server issued, whose ds_hash is the device secret's (it may have expired).
        guard issuedSecrets.contains(subjectToken), let claims = Self.payload(of: subjectToken),
            claims["ds_hash"]?.stringValue == IDTokenValidator.accessTokenHash(Secret(deviceSecret), algorithm: configuration.signingAlgorithm),
            claims["sub"]?.stringValue == record.subject
        else { return refuseExchange("invalid_grant", "the ID token is not the device secret's", url: url) }
        // §4.3 step 4: the session the secret belongs to is still valid.
        guard !revokedFamilies.contains(record.family) else { return refuseExchange("invalid_grant", "the device secret's session ended", url: url) }
        // §4.3 step 5: the requesting client and the ID token's audience are of the same family.
        guard record.familyClients.contains(client.id), let audience = claims["aud"]?.stringValue, record.familyClients.contains(audience) else {
            return refuseExchange("invalid_grant", "the client is not of the device secret's app family", url: url)
        }
        // §4.3 step 6: no more scope than the shared sign-in's.
        let scope = form["scope"] ?? record.scope
        guard Set(scope.split(separator: " ")).isSubset(of: Set(record.scope.split(separator: " "))) else {
            return refuseExchange("invalid_scope", "scope beyond the shared sign-in's", url: url)
        }
        let family = issue("family")
        // The new app's tokens belong to the same provider session (`sid`).
        familyClaims[family] = ["sid": claims["sid"] ?? .string("sid-" + record.family)]
        familyParameters[family] = ["scope": scope]
        return tokenResponse(
            client: client, scope: scope, family: family, nonce: nil, includeRefresh: configuration.issuesRefreshTokens,
            extraMembers: ["issued_token_type": .string(Self.accessTokenType)], url: url)
    }

    private func refuseExchange(_ error: String, _ reason: String, url: URL) -> (Data, HTTPResponse) {
        tokenExchangeFailures.append(reason)
        return oauthError(error, description: reason, url: url)
    }

    package static func payload(of jwt: String) -> [String: JSONValue]? {
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = Base64URL.decode(parts[1]) else { return nil }
        return try? JSONValue.parseObject(data)
    }
}
