public import Foundation
import HTTPTypes

/// The result of RFC 7662 token introspection.
public struct IntrospectionResult: Sendable {
    /// Whether the token is active.
    public let isActive: Bool
    /// The token's scopes, when stated.
    public let scope: String?
    /// The client the token was issued to, when stated.
    public let clientID: String?
    /// The subject, when stated.
    public let subject: String?
    /// When the token expires, when stated.
    public let expiresAt: Date?
    /// Every member of the response.
    public let all: [String: JSONValue]
}

/// Claims from the user info endpoint; `sub` has been checked against the ID token's.
public struct UserInfoClaims: Sendable {
    /// `sub`.
    public let subject: String
    /// Every claim.
    public let claims: [String: JSONValue]

    /// The claim named `name`.
    public subscript(name: String) -> JSONValue? { claims[name] }

    /// Claims as a user info response carries them (for decoding tests and stand-ins; the engine builds these only
    /// after checking `sub`).
    package init(subject: String, claims: [String: JSONValue]) {
        self.subject = subject
        self.claims = claims
    }
}

extension AuthClient {
    /// A stream of events for every account of this client (signed in, refreshed, refresh failed, signed out).
    ///
    /// Each call returns a new stream; it ends when the consumer stops iterating.
    public func events() async -> AsyncStream<AuthEvent> {
        await eventHub.subscribe()
    }

    /// The stored accounts of this client, most recently updated first.
    public func accounts() async throws -> [Credential] {
        let metadata = try await metadata()
        var credentials: [Credential] = []
        for key in try await storage.storedKeys()
        where key.providerID == provider.id && key.issuer == metadata.issuer && key.clientID == provider.client.clientID {
            if let credential = try? await storage.credential(for: key) { credentials.append(credential) }
        }
        return credentials.sorted { $0.updatedAt > $1.updatedAt }
    }

    /// Revokes `token` at the provider's RFC 7009 endpoint, with the right `token_type_hint` and client
    /// authentication, form-encoded.
    ///
    /// - Throws: `endpoint_unavailable` when the provider has no revocation endpoint; transport and HTTP errors.
    public func revoke(_ token: Secret, hint: TokenTypeHint) async throws {
        try await instrumented(.revocation) { try await self.revokeOperation(token, hint: hint) }
    }

    private func revokeOperation(_ token: Secret, hint: TokenTypeHint) async throws {
        let metadata = try await metadata()
        guard let endpoint = metadata.revocationEndpoint else {
            throw AuthError(.endpointUnavailable, "The provider has no revocation endpoint.", providerID: provider.id)
        }
        var parameters: [(String, String)] = [("token", token.reveal()), ("token_type_hint", hint.rawValue)]
        var headers: [String: String] = [:]
        try tokenEndpoint.authenticateClient(parameters: &parameters, headers: &headers, metadata: metadata, destination: endpoint)
        _ = try await providerHTTP.postForm(endpoint, endpoint: "revocation_endpoint", parameters: parameters, headers: headers)
        log(.info, "token.revoked", "Token revoked.", ["hint": hint.rawValue])
    }

    /// Asks the provider's RFC 7662 endpoint whether `token` is active.
    ///
    /// - Throws: `endpoint_unavailable` when the provider has no introspection endpoint; `invalid_response` when
    ///   the answer has no boolean `active`.
    public func introspect(_ token: Secret, hint: TokenTypeHint = .accessToken) async throws -> IntrospectionResult {
        try await instrumented(.introspection) { try await self.introspectOperation(token, hint: hint) }
    }

    private func introspectOperation(_ token: Secret, hint: TokenTypeHint) async throws -> IntrospectionResult {
        let metadata = try await metadata()
        guard let endpoint = metadata.introspectionEndpoint else {
            throw AuthError(.endpointUnavailable, "The provider has no introspection endpoint.", providerID: provider.id)
        }
        var parameters: [(String, String)] = [("token", token.reveal()), ("token_type_hint", hint.rawValue)]
        var headers: [String: String] = [:]
        try tokenEndpoint.authenticateClient(parameters: &parameters, headers: &headers, metadata: metadata, destination: endpoint)
        let data = try await providerHTTP.postForm(endpoint, endpoint: "introspection_endpoint", parameters: parameters, headers: headers)
        let object = try providerHTTP.decodeObject(data, what: "introspection response")
        guard let active = object["active"]?.boolValue else {
            throw AuthError(.invalidResponse, "The introspection response has no boolean 'active'.", providerID: provider.id)
        }
        return IntrospectionResult(
            isActive: active,
            scope: object["scope"]?.stringValue,
            clientID: object["client_id"]?.stringValue,
            subject: object["sub"]?.stringValue,
            expiresAt: object["exp"]?.timestampValue,
            all: object
        )
    }

