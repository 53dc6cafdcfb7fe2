public import AuthCore
public import Foundation
import Crypto

/// An OpenID Connect identity provider that runs in-process, reached through an `InProcessTransport`.
///
/// It serves discovery, JWKS (RSA-2048 and P-256), authorize (approving its configured user at once and
/// redirecting back), token (authorization code with mandatory PKCE S256; refresh with rotation and reuse
/// detection that revokes the whole token family), user info, revocation (RFC 7009) and introspection
/// (RFC 7662). It checks what a strict server checks, counts requests per endpoint, and can misbehave on
/// purpose through `Behavior`.
///
/// ```swift
/// let idp = TestIdentityProvider()
/// let client = AuthClient(provider: provider, transport: idp.transport, clock: idp.clock)
/// let session = try await client.signIn(with: HeadlessUserAgent(transport: idp.transport))
/// ```
public actor TestIdentityProvider {
    /// A registered client.
    public struct Client: Sendable {
        /// The client id.
        public var id: String
        /// The secret of a confidential client; `nil` for a public client.
        public var secret: String?
        /// The registered redirect URIs (matched exactly).
        public var redirectURIs: [URL]
        /// The public key of a `private_key_jwt` client (a JWK); the client must then authenticate with a signed
        /// assertion whose `aud` is the token endpoint and whose `jti` is never reused.
        public var publicKey: [String: JSONValue]?
        /// The registered post-logout redirect URIs (matched exactly by the end-session endpoint).
        public var postLogoutRedirectURIs: [URL]

        /// Creates a client.
        public init(
            id: String,
            secret: String? = nil,
            redirectURIs: [URL],
            publicKey: [String: JSONValue]? = nil,
            postLogoutRedirectURIs: [URL] = []
        ) {
            self.id = id
            self.secret = secret
            self.redirectURIs = redirectURIs
            self.publicKey = publicKey
            self.postLogoutRedirectURIs = postLogoutRedirectURIs
        }
    }

    /// The user the provider signs in.
    public struct User: Sendable {
        /// The subject.
        public var subject: String
        /// Claims for ID tokens and user info (`email`, `name`, …).
        public var claims: [String: JSONValue]

        /// Creates a user.
        public init(subject: String, claims: [String: JSONValue] = [:]) {
            self.subject = subject
            self.claims = claims
        }
    }

    /// The provider's fixed settings.
    public struct Configuration: Sendable {
        /// The issuer (`iss` of its tokens; its host is what the transport routes unless ``endpointBase`` is set).
        public var issuer: URL
        /// Where the endpoints are served when the issuer names another host (GrabID: issuer `https://idp.grab.com`,
        /// endpoints under `partner-api.grab.com`); `nil` serves them under the issuer.
        public var endpointBase: URL?
        /// Other hosts this provider answers for (Schibsted's session service `session-service.<server host>`); the
        /// request path is matched as on the main host.
        public var additionalHosts: [String] = []
        /// The ID token signing algorithm: `RS256` or `ES256`.
        public var signingAlgorithm: JWSAlgorithm
        /// The registered clients.
        public var clients: [Client]
        /// The user signed in by every authorization request.
        public var user: User
        /// Access token lifetime in seconds.
        public var accessTokenLifetime: TimeInterval
        /// ID token lifetime in seconds.
        public var idTokenLifetime: TimeInterval
        /// Whether each refresh issues a new refresh token and invalidates the old one.
        public var rotatesRefreshTokens: Bool
        /// Whether the provider issues refresh tokens at all (GOV.UK One Login does not, to services: its
        /// `grant_types_supported` is `authorization_code` only, and a refresh grant is `unsupported_grant_type`).
        public var issuesRefreshTokens = true
        /// Endpoint paths.
        public var paths = Paths()
        /// The provider's peculiarities (validators and extra claims).
        public var quirks = Quirks()
        /// The behavior the provider starts with (an emulator's fixed differences from the defaults, such as no
        /// RFC 9207 `iss` parameter); tests change it later with `TestIdentityProvider/update(_:)`.
        public var initialBehavior = Behavior()
        /// The name the login page shows (`Grab`, `Schibsted account`, …).
        public var displayName = "Test identity provider"
        /// Who can sign in on the login page; empty means one account for ``user`` (see
        /// ``TestIdentityProvider/loginAccounts``).
        public var testAccounts: [TestAccount] = []
        /// DPoP support (RFC 9449); `nil` ignores `DPoP` headers and issues bearer tokens.
        public var dpop: DPoPSettings?

        /// Creates settings; the defaults register `TestIdentityProvider/defaultClientID` with
        /// `TestIdentityProvider/defaultRedirectURI`.
        public init(
            issuer: URL = TestIdentityProvider.defaultIssuer,
            signingAlgorithm: JWSAlgorithm = .rs256,
            clients: [Client] = [Client(id: TestIdentityProvider.defaultClientID, redirectURIs: [TestIdentityProvider.defaultRedirectURI])],
            user: User = User(subject: "user-1234", claims: ["email": "alice@example.com", "name": "Alice Example", "email_verified": true]),
            accessTokenLifetime: TimeInterval = 3600,
            idTokenLifetime: TimeInterval = 3600,
            rotatesRefreshTokens: Bool = true
        ) {
            self.issuer = issuer
            self.signingAlgorithm = signingAlgorithm
            self.clients = clients
            self.user = user
            self.accessTokenLifetime = accessTokenLifetime
            self.idTokenLifetime = idTokenLifetime
            self.rotatesRefreshTokens = rotatesRefreshTokens
        }
    }

    /// `https://idp.example.test`.
    public static let defaultIssuer = URL(string: "https://idp.example.test")!
    /// `test-client`.
    public static let defaultClientID = "test-client"
    /// `com.example.app:/oauth/callback`.
    public static let defaultRedirectURI = URL(string: "com.example.app:/oauth/callback")!

    /// A valid authorization request waiting for the person's answer on the login page.
    struct PendingAuthorization: Sendable {
        let clientID: String
        let query: [String: String]
        let redirectURI: URL
        let path: String
    }

    private struct IssuedCode {
        let clientID: String
        let redirectURI: String
        /// `nil` when the authorization came without PKCE (a provider that allows it: ``Quirks/pkceOptional``).
        let challenge: String?
        let nonce: String?
        let scope: String
        let extraClaims: [String: JSONValue]
        /// The authorization request's parameters, for quirks that answer later requests by what was asked.
        let parameters: [String: String]
        let expiresAt: Date
        var used = false
        var family: String?
        /// The authorization request's `dpop_jkt`: only a proof of that key may redeem the code (RFC 9449 §10).
        var dpopKeyThumbprint: String? { parameters["dpop_jkt"] }
    }

    private struct RefreshRecord {
        let clientID: String
        let scope: String
        let family: String
        var used = false
        /// The DPoP key a public client's refresh token is bound to (RFC 9449 §5).
        var dpopKeyThumbprint: String?
    }

    private struct AccessRecord {
        let subject: String
        let clientID: String
        let scope: String
        let family: String
        let expiresAt: Date
        /// The DPoP key the token is bound to (`cnf.jkt`); `nil` for a bearer token.
        var dpopKeyThumbprint: String?
    }

    /// The fixed settings.
    public nonisolated let configuration: Configuration
    /// The clock the provider stamps tokens with; share it with the client under test.
    public nonisolated let clock: any WallClock
    /// How the provider misbehaves (honest by default).
    public private(set) var behavior = Behavior()
    /// The user the next authorization request signs in (initially the configuration's).
    public private(set) var user: User

    private var codes: [String: IssuedCode] = [:]
    /// Authorization requests shown on the login page, by the page's `login_id` (each answered once).
    var pendingLogins: [String: PendingAuthorization] = [:]
    /// Faults queued through `POST /_emulator/faults`, each spent on the next response it applies to.
    var pendingFaults: [EmulatorFault] = []
    /// Device sign-ins by device code (RFC 8628).
    var deviceGrants: [String: DeviceGrant] = [:]
    private var seenAssertionIDs: Set<String> = []
    /// The `jti`s of the DPoP proofs accepted so far (each accepted once).
    var seenDPoPProofIDs: Set<String> = []
    /// The nonce DPoP proofs must carry when the provider requires one.
    var dpopNonce = "n_" + SecureRandom.token(byteCount: 12)
    /// The thumbprint of the key whose proof came with the token request being answered (`nil`: none).
    private var tokenRequestProofThumbprint: String?
    /// Why DPoP proofs were refused, in order.
    public internal(set) var dpopProofFailures: [DPoPProofFailure] = []
    /// Why client authentications failed, in order (for tests of `private_key_jwt`).
    public private(set) var clientAuthenticationFailures: [String] = []
    /// Why signed request objects were refused, in order.
    public private(set) var requestObjectFailures: [String] = []
    private var refreshTokens: [String: RefreshRecord] = [:]
    private var accessTokens: [String: AccessRecord] = [:]
    private var revokedFamilies: Set<String> = []
    var familyClaims: [String: [String: JSONValue]] = [:]
    var familyParameters: [String: [String: String]] = [:]
    /// Requests received, by endpoint path (`/token`, `/jwks`, …).
    public private(set) var requestCounts: [String: Int] = [:]
    /// Whether a refresh token was presented twice (rotation reuse): the family was revoked.
    public private(set) var refreshTokenReuseDetected = false
    /// Every value the provider issued that a client must keep secret (codes, tokens), for log canary tests.
    public private(set) var issuedSecrets: [String] = []

    /// Creates a provider.
    public init(configuration: Configuration = Configuration(), clock: any WallClock = ManualClock()) {
        self.configuration = configuration
        self.clock = clock
        self.user = configuration.user
        self.behavior = configuration.initialBehavior
    }

    /// Signs in `user` from the next authorization request on (a second account).
    public func setUser(_ user: User) {
        self.user = user
    }

    /// Revokes every access token issued so far, so protected requests with them get 401 (refresh tokens stay valid).
    public func revokeAccessTokens() {
        accessTokens.removeAll()
    }

    /// A transport that routes the issuer's host to this provider.
    public nonisolated var transport: InProcessTransport {
        var transport = InProcessTransport().adding(host: (configuration.endpointBase ?? configuration.issuer).host ?? "") { [self] request in
            await self.handle(request)
        }
        for host in configuration.additionalHosts {
            transport = transport.adding(host: host) { [self] request in await self.handle(request) }
        }
        return transport
    }

    /// Changes the provider's behavior.
    public func update(_ change: @Sendable (inout Behavior) -> Void) {
        change(&behavior)
    }

    /// The number of token requests with `grant_type`.
    public private(set) var tokenRequestsByGrant: [String: Int] = [:]

    /// The URL of an endpoint path, such as `/token`.
    public nonisolated func endpoint(_ path: String) -> URL {
        URL(string: (configuration.endpointBase ?? configuration.issuer).absoluteString.trimmingSuffix("/") + path)!
    }

    /// Answers one HTTP request.
    public func handle(_ request: CapturedRequest) async -> (Data, HTTPResponse) {
        let base = configuration.endpointBase ?? configuration.issuer
        let url = request.url ?? base
        let issuerPath = URLComponents(url: base, resolvingAgainstBaseURL: false)?.path ?? ""
        let path = String(url.path.dropFirst(issuerPath.trimmingSuffix("/").count))
        requestCounts[path, default: 0] += 1
        let paths = configuration.paths
        let method = request.httpMethod
        if path.hasPrefix(Self.emulatorPathPrefix) { return emulatorEndpoint(path, method: method, request: request, url: url) }
        if let early = await applyRequestFault(url: url) { return early }
        switch path {
        case paths.discovery where method == "GET": return json(discoveryDocument(), url: url, headers: configuration.quirks.discoveryHeaders)
        case paths.jwks where method == "GET": return jwks(url: url)
        case paths.authorize where method == "GET": return authorize(url, path: path)
        case _ where method == "GET" && paths.authorizeAliases.contains(path): return authorize(url, path: path)
        case paths.token where method == "POST": return token(request, url: url)
        case paths.userinfo: return userInfo(request, url: url)
        case paths.endSession where method == "GET": return endSession(url)
        case paths.revoke where method == "POST": return revoke(request, url: url)
        case paths.introspect where method == "POST": return introspect(request, url: url)
        case paths.resource: return protectedResource(request, url: url)
        case paths.deviceAuthorization where method == "POST": return deviceAuthorization(request, url: url)
        case paths.deviceVerification where paths.deviceAuthorization != nil && method == "GET": return deviceVerificationPage(url: url)
        case _ where method == "GET" && configuration.quirks.documents[path] != nil:
            let document = configuration.quirks.documents[path]!
            return json(document.body, url: url, headers: document.headers)
        default:
            if let api = configuration.quirks.api, let (status, body) = api(request, bearerSubject(request)) {
                return (try! body.jsonData(), .make(status: status, headers: ["Content-Type": "application/json"]))
            }
            return json(["error": "not_found"], status: 404, url: url)
        }
    }

    // MARK: Discovery and keys

    private func discoveryDocument() -> [String: JSONValue] {
        var document: [String: JSONValue] = [
            "issuer": .string(configuration.issuer.absoluteString),
            "authorization_endpoint": .string(endpoint(configuration.paths.authorize).absoluteString),
            "token_endpoint": .string(endpoint(configuration.paths.token).absoluteString),
            "jwks_uri": .string(endpoint(configuration.paths.jwks).absoluteString),
            "userinfo_endpoint": .string(endpoint(configuration.paths.userinfo).absoluteString),
            "revocation_endpoint": .string(endpoint(configuration.paths.revoke).absoluteString),
            "introspection_endpoint": .string(endpoint(configuration.paths.introspect).absoluteString),
            "end_session_endpoint": .string(endpoint(configuration.paths.endSession).absoluteString),
            "response_types_supported": ["code"],
            // Listed only by a provider that supports DPoP and says so.
            "dpop_signing_alg_values_supported": configuration.dpop?.advertised == true ? ["ES256"] : .null,
            "grant_types_supported": configuration.issuesRefreshTokens ? ["authorization_code", "refresh_token"] : ["authorization_code"],
            "code_challenge_methods_supported": ["S256"],
            "id_token_signing_alg_values_supported": .array([.string(configuration.signingAlgorithm.rawValue)]),
            "scopes_supported": ["openid", "email", "profile", "offline_access"],
            "token_endpoint_auth_methods_supported": ["none", "client_secret_basic", "client_secret_post", "private_key_jwt"],
            "authorization_response_iss_parameter_supported": .bool(behavior.advertisesIssParameter),
        ]
        if let device = configuration.paths.deviceAuthorization {
            document["device_authorization_endpoint"] = .string(endpoint(device).absoluteString)
            document["grant_types_supported"] = .array((document["grant_types_supported"]?.arrayValue ?? []) + [.string(TokenGrant.deviceCode(Secret("")).grantType)])
        }
        if document["dpop_signing_alg_values_supported"] == .null { document["dpop_signing_alg_values_supported"] = nil }
        document.merge(configuration.quirks.discoveryExtras) { _, extra in extra }
        for name in configuration.quirks.discoveryRemovals { document[name] = nil }
        document.merge(behavior.discoveryOverrides) { _, override in override }
        return document
    }

    private func jwks(url: URL) -> (Data, HTTPResponse) {
        if let status = behavior.jwksFailureStatus { return json(["error": "unavailable"], status: status, url: url) }
        var keys = behavior.withdrawsPrimaryKeys ? [] : TestSigningKeys.primary.publicJWKs
        if behavior.publishRotatedKeys { keys += TestSigningKeys.rotated.publicJWKs }
        let headers = behavior.jwksCacheControl.map { ["Cache-Control": $0] } ?? [:]
        return json(["keys": .array(keys)], url: url, headers: headers)
    }

    // MARK: Authorization

    private func authorize(_ url: URL, path: String) -> (Data, HTTPResponse) {
        var query = queryParameters(url)
        guard let client = configuration.clients.first(where: { $0.id == query["client_id"] }) else {
            return page("Unknown client.", status: 400, url: url)
        }
        if let requestObject = query["request"] {
            // RFC 9101: the signed parameters replace the query's (OpenID Connect Core §6.3.3).
            guard let parameters = verifyRequestObject(requestObject, client: client) else {
                return page("Invalid request object.", status: 400, url: url)
            }
            query.merge(parameters) { _, signed in signed }
            query["request"] = nil
        }
        // Never redirect to an unregistered URI: show an error page instead (RFC 6749 §4.1.2.1).
        guard let redirectText = query["redirect_uri"], let requested = URL(string: redirectText),
            client.redirectURIs.contains(where: { Self.redirect(requested, matchesRegistered: $0) })
        else {
            return page("The redirect_uri is not registered for this client.", status: 400, url: url)
        }
        let pending = PendingAuthorization(clientID: client.id, query: query, redirectURI: requested, path: path)
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
        // A person signs in on a page first (the HTTP emulators); in process the user has already approved.
        if behavior.interactiveLogin { return loginPage(for: pending) }
        return approve(pending)
    }

    /// Issues a code for `pending` and redirects back with it.
    func approve(_ pending: PendingAuthorization) -> (Data, HTTPResponse) {
        let query = pending.query
        let code = issue("code")
        codes[code] = IssuedCode(
            clientID: pending.clientID,
            redirectURI: pending.redirectURI.absoluteString,
            challenge: query["code_challenge"],
            nonce: query["nonce"],
            scope: query["scope"] ?? "",
            extraClaims: configuration.quirks.idTokenClaims?(query) ?? [:],
            parameters: query,
            expiresAt: clock.now().addingTimeInterval(60)
        )
        return authorizationRedirect(pending, [("code", code)])
    }

    /// The redirect back to the client with `parameters`, `state` and (unless switched off) RFC 9207 `iss`, after
    /// the behaviour's removals and overrides.
    func authorizationRedirect(_ pending: PendingAuthorization, _ parameters: [(String, String)]) -> (Data, HTTPResponse) {
        var response = parameters
        if let state = pending.query["state"] { response.append(("state", state)) }
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

    // MARK: Token

    private func token(_ request: CapturedRequest, url: URL) -> (Data, HTTPResponse) {
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
        default: return oauthError("unsupported_grant_type", url: url)
        }
    }

    /// Authenticates the client of a token, revocation or introspection request by the method it used.
    func authenticateClient(_ request: CapturedRequest, form: [String: String]) -> Result<Client, ClientAuthenticationFailure> {
        let result = clientAuthentication(request, form: form)
        if case .failure(let failure) = result { clientAuthenticationFailures.append(failure.rawValue) }
        return result
    }

    private func clientAuthentication(_ request: CapturedRequest, form: [String: String]) -> Result<Client, ClientAuthenticationFailure> {
        let accepted = configuration.quirks.acceptedClientAuthenticationMethods
        if form["client_assertion"] != nil || form["client_assertion_type"] != nil {
            guard accepted?.contains(.privateKeyJWT) ?? true else { return .failure(.unsupportedMethod) }
            return authenticateClientAssertion(form)
        }
        if let header = request.value(forHTTPHeaderField: "Authorization"), header.hasPrefix("Basic ") {
            guard accepted?.contains(.clientSecretBasic) ?? true else { return .failure(.unsupportedMethod) }
            guard let decoded = Data(base64Encoded: String(header.dropFirst(6))).flatMap({ String(data: $0, encoding: .utf8) }) else {
                return .failure(.wrongSecret)
            }
            let parts = decoded.split(separator: ":", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
            guard parts.count == 2, let client = configuration.clients.first(where: { $0.id == parts[0] }) else { return .failure(.unknownClient) }
            guard client.secret == parts[1] else { return .failure(.wrongSecret) }
            return .success(client)
        }
        if form["client_secret"] != nil {
            guard accepted?.contains(.clientSecretPost) ?? true else { return .failure(.unsupportedMethod) }
        } else if let accepted, !accepted.contains(.none) {
            return .failure(.noAuthentication)
        }
        guard let client = configuration.clients.first(where: { $0.id == form["client_id"] }) else { return .failure(.unknownClient) }
        // A key-based client must use its key; a confidential one its secret.
        guard client.publicKey == nil else { return .failure(.keyClientWithoutAssertion) }
        if let secret = client.secret, form["client_secret"] != secret { return .failure(.wrongSecret) }
        return .success(client)
    }

    /// RFC 7523 §3: the assertion's signature, `iss` = `sub` = a registered key-based client, `aud` one of the accepted
    /// audiences (the token endpoint; a string, or an array of accepted values only), an unexpired `exp` no more
    /// than five minutes ahead, and a `jti` never seen before.
    private func authenticateClientAssertion(_ form: [String: String]) -> Result<Client, ClientAuthenticationFailure> {
        guard form["client_assertion_type"] == ClientAssertion.type else { return .failure(.wrongAssertionType) }
        guard let token = form["client_assertion"], let jws = try? CompactJWS(parsing: token),
            let claims = try? JSONValue.parseObject(jws.payload)
        else { return .failure(.malformedAssertion) }
        guard let issuer = claims["iss"]?.stringValue, let subject = claims["sub"]?.stringValue else { return .failure(.malformedAssertion) }
        guard let client = configuration.clients.first(where: { $0.id == subject }), let publicKey = client.publicKey else {
            return .failure(.unknownClient)
        }
        guard form["client_id"] == nil || form["client_id"] == subject else { return .failure(.malformedAssertion) }
        let algorithms = configuration.quirks.acceptedAssertionAlgorithms
        guard let algorithm = JWSAlgorithm(rawValue: jws.header.algorithm), algorithms?.contains(algorithm) ?? true else {
            return .failure(.unsupportedAssertionAlgorithm)
        }
        let now = clock.now().timeIntervalSince1970
        guard let expiry = claims["exp"]?.numberValue else { return .failure(.malformedAssertion) }
        guard expiry > now, expiry - now <= 300 else { return .failure(.expiredAssertion) }
        var audiences = [endpoint(configuration.paths.token).absoluteString]
        if configuration.quirks.acceptsIssuerAsAssertionAudience { audiences.append(configuration.issuer.absoluteString) }
        let claimed = claims["aud"]?.stringValue.map { [$0] } ?? claims["aud"]?.arrayValue?.compactMap(\.stringValue) ?? []
        guard !claimed.isEmpty, claimed.allSatisfy(audiences.contains) else { return .failure(.wrongAudience) }
        guard issuer == subject else { return .failure(.issuerIsNotSubject) }
        guard let key = try? JSONWebKey(publicKey), key.isValidSignature(jws.signature, for: jws.signingInput, algorithm: algorithm) else {
            return .failure(.badSignature)
        }
        guard let jti = claims["jti"]?.stringValue, !jti.isEmpty, seenAssertionIDs.insert(jti).inserted else {
            return .failure(.replayedAssertion)
        }
        return .success(client)
    }

    /// The response to a failed client authentication: the provider's own mapping, or 401 `invalid_client`.
    func clientAuthenticationError(_ failure: ClientAuthenticationFailure, url: URL) -> (Data, HTTPResponse) {
        if let answer = configuration.quirks.clientAuthenticationError?(failure) {
            return oauthError(answer.error, description: answer.description, status: answer.status, url: url)
        }
        return oauthError("invalid_client", status: 401, url: url)
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
        let verified = issued.challenge.map { challenge in form["code_verifier"].map { PKCE.challenge(for: Secret($0)) == challenge } ?? false }
            ?? (form["code_verifier"] == nil)  // without a challenge, a verifier proves nothing and is refused
        guard verified else {
            return oauthError("invalid_grant", description: "PKCE verification failed", url: url)
        }
        let family = issue("family")
        codes[code]?.family = family
        familyClaims[family] = issued.extraClaims
        familyParameters[family] = issued.parameters
        return tokenResponse(
            client: client, scope: issued.scope, family: family, nonce: issued.nonce,
            includeRefresh: configuration.issuesRefreshTokens, url: url
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
        includeRefresh: Bool,
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
            "scope": .string(scope),
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
            let idToken = makeIDToken(clientID: client.id, nonce: nonce, accessToken: accessToken, extraClaims: extra, now: now)
            issuedSecrets.append(idToken)
            body["id_token"] = .string(idToken)
        }
        body.merge(behavior.tokenResponseOverrides) { _, override in override }
        for name in behavior.tokenResponseRemovals { body[name] = nil }
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
        claims["auth_time"] = .number(now.timeIntervalSince1970.rounded(.down))
        claims["at_hash"] = .string(IDTokenValidator.accessTokenHash(Secret(accessToken), algorithm: algorithm))
        if let nonce { claims["nonce"] = .string(nonce) }
        claims.merge(behavior.idTokenClaimOverrides) { _, override in override }
        for name in behavior.idTokenClaimRemovals { claims[name] = nil }
        claims.merge(takeIDTokenFault(now: now)) { _, fault in fault }

        let keys = behavior.signing == .rotatedKey ? TestSigningKeys.rotated : TestSigningKeys.primary
        var header: [String: JSONValue] = [
            "alg": .string(algorithm.rawValue), "kid": .string(keys.keyID(for: algorithm)), "typ": "JWT",
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

    /// The string claims of a request object signed by `client`'s registered key, addressed to this issuer.
    private func verifyRequestObject(_ token: String, client: Client) -> [String: String]? {
        func refuse(_ reason: String) -> [String: String]? {
            requestObjectFailures.append(reason)
            return nil
        }
        guard let publicKey = client.publicKey, let key = try? JSONWebKey(publicKey) else { return refuse("client has no key") }
        guard let jws = try? CompactJWS(parsing: token), let algorithm = JWSAlgorithm(rawValue: jws.header.algorithm),
            key.isValidSignature(jws.signature, for: jws.signingInput, algorithm: algorithm),
            let claims = try? JSONValue.parseObject(jws.payload)
        else { return refuse("bad signature") }
        guard claims["iss"]?.stringValue == client.id else { return refuse("wrong iss") }
        guard claims["aud"]?.stringValue == configuration.issuer.absoluteString else { return refuse("wrong aud") }
        guard let expiry = claims["exp"]?.numberValue, expiry > clock.now().timeIntervalSince1970 else { return refuse("expired") }
        let registered: Set<String> = ["iss", "aud", "iat", "exp", "nbf", "jti"]
        return claims.filter { !registered.contains($0.key) }.compactMapValues(\.stringValue)
    }

    // MARK: End session

    /// RP-initiated logout, answered as GOV.UK's simulator does: always a 302 — to the registered
    /// `post_logout_redirect_uri` (with `state`) when the `id_token_hint` verifies and names a client that registered
    /// it, otherwise to the provider's default page, with `error_code` and `error_description` when something was wrong.
    private func endSession(_ url: URL) -> (Data, HTTPResponse) {
        let query = queryParameters(url)
        let fallback = configuration.quirks.defaultLogoutURL ?? endpoint("/signed-out")
        func redirect(_ target: URL, error: (code: String, description: String)? = nil) -> (Data, HTTPResponse) {
            var pairs: [(String, String)] = []
            if let state = query["state"] { pairs.append(("state", state)) }
            if let error { pairs += [("error_code", error.code), ("error_description", error.description)] }
            return (Data(), .make(status: 302, headers: ["Location": target.appendingQuery(pairs).absoluteString]))
        }
        guard let hint = query["id_token_hint"] else { return redirect(fallback) }
        let keys = JSONWebKeySet(keys: (TestSigningKeys.primary.publicJWKs + TestSigningKeys.rotated.publicJWKs).compactMap {
            $0.objectValue.flatMap { try? JSONWebKey($0) }
        })
        guard let jws = try? CompactJWS(parsing: hint), let algorithm = JWSAlgorithm(rawValue: jws.header.algorithm),
            let key = try? keys.key(id: jws.header.keyID, for: algorithm),
            key.isValidSignature(jws.signature, for: jws.signingInput, algorithm: algorithm),
            let claims = try? JSONValue.parseObject(jws.payload)
        else { return redirect(fallback, error: ("invalid_request", "unable to validate id_token_hint")) }
        // The hint's expiry is ignored: a user may sign out long after the ID token expired.
        guard let audience = claims["aud"]?.stringValue ?? claims["aud"]?.arrayValue?.first?.stringValue, claims["sub"] != nil else {
            return redirect(fallback)
        }
        guard let client = configuration.clients.first(where: { $0.id == audience }) else {
            return redirect(fallback, error: ("unauthorized_client", "client not found"))
        }
        guard let requested = query["post_logout_redirect_uri"] else { return redirect(fallback) }
        guard let target = URL(string: requested), client.postLogoutRedirectURIs.contains(target) else {
            return redirect(fallback, error: ("invalid_request", "client registry does not contain post_logout_redirect_uri"))
        }
        return redirect(target)
    }

    // MARK: Back-channel logout

    /// A logout token (OpenID Connect Back-Channel Logout 1.0 §2.4) as this provider would POST it to a client's
    /// back-channel logout URI: signed with the primary key, `iss`, `aud` (the client), `iat`, a fresh `jti`, the
    /// back-channel logout event, and the given `sub` / `sid`; then `overrides` set and `removals` removed.
    public func logoutToken(
        subject: String?,
        sessionID: String? = nil,
        clientID: String = TestIdentityProvider.defaultClientID,
        overrides: [String: JSONValue] = [:],
        removals: Set<String> = []
    ) -> String {
        let algorithm = configuration.signingAlgorithm
        let now = clock.now().timeIntervalSince1970.rounded(.down)
        var claims: [String: JSONValue] = [
            "iss": .string(configuration.issuer.absoluteString), "aud": .string(clientID), "iat": .number(now),
            "exp": .number(now + 120), "jti": .string(SecureRandom.token()),
            "events": .object([AuthClient.backChannelLogoutEvent: .object([:])]),
        ]
        if let subject { claims["sub"] = .string(subject) }
        if let sessionID { claims["sid"] = .string(sessionID) }
        claims.merge(overrides) { _, override in override }
        for name in removals { claims[name] = nil }
        let keys = TestSigningKeys.primary
        let header: [String: JSONValue] = ["alg": .string(algorithm.rawValue), "kid": .string(keys.keyID(for: algorithm)), "typ": "logout+jwt"]
        return TestJWT.make(header: header, claims: claims) { keys.sign($0, algorithm: algorithm) }
    }

    // MARK: User info, revocation, introspection

    private func userInfo(_ request: CapturedRequest, url: URL) -> (Data, HTTPResponse) {
        let record: AccessRecord
        switch presentedAccessToken(request, url: url) {
        case .success(let presented) where presented.scope.contains("openid"): record = presented
        case .success: return invalidToken(url: url)
        case .failure(let refusal): return refusal.response
        }
        var claims = record.subject == user.subject ? user.claims : [:]
        claims["sub"] = .string(record.subject)
        if let shape = configuration.quirks.userInfo { claims = shape(record.subject, claims, familyParameters[record.family] ?? [:]) }
        claims.merge(behavior.userInfoOverrides) { _, override in override }
        return json(claims, url: url)
    }

    /// A protected API: 200 with the caller's subject for an active bearer token, else 401.
    private func protectedResource(_ request: CapturedRequest, url: URL) -> (Data, HTTPResponse) {
        switch presentedAccessToken(request, url: url) {
        case .success(let record):
            var body: [String: JSONValue] = ["ok": true, "client_id": .string(record.clientID)]
            if let bound = record.dpopKeyThumbprint { body["jkt"] = .string(bound) }
            return json(body, url: url)
        case .failure(let refusal): return refusal.response
        }
    }

    /// The subject of the request's access token when it is active (and, for a DPoP-bound one, proven).
    private func bearerSubject(_ request: CapturedRequest) -> String? {
        guard let url = request.url, case .success(let record) = presentedAccessToken(request, url: url) else { return nil }
        return record.subject
    }

    /// Why a protected request was refused, with the 401 to send.
    private struct AccessRefusal: Error {
        let response: (Data, HTTPResponse)
    }

    /// The active access token of a protected request: `Authorization: Bearer` for a bearer token; for a DPoP-bound
    /// one `Authorization: DPoP` and a proof of the bound key over this method and URL with `ath` (RFC 9449 §7).
    private func presentedAccessToken(_ request: CapturedRequest, url: URL) -> Result<AccessRecord, AccessRefusal> {
        let header = request.value(forHTTPHeaderField: "Authorization") ?? ""
        let (scheme, token) = header.firstIndex(of: " ").map { (header[..<$0].lowercased(), String(header[header.index(after: $0)...])) } ?? ("", "")
        guard let record = accessTokens[token], isActive(record) else { return .failure(AccessRefusal(response: invalidToken(url: url))) }
        guard let bound = record.dpopKeyThumbprint else {
            return scheme == "bearer" ? .success(record) : .failure(AccessRefusal(response: invalidToken(url: url)))
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

    private func invalidToken(url: URL) -> (Data, HTTPResponse) {
        json(["error": "invalid_token"], status: 401, url: url, headers: ["WWW-Authenticate": "Bearer error=\"invalid_token\""])
    }

    private func isActive(_ record: AccessRecord) -> Bool {
        record.expiresAt > clock.now() && !revokedFamilies.contains(record.family)
    }

    private func revoke(_ request: CapturedRequest, url: URL) -> (Data, HTTPResponse) {
        if let status = behavior.revocationFailureStatus { return json(["error": "unavailable"], status: status, url: url) }
        let form = formParameters(request)
        if case .failure(let failure) = authenticateClient(request, form: form) { return clientAuthenticationError(failure, url: url) }
        if let token = form["token"] {
            if let record = refreshTokens[token] { revokedFamilies.insert(record.family) }
            if accessTokens[token] != nil { accessTokens[token] = nil }
        }
        return (Data(), .make(status: 200))
    }

    private func introspect(_ request: CapturedRequest, url: URL) -> (Data, HTTPResponse) {
        let form = formParameters(request)
        if case .failure(let failure) = authenticateClient(request, form: form) { return clientAuthenticationError(failure, url: url) }
        guard let token = form["token"], let record = accessTokens[token], isActive(record) else {
            return json(["active": false], url: url)
        }
        return json([
            "active": true, "client_id": .string(record.clientID), "scope": .string(record.scope),
            "sub": .string(record.subject), "exp": .number(record.expiresAt.timeIntervalSince1970.rounded(.down)),
            "token_type": record.dpopKeyThumbprint == nil ? "Bearer" : "DPoP",
            "cnf": record.dpopKeyThumbprint.map { ["jkt": .string($0)] } ?? .null,
        ].filter { $0.value != .null }, url: url)
    }

    // MARK: Helpers

    func issue(_ prefix: String) -> String {
        let value = prefix + "_" + SecureRandom.token(byteCount: 24)
        if prefix != "family" { issuedSecrets.append(value) }
        return value
    }

    /// The URL's query parameters (the first of repeated names).
    func queryParameters(_ url: URL) -> [String: String] {
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
        return Dictionary(FormEncoding.decode(query), uniquingKeysWith: { first, _ in first })
    }

    func formParameters(_ request: CapturedRequest) -> [String: String] {
        let body = request.httpBody.flatMap { String(data: $0, encoding: .utf8) } ?? ""
        return Dictionary(FormEncoding.decode(body), uniquingKeysWith: { first, _ in first })
    }

    func json(
        _ object: [String: JSONValue],
        status: Int = 200,
        url: URL,
        headers: [String: String] = [:]
    ) -> (Data, HTTPResponse) {
        // Encoding a JSONValue cannot fail.
        let data = try! JSONValue.object(object).jsonData()
        return (data, .make(status: status, headers: headers.merging(["Content-Type": "application/json"]) { a, _ in a }))
    }

    func oauthError(_ error: String, description: String? = nil, status: Int = 400, url: URL) -> (Data, HTTPResponse) {
        var body: [String: JSONValue] = ["error": .string(error)]
        if let description { body["error_description"] = .string(description) }
        return json(body, status: status, url: url, headers: ["Cache-Control": "no-store"])
    }

    func page(_ text: String, status: Int, url: URL) -> (Data, HTTPResponse) {
        (Data("<html><body>\(text)</body></html>".utf8), .make(status: status, headers: ["Content-Type": "text/html"]))
    }
}
