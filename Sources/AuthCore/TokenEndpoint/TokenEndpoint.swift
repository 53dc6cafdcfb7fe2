import Foundation
import HTTPTypes

/// The provider's token endpoint (RFC 6749 §3.2), as every grant reaches it: the authorization code of a sign-in,
/// a refresh token, a device code.
///
/// One request is: the grant's form parameters, the provider's extra headers and parameters, the client's
/// authentication (RFC 6749 §2.3, RFC 7523), the retries the provider documents, a DPoP proof per attempt with one
/// `use_dpop_nonce` retry (RFC 9449 §8), the response parsed (RFC 6749 §5.1) and its token type checked against
/// the proof, and every failure mapped to an ``AuthError`` that says what the app can do.
///
/// A value held by ``AuthClient``: it owns no state of its own (the DPoP nonces are the client's, shared with
/// resource requests), so a request costs no allocation or actor hop beyond the HTTP exchange itself.
struct TokenEndpoint: Sendable {
    /// The provider: its client registration, its ``ProviderBehavior`` (retries, the token type it omits) and the
    /// headers and parameters it adds.
    let provider: any AuthProvider
    /// How requests are sent and logged, under the client's request limits.
    let http: ProviderHTTPClient
    /// The latest `DPoP-Nonce` of each server, shared with the client's resource requests.
    let dpopNonces: DPoPNonceStore
    /// The time of client assertions and DPoP proofs.
    let clock: any WallClock

