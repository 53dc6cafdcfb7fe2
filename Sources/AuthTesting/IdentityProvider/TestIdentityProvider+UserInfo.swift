import AuthCore
import Foundation

// User info and the protected API: the endpoints that accept the issued access tokens (bearer or DPoP-bound).
extension TestIdentityProvider {
    /// User info: the claims of the access token's subject, for a token whose scope has `openid`.
    func userInfo(_ request: CapturedRequest, url: URL) -> (Data, HTTPResponse) {
        let record: AccessRecord
        switch presentedAccessToken(request, url: url) {
        case .success(let presented) where presented.scope.contains("openid"): record = presented
        case .success: return invalidToken(url: url, tokenPresented: true)
        case .failure(let refusal): return refusal.response
        }
        var claims = record.subject == user.subject ? user.claims : [:]
        claims["sub"] = .string(record.subject)
        if let shape = configuration.quirks.userInfo { claims = shape(record.subject, claims, familyParameters[record.family] ?? [:]) }
        claims.merge(behavior.userInfoOverrides) { _, override in override }
        guard let protection = behavior.userInfoProtection else { return json(claims, url: url) }
        return protectedUserInfo(claims, clientID: record.clientID, protection: protection, url: url)
    }

    /// A user info answer as OpenID Connect Core §5.3.2 describes a signed and/or encrypted one: a JWT signed with the
    /// provider's key (with `iss` and `aud`), then encrypted, served as `application/jwt`.
    private func protectedUserInfo(_ claims: [String: JSONValue], clientID: String, protection: Behavior.ResponseProtection, url: URL) -> (Data, HTTPResponse) {
        var plaintext = (try? JSONValue.object(claims).jsonData()) ?? Data()
        if protection.signsUserInfo {
            var signed = claims
            signed["iss"] = signed["iss"] ?? .string(configuration.issuer.absoluteString)
            signed["aud"] = signed["aud"] ?? .string(clientID)
            let algorithm = configuration.signingAlgorithm
            let keys = TestSigningKeys.primary
            var header: [String: JSONValue] = ["alg": .string(algorithm.rawValue), "kid": .string(keys.keyID(for: algorithm)), "typ": "JWT"]
            if protection.unsignedUserInfo { header = ["alg": "none"] }
            let token = TestJWT.make(header: header, claims: signed) { protection.unsignedUserInfo ? Data() : keys.sign($0, algorithm: algorithm) }
            plaintext = Data(token.utf8)
        }
        let body = protection.apply(plaintext, contentType: protection.signsUserInfo ? "JWT" : nil)
        return (Data(body.utf8), .make(status: 200, headers: ["Content-Type": "application/jwt", "Cache-Control": "no-store"]))
    }

    /// A protected API: 200 with the caller's subject for an active bearer token, else 401.
    func protectedResource(_ request: CapturedRequest, url: URL) -> (Data, HTTPResponse) {
        switch presentedAccessToken(request, url: url) {
        case .success(let record):
            var body: [String: JSONValue] = ["ok": true, "client_id": .string(record.clientID)]
            if let bound = record.dpopKeyThumbprint { body["jkt"] = .string(bound) }
            return json(body, url: url)
        case .failure(let refusal): return refusal.response
        }
    }

    /// The subject of the request's access token when it is active (and, for a DPoP-bound one, proven).
    func bearerSubject(_ request: CapturedRequest) -> String? {
        guard let url = request.url, case .success(let record) = presentedAccessToken(request, url: url) else { return nil }
        return record.subject
    }

    /// Why a protected request was refused, with the 401 to send.
    struct AccessRefusal: Error {
        let response: (Data, HTTPResponse)
    }

    /// The active access token of a protected request: `Authorization: Bearer` for a bearer token; for a DPoP-bound
    /// one `Authorization: DPoP` and a proof of the bound key over this method and URL with `ath` (RFC 9449 §7).
    func presentedAccessToken(_ request: CapturedRequest, url: URL) -> Result<AccessRecord, AccessRefusal> {
        let header = request.value(forHTTPHeaderField: "Authorization") ?? ""
        let (scheme, token) = header.firstIndex(of: " ").map { (header[..<$0].lowercased(), String(header[header.index(after: $0)...])) } ?? ("", "")
        guard let record = accessTokens[token], isActive(record) else {
            return .failure(AccessRefusal(response: invalidToken(url: url, tokenPresented: !header.isEmpty)))
        }
        guard let bound = record.dpopKeyThumbprint else {
            return scheme == "bearer" ? .success(record) : .failure(AccessRefusal(response: invalidToken(url: url, tokenPresented: true)))
        }
        // A bound token presented as a bearer token, or without a proof, is refused (RFC 9449 §7.2).
        guard scheme == "dpop", let proof = request.value(forHTTPHeaderField: "DPoP") else {
            dpopProofFailures.append(.missingProof)
            return .failure(AccessRefusal(response: resourceDPoPError(.missingProof, url: url)))
        }
        switch verifyDPoPProof(proof, method: request.httpMethod, url: url, accessToken: token) {
        case .success(let thumbprint) where thumbprint == bound: return .success(record)
        case .success:
            dpopProofFailures.append(.keyMismatch)
            return .failure(AccessRefusal(response: resourceDPoPError(.keyMismatch, url: url)))
        case .failure(let failure): return .failure(AccessRefusal(response: resourceDPoPError(failure, url: url)))
        }
    }

    private func invalidToken(url: URL, tokenPresented: Bool) -> (Data, HTTPResponse) {
        if let answer = configuration.quirks.unauthorizedAnswer?(tokenPresented) {
            return (answer.body, .make(status: 401, headers: ["WWW-Authenticate": answer.wwwAuthenticate]))
        }
        return json(["error": "invalid_token"], status: 401, url: url, headers: ["WWW-Authenticate": "Bearer error=\"invalid_token\""])
    }

    /// Whether an access token is neither expired nor of a revoked family.
    func isActive(_ record: AccessRecord) -> Bool {
        record.expiresAt > clock.now() && !revokedFamilies.contains(record.family)
    }
}
