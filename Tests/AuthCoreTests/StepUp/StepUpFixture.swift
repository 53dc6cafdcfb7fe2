import AuthCore
import AuthTesting
import Foundation

/// A provider with step-up settings (RFC 9470: `acr`, `auth_time`, the step-up resources), a client on it, and an
/// agent that records each authorization request it opens.
struct StepUpFixture {
    let idp: TestIdentityProvider
    let clock = ManualClock()
    let storage: any TokenStorage = InMemoryTokenStorage()
    let logger = RecordingLogger()
    let client: AuthClient
    let agent: RecordingAgent

    init(configure: (inout TestIdentityProvider.Configuration) -> Void = { _ in }) {
        var configuration = TestIdentityProvider.Configuration()
        configuration.stepUp = TestIdentityProvider.StepUpSettings()
        configure(&configuration)
        idp = TestIdentityProvider(configuration: configuration, clock: clock)
        agent = RecordingAgent(HeadlessUserAgent(transport: idp.transport))
        let provider = PlainOIDCProvider(
            issuer: TestIdentityProvider.defaultIssuer,
            client: ClientRegistration(
                clientID: TestIdentityProvider.defaultClientID, redirectURI: TestIdentityProvider.defaultRedirectURI, scopes: ["openid", "offline_access"]
            )
        )
        client = AuthClient(provider: provider, storage: storage, transport: idp.transport, logger: logger, clock: clock)
    }

    func signIn() async throws -> Session {
        try await client.signIn(with: agent)
    }

    /// A `GET` of one of the provider's paths.
    func get(_ path: String) -> HTTPRequest {
        HTTPRequest(method: .get, url: idp.endpoint(path))
    }

    /// The one stored credential.
    func stored() async throws -> Credential? {
        guard let key = try await storage.storedKeys().first else { return nil }
        return try await storage.credential(for: key)
    }
}

/// A user agent that records the authorization URLs it opens before passing them on.
final class RecordingAgent: UserAgent {
    private let base: any UserAgent
    private let opened = LockedURLs()

    init(_ base: any UserAgent) { self.base = base }

    func authorize(_ request: AuthorizationRequest) async throws -> URL {
        opened.append(request.url)
        return try await base.authorize(request)
    }

    /// The authorization URLs opened so far, in order.
    var urls: [URL] { opened.all }
}

/// A lock-protected list of URLs.
final class LockedURLs: @unchecked Sendable {
    private let lock = NSLock()
    private var urls: [URL] = []

    func append(_ url: URL) { lock.withLock { urls.append(url) } }
    var all: [URL] { lock.withLock { urls } }
}