    /// Sends a token request for `grant` (form body, RFC 6749 §4.1.3 / §6, RFC 8628 §3.4) and parses the response.
    ///
    /// - Parameter dpopKey: the key the tokens are (to be) bound to: every attempt carries a DPoP proof signed by it,
    ///   and the answer must be a `DPoP` token; `nil` for bearer tokens.
    func request(_ grant: TokenGrant, metadata: ProviderMetadata, dpopKey: DPoPKey? = nil) async throws -> TokenResponse {
        var parameters: [(String, String)] = [("grant_type", grant.grantType)]
        switch grant {
        case .authorizationCode(let code, let verifier, let redirectURI):
            parameters += [
                ("code", code.reveal()),
                ("redirect_uri", redirectURI.absoluteString),
                ("code_verifier", verifier.reveal())
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
            try authenticateClient(parameters: &parameters, headers: &headers, metadata: metadata, destination: metadata.tokenEndpoint)
            parameters += extra.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            return (parameters, headers)
        }

        http.log(
            .debug, "token.request", "Requesting tokens.",
            [
                "grant_type": grant.grantType, "endpoint": metadata.tokenEndpoint.host ?? "?"
            ])
        // Retries happen only where the provider documents them (`ProviderBehavior/tokenRequestRetries`, 0 by default): a code or a
        // rotating refresh token whose response was lost may already be spent, and replaying it blindly would get
        // the whole grant revoked by a provider with reuse detection.
        let members: [String: JSONValue]
        do {
            members = try await withRetries(provider.behavior.tokenRequestRetries) {
                try await post(metadata.tokenEndpoint, dpopKey: dpopKey, form: form)
            }
        } catch let error as AuthError where error.code == .network || error.code == .timedOut || error.code == .userCancelled {
            var lost = error
            lost.answerMayBeLost = true
            lost.message +=
                " The request may have reached the provider and its answer been lost; the "
                + (grant.grantType == "refresh_token" ? "refresh token" : grant.grantType == "authorization_code" ? "authorization code" : "device code")
                + " was not sent again, because the provider may already have used it up."
            throw lost
        } catch let error as AuthError where error.code == .httpError && error.httpStatus == 400 {
            var unexplained = error
            unexplained.message =
                grant.grantType == "refresh_token"
                ? "The token endpoint refused the refresh with HTTP 400 and no OAuth error. This usually means the refresh token was already used (rotated) by another process or session; sign in again if it persists."
                : "The token endpoint refused the code exchange with HTTP 400 and no OAuth error. This usually means the code was already redeemed or the redirect URI differs from the registered one; sign in again."
            throw unexplained
        }
        do {
            var tokens = try TokenResponse(members: members, tokenTypeWhenAbsent: provider.behavior.tokenTypeWhenAbsent)
            try checkTokenBinding(tokens, dpopKey: dpopKey)
            // An encrypted ID token is decrypted here, once, so everything after (validation, storage, the logout
            // hint) sees the signed token inside (OpenID Connect Core §3.1.3.7 step 1).
            if let idToken = tokens.idToken {
                let signed = try ResponseDecryption.idToken(idToken, client: provider.client)
                if signed.reveal() != idToken.reveal() {
                    tokens = TokenResponse(
                        accessToken: tokens.accessToken, tokenType: tokens.tokenType, expiresIn: tokens.expiresIn,
                        refreshToken: tokens.refreshToken, idToken: signed, scope: tokens.scope
                    )
                }
            }
            return tokens
        } catch var error as AuthError {
            // A success the client cannot read (a member missing or malformed, as a cut-short body leaves it): the server
            // carried the grant out, so for the caller the answer is lost, and trying again is worth it. A readable
            // answer refused on purpose (a token bound to another key) stays a refusal.
            if error.code == .invalidResponse {
                error.answerMayBeLost = true
                error.isTransient = true
            }
            throw error.attributed(to: provider.id)
        }
    }

    /// POSTs a token request and returns the members of a successful answer, JSON or form-encoded
    /// (``TokenResponse/members(of:contentType:)``). `form` is called once per attempt, so a client assertion's `jti`
    /// is never sent twice; with `dpopKey`, each attempt carries a fresh proof, and one `use_dpop_nonce` answer is
    /// retried with the nonce it brought (``dpopRetry(after:httpStatus:nonce:retriedWithNonce:)``).
    ///
    /// - Throws: the OAuth error of the answer (``OAuthErrorResponse``), a 2xx one included (GitHub's); the DPoP
    ///   refusals of ``dpopRetry(after:httpStatus:nonce:retriedWithNonce:)``; `invalid_response` for a 2xx body that is neither
    ///   JSON nor a form; the provider HTTP client's errors otherwise.
    func post(
        _ url: URL,
        dpopKey: DPoPKey?,
        endpoint: String = "token_endpoint",
        form: () throws -> (parameters: [(String, String)], headers: [String: String])
    ) async throws -> [String: JSONValue] {
        var retriedWithNonce = false
        while true {
            let (parameters, headers) = try form()
            var request = try http.formRequest(url, headers: headers)
            if let dpopKey { request.headerFields[.dpop] = try await dpopProof(dpopKey, for: url) }
            var body: Data? = Data(FormEncoding.encode(parameters).utf8)
            if provider.behavior.sendsTokenParametersInQuery, endpoint == "token_endpoint" {
                // As the vendor's SDK sends them (Grab): in the URL query of a bodiless POST. The URL is never logged.
                guard let queried = request.url?.appendingQuery(parameters) else {
                    throw AuthError(.invalidConfiguration, "The token endpoint URL cannot take a query.", providerID: provider.id)
                }
                request.url = queried
                request.headerFields[.contentType] = nil
                body = nil
            }
            let (data, response): (Data, HTTPResponse)
            do {
                (data, response) = try await http.send(request, body: body, endpoint: endpoint)
            } catch var error as AuthError where body == nil {
                // The URL carries the grant's secrets, and a transport's error may quote it (URLError's failing URL):
                // the error keeps its code and message, not the transport's error.
                error.underlying = nil
                throw error
            }
            let nonce = response.headerFields[.dpopNonce]
            if dpopKey != nil, let nonce { await dpopNonces.remember(nonce, for: url) }
            let contentType = response.headerFields[.contentType]
            if response.status.kind == .successful {
                let members: [String: JSONValue]
                do {
                    members = try TokenResponse.members(of: data, contentType: contentType)
                } catch var unreadable as AuthError {
                    // A truncated or garbled success: the server carried the grant out, its answer did not arrive.
                    unreadable.answerMayBeLost = true
                    unreadable.isTransient = true
                    throw unreadable
                }
                // An error in a successful answer is still an error, never tokens.
                if let error = OAuthErrorResponse(members: members) {
                    throw error.endpointError(httpStatus: response.status.code, providerID: provider.id)
                }
                return members
            }
            let oauthError = OAuthErrorResponse(body: data, contentType: contentType)
            if dpopKey != nil, let oauthError,
                try dpopRetry(after: oauthError, httpStatus: response.status.code, nonce: nonce, retriedWithNonce: retriedWithNonce)
            {
                retriedWithNonce = true
                continue
            }
            throw OAuthErrorResponse.error(forStatus: response.status.code, response: oauthError, providerID: provider.id)
        }
    }

    /// Runs `operation`, repeating it up to `retries` more times after a retryable failure (5xx, transport).
    private func withRetries<T>(_ retries: Int, _ operation: () async throws -> T) async throws -> T {
        var attempt = 0
        while true {
            do {
                return try await operation()
            } catch let error as AuthError where error.isRetryable && attempt < retries {
                attempt += 1
                http.log(.notice, "http.retry", "Retrying after a transient failure.", ["code": error.code.rawValue, "attempt": String(attempt)])
            }
        }
    }

    /// The client's credentials alone, as form parameters and headers, for a request to `destination` (what
    /// `AuthClient.clientAuthentication(for:destination:)` hands to a provider's own back-end calls).
    ///
    /// - Throws: `invalid_configuration` for `private_key_jwt` without a signing key; `insecure_endpoint` when an
    ///   assertion would go to another origin than the token endpoint it is made for.
    func clientAuthentication(for metadata: ProviderMetadata, destination: URL) throws -> (parameters: [(String, String)], headers: [String: String]) {
        var parameters: [(String, String)] = []
        var headers: [String: String] = [:]
        try authenticateClient(parameters: &parameters, headers: &headers, metadata: metadata, destination: destination)
        return (parameters, headers)
    }

    /// Adds the client's credentials to a request to the provider, as its registration says (RFC 6749 §2.3.1,
    /// RFC 7523 §2.2, RFC 8705 §2): `client_id` for a public client or one authenticated by its TLS certificate, HTTP
    /// Basic or form parameters with a secret, or a fresh
    /// signed assertion (audience: the token endpoint, unless the client's `clientAssertionAudience` says otherwise) for
    /// `private_key_jwt`. Every call that authenticates the
    /// client — token, device authorization, revocation, introspection, PAR — comes through here, naming where the
    /// request goes.
    ///
    /// An assertion goes only to the origin of the token endpoint it names as its audience. A discovery document can
    /// name endpoints anywhere; one that names an honest server's token endpoint and its own device, revocation or
    /// introspection endpoint would otherwise receive fresh assertions valid at the honest server (the audience
    /// injection of draft-ietf-oauth-rfc7523bis).
    ///
    /// - Throws: `invalid_configuration` for `private_key_jwt` without a signing key; `insecure_endpoint` when an
    ///   assertion would go to another origin than the token endpoint's.
    func authenticateClient(
        parameters: inout [(String, String)],
        headers: inout [String: String],
        metadata: ProviderMetadata,
        destination: URL
    ) throws {
        let client = provider.client
        switch client.authenticationMethod {
        case .none, .tlsClientAuth, .selfSignedTLSClientAuth:
            // A public client names itself; an mTLS client too, its certificate on the connection authenticating it
            // (RFC 8705 §2).
            parameters.append(("client_id", client.clientID))
        case .clientSecretPost:
            parameters += [("client_id", client.clientID), ("client_secret", client.clientSecret?.reveal() ?? "")]
        case .clientSecretBasic:
            headers["Authorization"] = Self.basicAuthorization(clientID: client.clientID, secret: client.clientSecret)
        case .privateKeyJWT:
            guard let key = client.signingKey else {
                throw AuthError(.invalidConfiguration, "private_key_jwt needs the client's private key (signingKey).", providerID: provider.id)
            }
            guard destination.hasOrigin(of: metadata.tokenEndpoint) else {
                throw AuthError(
                    .insecureEndpoint,
                    "The provider's endpoint \(destination.host ?? "?") is on another origin than its token endpoint (\(metadata.tokenEndpoint.host ?? "?")); a client assertion made for the token endpoint is never sent elsewhere.",
                    providerID: provider.id
                )
            }
            let audience: String
            switch client.clientAssertionAudience {
            case .tokenEndpoint: audience = metadata.tokenEndpoint.absoluteString
            case .issuer: audience = metadata.issuer
            case .endpoint: audience = destination.absoluteString
            }
            let assertion = try ClientAssertion.make(clientID: client.clientID, audience: audience, key: key, now: clock.now())
            parameters += [
                ("client_id", client.clientID), ("client_assertion_type", ClientAssertion.type),
                ("client_assertion", assertion.reveal())
            ]
        }
    }

    /// `Basic base64(urlencode(id):urlencode(secret))`, as RFC 6749 §2.3.1 specifies.
    static func basicAuthorization(clientID: String, secret: Secret?) -> String {
        let pair = FormEncoding.escape(clientID) + ":" + FormEncoding.escape(secret?.reveal() ?? "")
        return "Basic " + Data(pair.utf8).base64EncodedString()
    }
}
