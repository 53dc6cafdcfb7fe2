import AuthCore
import AuthTesting
import Foundation

/// A transport that rewrites the next request whose path ends with a suffix (a stolen, replayed or forged DPoP
/// proof), then passes everything through unchanged.
actor TamperingTransport: HTTPTransport {
    private let base: any HTTPTransport
    private var rewrites: [(suffix: String, change: @Sendable (HTTPRequest) -> HTTPRequest)] = []
    /// The `DPoP` header of every request, in order.
    private(set) var proofs: [(path: String, proof: String)] = []

    init(_ base: any HTTPTransport) { self.base = base }

    /// Rewrites the next request to a path ending with `suffix`.
    func rewriteNext(_ suffix: String, _ change: @escaping @Sendable (HTTPRequest) -> HTTPRequest) {
        rewrites.append((suffix, change))
    }

    func send(_ request: HTTPRequest, body: Data?, limits: HTTPRequestLimits) async throws -> (Data, HTTPResponse) {
        var request = request
        let path = request.url?.path ?? ""
        if let index = rewrites.firstIndex(where: { path.hasSuffix($0.suffix) }) {
            request = rewrites.remove(at: index).change(request)
        }
        if let proof = request.headerFields[HTTPField.Name("DPoP")!] { proofs.append((path, proof)) }
        return try await base.send(request, body: body, limits: limits)
    }
}

/// An identity provider with DPoP, and a client whose tokens it binds.
struct DPoPFixture {
    let idp: TestIdentityProvider
    let tampering: TamperingTransport
    let transport: RecordingTransport
    let storage: any TokenStorage
    let clock = ManualClock()
    let logger = RecordingLogger()
    let client: AuthClient
    let agent: HeadlessUserAgent

    init(
        server: TestIdentityProvider.DPoPSettings? = .init(),
        usage: DPoPUsage = .whenAdvertised,
        storage: any TokenStorage = InMemoryTokenStorage(),
        options: AuthClient.Options = AuthClient.Options()
    ) {
        var configuration = TestIdentityProvider.Configuration(signingAlgorithm: .es256)
        configuration.dpop = server
        idp = TestIdentityProvider(configuration: configuration, clock: clock)
        tampering = TamperingTransport(idp.transport)
        transport = RecordingTransport(tampering)
        agent = HeadlessUserAgent(transport: idp.transport)
        self.storage = storage
        client = Self.client(usage: usage, transport: transport, storage: storage, logger: logger, clock: clock, options: options)
    }

    static func client(
        usage: DPoPUsage,
        transport: any HTTPTransport,
        storage: any TokenStorage,
        logger: RecordingLogger,
        clock: ManualClock,
        options: AuthClient.Options = AuthClient.Options()
    ) -> AuthClient {
        let provider = PlainOIDCProvider(
            issuer: TestIdentityProvider.defaultIssuer,
            client: ClientRegistration(
                clientID: TestIdentityProvider.defaultClientID,
                redirectURI: TestIdentityProvider.defaultRedirectURI,
                scopes: ["openid", "email", "offline_access"],
                dpop: usage
            )
        )
        return AuthClient(provider: provider, storage: storage, transport: transport, logger: logger, clock: clock, options: options)
    }

    func signIn() async throws -> Session {
        try await client.signIn(with: agent)
    }

    func storedCount() async throws -> Int {
        try await storage.storedKeys().count
    }

    /// The decoded header and claims of a proof.
    static func decode(_ proof: String) throws -> (header: [String: JSONValue], claims: [String: JSONValue]) {
        let jws = try CompactJWS(parsing: proof)
        return (jws.header.members, try JSONValue.parseObject(jws.payload))
    }
}
