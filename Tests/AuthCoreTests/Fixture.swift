import AuthCore
import AuthDeviceFlow
import AuthTesting
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A standard OpenID Connect provider for engine tests (AuthCore's tests must not depend on AuthOIDC).
struct PlainOIDCProvider: AuthProvider {
    static let id: ProviderID = "plain"
    let issuer: URL
    let client: ClientRegistration
    var policy = IDTokenPolicy.standard

    init(configuration: ProviderConfiguration) throws {
        issuer = try configuration.requiredURL("issuer")
        client = ClientRegistration(
            clientID: try configuration.requiredString("client_id"),
            redirectURI: try configuration.requiredURL("redirect_uri"),
            scopes: configuration.scopes("scope") ?? ["openid"]
        )
    }

    init(issuer: URL, client: ClientRegistration, policy: IDTokenPolicy = .standard) {
        self.issuer = issuer
        self.client = client
        self.policy = policy
    }

    var endpointSource: EndpointSource { .discovery(issuer: issuer) }
    var idTokenPolicy: IDTokenPolicy { policy }
}

/// An identity provider, a recording transport over it, a recording logger, and a client wired to them.
struct Fixture {
    let idp: TestIdentityProvider
    let transport: RecordingTransport
    let logger = RecordingLogger()
    let storage: any TokenStorage = InMemoryTokenStorage()
    let clock: ManualClock
    let client: AuthClient
    let agent: HeadlessUserAgent

    init(
        algorithm: JWSAlgorithm = .rs256,
        scopes: [String] = ["openid", "email", "offline_access"],
        storage: (any TokenStorage)? = nil,
        clientSecret: String? = nil,
        options: AuthClient.Options = AuthClient.Options(),
        network: ((any HTTPTransport) -> any HTTPTransport)? = nil,
        configureClient: (inout ClientRegistration) -> Void = { _ in }
    ) {
        let clock = ManualClock()
        self.clock = clock
        let registered = TestIdentityProvider.Client(
            id: TestIdentityProvider.defaultClientID,
            secret: clientSecret,
            redirectURIs: [TestIdentityProvider.defaultRedirectURI]
        )
        idp = TestIdentityProvider(configuration: .init(signingAlgorithm: algorithm, clients: [registered]), clock: clock)
        // `network` sits between the client and the identity provider (a faulty network, in the fault tests).
        transport = RecordingTransport(network?(idp.transport) ?? idp.transport)
        agent = HeadlessUserAgent(transport: idp.transport)
        var registration = ClientRegistration(
            clientID: TestIdentityProvider.defaultClientID,
            clientSecret: clientSecret.map(Secret.init),
            redirectURI: TestIdentityProvider.defaultRedirectURI,
            scopes: scopes
        )
        configureClient(&registration)
        let provider = PlainOIDCProvider(issuer: TestIdentityProvider.defaultIssuer, client: registration)
        client = AuthClient(
            provider: provider,
            storage: storage ?? self.storage,
            transport: transport,
            logger: logger,
            clock: clock,
            options: options
        )
    }

    /// Signs in through the headless agent.
    func signIn(_ options: SignInOptions = SignInOptions()) async throws -> Session {
        try await client.signIn(with: agent, options: options)
    }

    /// Prepares a request and returns the redirect the identity provider answers with, without completing.
    func redirect(_ options: SignInOptions = SignInOptions()) async throws -> (AuthorizationRequest, URL) {
        let request = try await client.prepareSignIn(options: options)
        return (request, try await agent.authorize(request))
    }

    /// The number of credentials stored.
    func storedCount() async throws -> Int {
        try await storage.storedKeys().count
    }
}

/// Runs `body` and returns the `AuthError` it throws (or fails the expectation when it throws none or another).
func authError(_ body: () async throws -> Void) async -> AuthError? {
    do {
        try await body()
        return nil
    } catch let error as AuthError {
        return error
    } catch {
        return AuthError("unexpected", "\(error)")
    }
}

extension URL {
    /// The query parameters as a dictionary.
    var queryParameters: [String: String] {
        let query = URLComponents(url: self, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
        return Dictionary(FormEncoding.decode(query), uniquingKeysWith: { first, _ in first })
    }

    /// This URL with one query parameter replaced (or removed with `nil`).
    func replacingQuery(_ name: String, with value: String?) -> URL {
        var pairs = FormEncoding.decode(URLComponents(url: self, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? "")
        pairs.removeAll { $0.0 == name }
        if let value { pairs.append((name, value)) }
        var components = URLComponents(url: self, resolvingAgainstBaseURL: false)!
        components.percentEncodedQuery = FormEncoding.encode(pairs)
        return components.url!
    }
}

/// A transport that can be switched to fail like a lost network connection.
actor FlakyTransport: HTTPTransport {
    private let base: any HTTPTransport
    private var failing = false

    init(_ base: any HTTPTransport) { self.base = base }

    func setFailing(_ value: Bool) { failing = value }

    func send(_ request: HTTPRequest, body: Data?, limits: HTTPRequestLimits) async throws -> (Data, HTTPResponse) {
        if failing { throw URLError(.notConnectedToInternet) }
        return try await base.send(request, body: body, limits: limits)
    }
}

/// Approves a device sign-in at the test identity provider from the client's polling sleep, once the test has told it
/// which user code to approve.
actor DeviceApprover {
    private var idp: TestIdentityProvider?
    private var code: String?
    func set(_ idp: TestIdentityProvider, _ code: String) {
        self.idp = idp
        self.code = code
    }
    func approve() async { if let idp, let code { await idp.approveDevice(userCode: code) } }
}
