package import AuthCore
package import Foundation

// The authorization endpoint: the checks a strict server makes, then a code (or an error) redirected back.
extension TestIdentityProvider {
    /// An authorization request (at `path`, the endpoint or one of its aliases): an error page while the client or the
    /// redirect URI is unknown, then a redirect back with an error or a code (or the front desk's login page).
    func authorize(_ url: URL, path: String) -> (Data, HTTPResponse) {
        var query = queryParameters(url)
        guard let client = self.client(withID: query["client_id"]) else {
            return page("Unknown client.", status: 400, url: url)
        }
        if let refusal = resolvePushedRequest(&query, client: client, url: url) { return refusal }
        var wrongAudience = false
        if let requestObject = query["request"] {
            // RFC 9101: the signed parameters replace the query's (OpenID Connect Core §6.3.3).
            guard let (parameters, audienceMatches) = verifyRequestObject(requestObject, client: client),
                audienceMatches || configuration.quirks.requestObjectAudienceError != nil
            else {
                return page("Invalid request object.", status: 400, url: url)
            }
            wrongAudience = !audienceMatches
            query.merge(parameters) { _, signed in signed }
            query["request"] = nil
        }
        // Never redirect to an unregistered URI: show an error page instead (RFC 6749 §4.1.2.1).
        guard let redirectText = query["redirect_uri"], let requested = URL(string: redirectText),
            client.redirectURIs.contains(where: { Self.redirect(requested, matchesRegistered: $0) })
        else {
            return page("The redirect_uri is not registered for this client.", status: 400, url: url)
        }
        let pending = AnswerableAuthorizationRequest(clientID: client.id, query: query, redirectURI: requested, path: path)
        if wrongAudience, let (error, description) = configuration.quirks.requestObjectAudienceError {
            return authorizationRedirect(pending, [("error", error), ("error_description", description)])
        }
        if let (error, description) = configuration.quirks.rejectAuthorizationWithoutState?(query) {
            return authorizationRedirect(pending, [("error", error), ("error_description", description)], includingState: false)
        }
        if let (error, description) = configuration.quirks.rejectAuthorization?(query, path) {
            return authorizationRedirect(pending, [("error", error), ("error_description", description)])
        }
        if let (error, description) = behavior.authorizationError {
            return authorizationRedirect(pending, [("error", error)] + (description.map { [("error_description", $0)] } ?? []))
        }
        guard query["response_type"] == "code" else {
            return authorizationRedirect(pending, [("error", "unsupported_response_type")])
        }
        let challenge = query["code_challenge"]
        guard challenge != nil ? query["code_challenge_method"] == "S256" : configuration.quirks.pkceOptional else {
            return authorizationRedirect(pending, [("error", "invalid_request"), ("error_description", "PKCE with S256 is required")])
        }
        if let problem = configuration.quirks.validateAuthorization?(query, path) {
            return authorizationRedirect(pending, [("error", "invalid_request"), ("error_description", problem)])
        }
        // A person signs in on a page first (the HTTP emulators' front desk); in process the user has already approved.
        if let answer = frontDesk?.respond(to: pending, provider: self) { return answer }
        return approve(pending)
    }

    /// Issues a code for `pending` and redirects back with it; `interactive` when a person just logged in on the front
    /// desk's page (a new authentication, with ``Configuration/stepUp``).
    package func approve(_ pending: AnswerableAuthorizationRequest, interactive: Bool = false) -> (Data, HTTPResponse) {
        let query = pending.query
        let code = issue("code")
        codes[code] = IssuedCode(
            clientID: pending.clientID,
            redirectURI: pending.redirectURI.absoluteString,
            challenge: query["code_challenge"],
            nonce: query["nonce"],
            scope: query["scope"] ?? "",
            extraClaims: authenticationClaims(for: query, interactive: interactive).merging(configuration.quirks.idTokenClaims?(query) ?? [:]) { _, quirk in quirk },
            parameters: query,
            expiresAt: clock.now().addingTimeInterval(60)
        )
        return authorizationRedirect(pending, [("code", code)])
    }

    /// The redirect back to the client with `parameters`, `state` and (unless switched off) RFC 9207 `iss`, after
    /// the behaviour's removals and overrides.
    package func authorizationRedirect(
        _ pending: AnswerableAuthorizationRequest,
        _ parameters: [(String, String)],
        includingState: Bool = true
    ) -> (Data, HTTPResponse) {
        var response = parameters
        if includingState, let state = pending.query["state"] { response.append(("state", state)) }
        if behavior.sendsIssParameter { response.append(("iss", configuration.issuer.absoluteString)) }
        response.removeAll { behavior.authorizationResponseRemovals.contains($0.0) }
        for (name, value) in behavior.authorizationResponseOverrides.sorted(by: { $0.key < $1.key }) {
            if !(name == "code" && behavior.duplicatesCodeParameter) { response.removeAll { $0.0 == name } }
            response.append((name, value))
        }
        let location = pending.redirectURI.appendingQuery(response)
        return (Data(), .make(status: 302, headers: ["Location": location.absoluteString]))
    }

    /// Exact match, except that a registered loopback IP redirect (`http://127.0.0.1/…`, `http://[::1]/…`)
    /// accepts any port, as RFC 8252 §7.3 requires of servers.
    static func redirect(_ requested: URL, matchesRegistered registered: URL) -> Bool {
        if requested.absoluteString == registered.absoluteString { return true }
        guard registered.scheme == "http", let host = registered.host, ["127.0.0.1", "::1", "[::1]"].contains(host) else {
            return false
        }
        return requested.scheme == "http" && requested.host == host && requested.path == registered.path
            && requested.query == nil && requested.fragment == nil
    }

    /// The string claims of a request object signed by `client`'s registered key, and whether it is addressed to this
    /// provider (``Quirks/requestObjectAudience``, the issuer by default); `nil` when it is not valid otherwise.
    func verifyRequestObject(_ token: String, client: Client) -> (claims: [String: String], audienceMatches: Bool)? {
        func refuse(_ reason: String) -> (claims: [String: String], audienceMatches: Bool)? {
            requestObjectFailures.append(reason)
            return nil
        }
        guard let publicKey = client.publicKey, let key = try? JSONWebKey(publicKey) else { return refuse("client has no key") }
        guard let jws = try? CompactJWS(parsing: token), let algorithm = JWSAlgorithm(rawValue: jws.header.algorithm),
            key.isValidSignature(jws.signature, for: jws.signingInput, algorithm: algorithm),
            let claims = try? JSONValue.parseObject(jws.payload)
        else { return refuse("bad signature") }
        guard claims["iss"]?.stringValue == client.id else { return refuse("wrong iss") }
        guard let expiry = claims["exp"]?.numberValue, expiry > clock.now().timeIntervalSince1970 else { return refuse("expired") }
        let audience =
            switch configuration.quirks.requestObjectAudience {
            case .issuer: configuration.issuer.absoluteString
            case .authorizationEndpoint: endpoint(configuration.paths.authorize).absoluteString
            }
        let audienceMatches = claims["aud"]?.stringValue == audience
        if !audienceMatches { requestObjectFailures.append("wrong aud") }
        let registered: Set<String> = ["iss", "aud", "iat", "exp", "nbf", "jti"]
        return (claims.filter { !registered.contains($0.key) }.compactMapValues(\.stringValue), audienceMatches)
    }
}
