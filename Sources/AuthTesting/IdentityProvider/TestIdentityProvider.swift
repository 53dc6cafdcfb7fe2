public import AuthCore
import Crypto
public import Foundation

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
        /// The registered post-logout redirect URIs (matched exactly by the end-session endpoint; a loopback one on any port).
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
        /// The ID token signing algorithm: `RS256`, `PS256`, `ES256` or `EdDSA`.
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
        /// When set, a refresh token comes with a code exchange only if the granted scope includes this value (Uber's
        /// `offline_access`); `nil`: whenever ``issuesRefreshTokens``.
        public var refreshTokenRequiresScope: String?
        /// Endpoint paths.
        public var paths = Paths()
        /// The provider's peculiarities (validators and extra claims).
        public var quirks = Quirks()
        /// The behavior the provider starts with (an emulator's fixed differences from the defaults, such as no
        /// RFC 9207 `iss` parameter); tests change it later with `TestIdentityProvider/update(_:)`.
        public var initialBehavior = Behavior()
        /// What the provider's front desk is opened with (AuthEmulators' login page and faults); `nil` opens none, and
        /// every valid authorization request is approved at once.
        package var frontDeskSettings: (any FrontDeskSettings)?
        /// DPoP support (RFC 9449); `nil` ignores `DPoP` headers and issues bearer tokens.
        public var dpop: DPoPSettings?
        /// Pushed authorization requests (RFC 9126) at `Paths/pushedAuthorization`; `nil`: no such endpoint.
        public var pushedAuthorization: PushedAuthorizationSettings?
        /// OAuth 2.0 Token Exchange (RFC 8693) and OpenID Connect Native SSO at the token endpoint; `nil`: neither.
        public var tokenExchange: TokenExchangeSettings?

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

    /// An authorization request the provider answers by redirecting back: its client is registered and its redirect URI
    /// is one the client registered, so every later answer (a code, or an error of the remaining checks) goes there. A
    /// front desk keeps it while a person answers the login page.
    package struct AnswerableAuthorizationRequest: Sendable {
        /// The registered client that asked.
        package let clientID: String
        let query: [String: String]
        let redirectURI: URL
        let path: String
    }

    struct IssuedCode {
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

    struct RefreshRecord {
        let clientID: String
        let scope: String
        let family: String
        var used = false
        /// The DPoP key a public client's refresh token is bound to (RFC 9449 §5).
        var dpopKeyThumbprint: String?
    }

    struct AccessRecord {
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
    public internal(set) var behavior = Behavior()
    /// The user the next authorization request signs in (initially the configuration's).
    public private(set) var user: User

    /// Authorization codes issued, by code; kept once redeemed, so a replay can revoke what the code issued.
    var codes: [String: IssuedCode] = [:]
    /// Device sign-ins by device code (RFC 8628).
    var deviceGrants: [String: DeviceGrant] = [:]
    /// The `jti`s of the client assertions accepted so far (each accepted once: RFC 7523 §3).
    var seenAssertionIDs: Set<String> = []
    /// The `jti`s of the DPoP proofs accepted so far (each accepted once).
    var seenDPoPProofIDs: Set<String> = []
    /// The nonce DPoP proofs must carry when the provider requires one.
    var dpopNonce = "n_" + SecureRandom.token(byteCount: 12)
    /// The thumbprint of the key whose proof came with the token request being answered (`nil`: none).
    var tokenRequestProofThumbprint: String?
    /// Why DPoP proofs were refused, in order.
    public internal(set) var dpopProofFailures: [DPoPProofFailure] = []
    /// Why client authentications failed, in order (for tests of `private_key_jwt`).
    public internal(set) var clientAuthenticationFailures: [String] = []
    /// Why signed request objects were refused, in order.
    public internal(set) var requestObjectFailures: [String] = []
    /// The pushed authorization requests not yet used, by `request_uri` (each used once: RFC 9126 §4).
    var pushedRequests: [String: PushedRequest] = [:]
    /// Why pushed authorization requests, or authorization requests naming a `request_uri`, were refused, in order.
    public internal(set) var pushedAuthorizationFailures: [String] = []
    /// Refresh tokens issued, by token; kept once used, so a reuse is detected.
    var refreshTokens: [String: RefreshRecord] = [:]
    /// Access tokens issued, by token.
    var accessTokens: [String: AccessRecord] = [:]
    /// The token families revoked (a replayed code or refresh token, a revoked refresh token): their tokens are refused.
    var revokedFamilies: Set<String> = []
    /// The extra ID token claims of each token family, from the quirks and its authorization request.
    var familyClaims: [String: [String: JSONValue]] = [:]
    /// The authorization request parameters of each token family, for quirks that answer later requests by what was asked.
    var familyParameters: [String: [String: String]] = [:]
    /// The Native SSO device secrets issued, by value.
    var deviceSecrets: [String: DeviceSecretRecord] = [:]
    /// The token exchange requests refused, by reason (what a test checks the server refused, and why).
    public internal(set) var tokenExchangeFailures: [String] = []
    /// Requests received, by endpoint path (`/token`, `/jwks`, …).
    public private(set) var requestCounts: [String: Int] = [:]
    /// The grants an app deleted with its own API (`Paths/grantDeletion`: GitHub's), each answered 204.
    public internal(set) var grantDeletions = 0
    /// The clients registered at `Paths.registration` (RFC 7591), by client id.
    var dynamicClients: [String: DynamicClient] = [:]
    /// Whether a refresh token was presented twice (rotation reuse): the family was revoked.
    public internal(set) var refreshTokenReuseDetected = false
    /// Every value the provider issued that a client must keep secret (codes, tokens), for log canary tests.
    public internal(set) var issuedSecrets: [String] = []
    /// What receives people in front of the protocol endpoints (see `FrontDesk`): opened from the configuration's
    /// `Configuration/frontDeskSettings`, or installed later by AuthEmulators; `nil` for none.
    package var frontDesk: (any FrontDesk)?

    /// Creates a provider.
    public init(configuration: Configuration = Configuration(), clock: any WallClock = ManualClock()) {
        self.configuration = configuration
        self.clock = clock
        self.user = configuration.user
        self.behavior = configuration.initialBehavior
        self.frontDesk = configuration.frontDeskSettings?.openFrontDesk()
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
    public internal(set) var tokenRequestsByGrant: [String: Int] = [:]

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
        if let frontDesk, let answer = await frontDesk.respond(to: request, path: path, url: url, provider: self) { return answer }
        switch path {
        case paths.discovery where method == "GET": return json(discoveryDocument(), url: url, headers: configuration.quirks.discoveryHeaders)
        case paths.jwks where method == "GET": return jwks(url: url)
        case paths.authorize where method == "GET": return authorize(url, path: path)
        case _ where method == "GET" && paths.authorizeAliases.contains(path): return authorize(url, path: path)
        case paths.token where method == "POST": return reshapedTokenEndpointAnswer(request, path, token(request, url: url))
        case paths.userinfo: return userInfo(request, url: url)
        case paths.endSession where method == "GET": return endSession(url)
        case paths.revoke where method == "POST": return revoke(request, url: url)
        case paths.introspect where method == "POST": return introspect(request, url: url)
        case paths.resource: return protectedResource(request, url: url)
        case paths.pushedAuthorization where method == "POST" && (configuration.pushedAuthorization != nil || behavior.pushedAuthorizationAnswer != nil):
            return pushedAuthorization(request, url: url)
        case paths.deviceAuthorization where method == "POST": return reshapedTokenEndpointAnswer(request, path, deviceAuthorization(request, url: url))
        case let path where paths.registration.map { path == $0 || path.hasPrefix($0 + "/") } == true:
            return registration(request, path: path, base: paths.registration!, url: url)
        case _ where method == "GET" && configuration.quirks.documents[path] != nil:
            let document = configuration.quirks.documents[path]!
            return json(document.body, url: url, headers: document.headers)
        default:
            if let answer = deleteGrant(request, path: path, url: url) { return answer }
            if let api = configuration.quirks.api, let (status, body) = api(request, bearerSubject(request)) {
                return (try! body.jsonData(), .make(status: status, headers: ["Content-Type": "application/json"]))
            }
            return json(["error": "not_found"], status: 404, url: url)
        }
    }

    // MARK: Helpers

    /// A new random value named by `prefix` (`code`, `at`, `rt`, …), recorded in ``issuedSecrets`` unless it only
    /// names a token family.
    package func issue(_ prefix: String) -> String {
        let value = prefix + "_" + SecureRandom.token(byteCount: 24)
        if prefix != "family" { issuedSecrets.append(value) }
        return value
    }

    /// The URL's query parameters (the first of repeated names).
    package func queryParameters(_ url: URL) -> [String: String] {
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
        return Dictionary(FormEncoding.decode(query), uniquingKeysWith: { first, _ in first })
    }

    /// The request's form-encoded body parameters (the first of repeated names).
    package func formParameters(_ request: CapturedRequest) -> [String: String] {
        let body = request.httpBody.flatMap { String(data: $0, encoding: .utf8) } ?? ""
        return Dictionary(FormEncoding.decode(body), uniquingKeysWith: { first, _ in first })
    }

    /// A JSON response with `object` (its `Content-Type` over any in `headers`).
    package func json(
        _ object: [String: JSONValue],
        status: Int = 200,
        url: URL,
        headers: [String: String] = [:]
    ) -> (Data, HTTPResponse) {
        // Encoding a JSONValue cannot fail.
        let data = try! JSONValue.object(object).jsonData()
        return (data, .make(status: status, headers: headers.merging(["Content-Type": "application/json"]) { a, _ in a }))
    }

    /// An OAuth error response (RFC 6749 §5.2), not to be cached.
    func oauthError(_ error: String, description: String? = nil, status: Int = 400, url: URL) -> (Data, HTTPResponse) {
        var body: [String: JSONValue] = ["error": .string(error)]
        if let description { body["error_description"] = .string(description) }
        return json(body, status: status, url: url, headers: ["Cache-Control": "no-store"])
    }

    /// A bare HTML page saying `text` (an error the browser shows instead of a redirect).
    package func page(_ text: String, status: Int, url: URL) -> (Data, HTTPResponse) {
        (Data("<html><body>\(text)</body></html>".utf8), .make(status: status, headers: ["Content-Type": "text/html"]))
    }
}
