package import Foundation
package import HTTPTypes

/// The seam a module that adds a grant (AuthDeviceFlow's RFC 8628 device grant) builds on: the client's own
/// authenticated POST, token endpoint, instrumentation and identity gate, so a grant outside AuthCore ends exactly as
/// the code flow does and adds no public declarations here.
extension AuthClient {
    /// POSTs `parameters` to one of the provider's endpoints with this client's authentication (secret, assertion or
    /// none, as the registration says), then `extraParameters`, and returns the JSON object it answered.
    ///
    /// - Throws: the errors of the token endpoint's client authentication and of the provider's HTTP answers
    ///   (`OAuthErrorResponse`), or `invalid_response` for an answer that is not a JSON object.
    package func postAuthenticatedForm(
        _ url: URL,
        endpoint: String,
        parameters: [(String, String)],
        extraParameters: [(String, String)] = [],
        metadata: ProviderMetadata,
        what: String
    ) async throws -> [String: JSONValue] {
        var form = parameters
        var headers: [String: String] = [:]
        try tokenEndpoint.authenticateClient(parameters: &form, headers: &headers, metadata: metadata, destination: url)
        form += extraParameters
        let data = try await providerHTTP.postForm(url, endpoint: endpoint, parameters: form, headers: headers)
        return try providerHTTP.decodeObject(data, what: what)
    }

    /// POSTs a token request of a grant this engine does not parse itself (RFC 8693 token exchange, whose answer may
    /// carry a token that is not an access token, `token_type` `N_A`) to the token endpoint, with the client's
    /// authentication and, with `dpopKey`, a DPoP proof per attempt and the one `use_dpop_nonce` retry (RFC 9449 §8);
    /// returns the members of the successful answer. An OAuth error in the answer is thrown as for every grant.
    package func postTokenRequest(_ parameters: [(String, String)], metadata: ProviderMetadata, dpopKey: DPoPKey?) async throws -> [String: JSONValue] {
        try await tokenEndpoint.post(metadata.tokenEndpoint, dpopKey: dpopKey) { [tokenEndpoint] in
            var form = parameters
            var headers: [String: String] = [:]
            try tokenEndpoint.authenticateClient(parameters: &form, headers: &headers, metadata: metadata, destination: metadata.tokenEndpoint)
            return (form, headers)
        }
    }

    /// Reads members ``postTokenRequest(_:metadata:dpopKey:)`` returned as a token response (RFC 6749 §5.1), its token
    /// type checked against `dpopKey` as for every grant: a bearer token where a proof was sent is `dpop_not_bound`.
    package func tokenResponse(from members: [String: JSONValue], dpopKey: DPoPKey?) throws -> TokenResponse {
        let tokens = try TokenResponse(members: members, tokenTypeWhenAbsent: provider.behavior.tokenTypeWhenAbsent)
        try tokenEndpoint.checkTokenBinding(tokens, dpopKey: dpopKey)
        return tokens
    }

    /// Sends `request` with a token that is not the session's own (an exchanged token, RFC 8693): `Bearer`, or for a
    /// token bound to `dpopKey` `DPoP` with a proof carrying `ath` (RFC 9449 §7), retried once with a server's nonce.
    package func send(_ request: HTTPRequest, body: Data?, presenting token: Secret, dpopKey: DPoPKey?) async throws -> (Data, HTTPResponse) {
        do {
            return try await sendAuthorized(request, body: body, accessToken: token, dpopKey: dpopKey) { try await self.transport.send($0, body: $1) }
        } catch let error as AuthError {
            throw error.attributed(to: provider.id)
        } catch {
            throw AuthError(
                .network, "The request to \(request.url?.host ?? "the server") failed; check the network connection.", providerID: provider.id, underlying: error)
        }
    }

    /// The token endpoint's answer to `grant`, bound to `dpopKey` when the provider uses DPoP.
    package func requestTokens(_ grant: TokenGrant, metadata: ProviderMetadata, dpopKey: DPoPKey?) async throws -> TokenResponse {
        try await tokenEndpoint.request(grant, metadata: metadata, dpopKey: dpopKey)
    }

    /// Runs a grant's sign-in as one entrance: instrumented as a sign-in, its errors attributed to the provider and
    /// logged once as `signin.failed`.
    package func grantSignIn(_ body: @Sendable () async throws -> Session) async throws -> Session {
        try await instrumented(.signIn) { try await self.signInEntrance(body) }
    }

    /// Admits the tokens a grant without a nonce brought (the device grant sends none): the ID token verified in full
    /// but for the nonce; without one, for an `openid` request, the subject from the user info endpoint (RFC 8628
    /// defines no ID token and some servers, django-oauth-toolkit among them, send none), so later ID tokens must
    /// name it. Then the identity gate: the provider's rule, the credential, storage, the `signedIn` event.
    package func admitGrantedTokens(
        _ tokens: TokenResponse,
        grant: IdentityContext.Grant,
        metadata: ProviderMetadata,
        dpopKey: DPoPKey?,
        openIDRequested: Bool,
        completion: String
    ) async throws -> Session {
        var claims: IDTokenClaims?
        var subject: String?
        if let idToken = tokens.idToken {
            claims = try await idTokenVerifier.verify(idToken, nonce: nil, accessToken: tokens.accessToken, metadata: metadata)
        } else if openIDRequested, metadata.userinfoEndpoint != nil {
            guard let info = try await userInfo(accessToken: tokens.accessToken, dpopKey: dpopKey, subject: nil).0 else {
                throw AuthError(.httpError, "The user info endpoint refused the new access token (HTTP 401).", httpStatus: 401)
            }
            subject = info.subject
            log(.notice, "signin.no_id_token", "The provider sent no ID token; the subject comes from user info.", ["grant": grant.rawValue])
        }
        return try await admit(
            SignInEvidence(grant: grant, tokens: tokens, claims: claims, metadata: metadata, subject: subject, dpopKey: dpopKey, completion: completion)
        )
    }
}