    /// The RP-initiated logout URL (OpenID Connect RP-Initiated Logout 1.0) for a credential.
    ///
    /// - Parameters:
    ///   - credential: the signed-in user's credential.
    ///   - postLogoutRedirectURI: where the provider sends the browser afterwards (must be registered).
    ///   - state: echoed back to the post-logout redirect.
    ///   - includingIDTokenHint: whether to put the raw ID token in `id_token_hint` (recommended when the URL goes
    ///     straight to a browser; pass `false` when it is shown to a person or written to a log — the `client_id`
    ///     alone still identifies the client).
    /// - Throws: `endpoint_unavailable` when the provider has no `end_session_endpoint`.
    package func endSessionURL(
        for credential: Credential,
        postLogoutRedirectURI: URL? = nil,
        state: String? = nil,
        includingIDTokenHint: Bool = true
    ) async throws -> URL {
        let metadata = try await metadata()
        guard let endpoint = metadata.endSessionEndpoint else {
            throw AuthError(.endpointUnavailable, "The provider has no end-session endpoint.", providerID: provider.id)
        }
        var parameters: [(String, String)] = []
        if includingIDTokenHint, let idToken = credential.idToken { parameters.append(("id_token_hint", idToken.reveal())) }
        parameters.append(("client_id", provider.client.clientID))
        if let postLogoutRedirectURI { parameters.append(("post_logout_redirect_uri", postLogoutRedirectURI.absoluteString)) }
        if let state { parameters.append(("state", state)) }
        return endpoint.appendingQuery(parameters)
    }

    /// Fetches user info with `accessToken` (bound to `dpopKey` when given) and checks that its `sub` is `subject`
    /// (OpenID Connect Core §5.3.2).
    func userInfo(accessToken: Secret, dpopKey: DPoPKey?, subject: String?) async throws -> (UserInfoClaims?, status: Int) {
        let metadata = try await metadata()
        guard let endpoint = metadata.userinfoEndpoint else {
            throw AuthError(.endpointUnavailable, "The provider has no user info endpoint.", providerID: provider.id, endpoint: "userinfo_endpoint")
        }
        var request = HTTPRequest(method: .get, url: endpoint)
        let client = provider.client
        let protected = client.userInfoSigningAlgorithm != nil || client.userInfoEncryption != nil
        request.headerFields[.accept] = protected ? "application/jwt, application/json;q=0.5" : "application/json"
        let http = providerHTTP
        let (data, response) = try await sendAuthorized(request, body: nil, accessToken: accessToken, dpopKey: dpopKey) {
            try await http.send($0, body: $1, endpoint: "userinfo_endpoint")
        }
        if response.status == .unauthorized { return (nil, 401) }
        guard response.status.kind == .successful else {
            throw http.error(for: response, body: data)
        }
        let claims = try await userInfoClaims(data, response: response, metadata: metadata)
        guard let claimed = claims["sub"]?.stringValue, !claimed.isEmpty else {
            throw AuthError(.missingClaim, "The user info response has no 'sub'.", providerID: provider.id)
        }
        if let subject, claimed != subject {
            throw AuthError(.subjectMismatch, "The user info belongs to another subject than the signed-in user.", providerID: provider.id)
        }
        return (UserInfoClaims(subject: claimed, claims: claims), response.status.code)
    }
}

/// The RFC 7009 / RFC 7662 `token_type_hint`.
public enum TokenTypeHint: String, Sendable {
    /// `access_token`.
    case accessToken = "access_token"
    /// `refresh_token`.
    case refreshToken = "refresh_token"
}
