import AuthOIDC
import AuthProviders
import AuthTesting
import Foundation

/// A full sign-in against the in-process identity provider (RS256), with the time the identity provider spends
/// answering kept apart: every request it answers — the authorization page the headless agent follows, discovery,
/// the key set, the token endpoint — goes through a transport that clocks its handler. What is left of a sign-in's
/// time is the client side: the engine, the headless agent's redirect-following, and the in-process hand-over.
public struct SignInFixture: Sendable {
    public let client: AuthClient
    let agent: HeadlessUserAgent
    let timer: TimedTransport

    public init() throws {
        let idp = TestIdentityProvider()
        timer = TimedTransport(idp.transport)
        client = AuthClient(provider: try OpenIDProvider(configuration: ProviderEmulator.openIDConnect().configuration),
                            transport: timer, logger: SilentLogger(), clock: idp.clock)
        agent = HeadlessUserAgent(transport: timer)
    }

    /// Signs in once; returns the session and the nanoseconds the identity provider spent answering.
    public func signIn() async throws -> (session: Session, identityProviderNanoseconds: Int) {
        timer.reset()
        let session = try await client.signIn(with: agent)
        return (session, timer.elapsedNanoseconds)
    }
}

/// An `HTTPTransport` that adds up the time its wrapped transport takes to answer.
final class TimedTransport: HTTPTransport, @unchecked Sendable {
    private let wrapped: any HTTPTransport
    private let lock = NSLock()
    private var elapsed = Duration.zero

    init(_ wrapped: any HTTPTransport) { self.wrapped = wrapped }

    func send(_ request: HTTPRequest, body: Data?, limits: HTTPRequestLimits) async throws -> (Data, HTTPResponse) {
        let start = ContinuousClock.now
        defer {
            let spent = ContinuousClock.now - start
            lock.withLock { elapsed += spent }
        }
        return try await wrapped.send(request, body: body, limits: limits)
    }

    func reset() { lock.withLock { elapsed = .zero } }

    var elapsedNanoseconds: Int {
        let components = lock.withLock { elapsed }.components
        return Int(components.seconds) * 1_000_000_000 + Int(components.attoseconds / 1_000_000_000)
    }
}
