import AuthCore
import AuthLoopback
import AuthTesting
import AuthURLSession
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A provider registered with a loopback redirect on the in-process identity provider.
private struct LoopbackProvider: AuthProvider {
    static let id: ProviderID = "loopback-test"
    let client = ClientRegistration(clientID: "cli", redirectURI: URL(string: "http://127.0.0.1/callback")!, scopes: ["openid"])
    init() {}
    init(configuration: ProviderConfiguration) throws { self.init() }
    var endpointSource: EndpointSource { .discovery(issuer: TestIdentityProvider.defaultIssuer) }
}

/// Sends a real HTTP GET over the loopback interface and returns the status and body.
private func get(_ url: URL) async throws -> (Int, String) {
    let (data, response) = try await URLSessionTransport().send(HTTPRequest(method: .get, url: url))
    return (response.statusCode, String(decoding: data, as: UTF8.self))
}

@Suite("LoopbackUserAgent (RFC 8252 §7.3)", .serialized)
struct LoopbackUserAgentTests {
    private let idp = TestIdentityProvider(
        configuration: .init(
            clients: [.init(id: "cli", redirectURIs: [URL(string: "http://127.0.0.1/callback")!])]
        ))

    private var client: AuthClient {
        AuthClient(provider: LoopbackProvider(), transport: idp.transport, logger: RecordingLogger(), clock: idp.clock)
    }

    @Test("A full sign-in through a real loopback listener on an ephemeral port")
    func signInOverLoopback() async throws {
        let idp = idp
        let seenRedirect = LockedURL()
        let session = try await client.signInWithLoopback(
            browser: .custom { url in
                // The "browser": the identity provider answers the authorization URL with a redirect, which the
                // browser then follows to the loopback listener over real HTTP.
                let request = AuthorizationRequest(
                    providerID: "loopback-test", url: url, redirectURI: URL(string: "http://127.0.0.1/")!,
                    state: "", prefersEphemeralSession: false, expiresAt: .distantFuture)
                let redirect = try await HeadlessUserAgent(transport: idp.transport).followRedirects(request)
                await seenRedirect.set(redirect)
                let (status, page) = try await get(redirect)
                #expect(status == 200)
                #expect(page.contains("You can close this window"))
            }, timeout: .seconds(20))
        #expect(await session.subject == "user-1234")
        let redirect = try #require(await seenRedirect.value)
        #expect(redirect.host == "127.0.0.1")
        #expect((redirect.port ?? 0) > 0)
        #expect(redirect.path == "/callback")
    }

    @Test("Other paths get 404 and do not complete; the listener closes after the one redirect")
    func otherPathsAndClosing() async throws {
        let agent = try await LoopbackUserAgent.start(redirectURI: URL(string: "http://127.0.0.1:0/callback")!, browser: .custom { _ in }, timeout: .seconds(20))
        let port = try #require(agent.redirectURI.port)
        let (status, _) = try await get(URL(string: "http://127.0.0.1:\(port)/favicon.ico")!)
        #expect(status == 404)
        let (postStatus, _) = try await {
            let request = HTTPRequest(method: .post, url: URL(string: "http://127.0.0.1:\(port)/callback?code=x&state=y")!)
            let (data, response) = try await URLSessionTransport().send(request)
            return (response.statusCode, data)
        }()
        // A POST is an answer only as a form (response_mode=form_post): this one, with no form, gets 415.
        #expect(postStatus == 415)

        let request = AuthorizationRequest(
            providerID: "loopback-test", url: URL(string: "https://idp.example.test/authorize")!,
            redirectURI: agent.redirectURI, state: "y", prefersEphemeralSession: false, expiresAt: .distantFuture)
        async let result = agent.authorize(request)
        try await Task.sleep(for: .milliseconds(50))
        let (okStatus, _) = try await get(URL(string: "http://127.0.0.1:\(port)/callback?code=x&state=y")!)
        #expect(okStatus == 200)
        let redirect = try await result
        #expect(redirect.absoluteString == "http://127.0.0.1:\(port)/callback?code=x&state=y")
        try await Task.sleep(for: .milliseconds(100))
        #expect(!agent.isListening)
        await #expect(throws: (any Error).self) { _ = try await get(URL(string: "http://127.0.0.1:\(port)/callback?code=again")!) }
    }

    @Test("hostile-loopback-foreign-request: a request without the pending state gets 400 and the wait goes on")
    func foreignRequestIgnored() async throws {
        let agent = try await LoopbackUserAgent.start(redirectURI: URL(string: "http://127.0.0.1:0/callback")!, browser: .custom { _ in }, timeout: .seconds(20))
        let port = try #require(agent.redirectURI.port)
        let request = AuthorizationRequest(
            providerID: "loopback-test", url: URL(string: "https://idp.example.test/authorize")!,
            redirectURI: agent.redirectURI, state: "pending-state", prefersEphemeralSession: false, expiresAt: .distantFuture)
        async let result = agent.authorize(request)
        // Until authorize has registered the pending state even the right redirect is refused: wait for that.
        try await Task.sleep(for: .milliseconds(50))
        // A local process or a web page probing the port: no state, another state, an error with another state or with
        // none (any page could send it to cancel the user's sign-in).
        for query in ["code=attacker", "code=attacker&state=guess", "error=access_denied&state=guess", "error=access_denied", ""] {
            let (status, page) = try await get(URL(string: "http://127.0.0.1:\(port)/callback?\(query)")!)
            #expect(status == 400, "\(query)")
            #expect(page.contains("does not belong"))
        }
        #expect(agent.isListening)
        var okStatus = 0
        for _ in 0..<40 where okStatus != 200 {  // on a loaded machine authorize may register the state late
            (okStatus, _) = try await get(URL(string: "http://127.0.0.1:\(port)/callback?code=real&state=pending-state")!)
            if okStatus != 200 { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(okStatus == 200)
        #expect(try await result.absoluteString == "http://127.0.0.1:\(port)/callback?code=real&state=pending-state")
    }

    @Test("rfc8252-localhost-both-families: a localhost redirect listens on 127.0.0.1 and ::1 with one port")
    func localhostListensOnBoth() async throws {
        let agent = try await LoopbackUserAgent.start(redirectURI: URL(string: "http://localhost:0/cb")!, browser: .custom { _ in }, timeout: .seconds(20))
        defer { agent.close() }
        let port = try #require(agent.redirectURI.port)
        #expect(agent.redirectURI.host == "localhost")
        let (status, _) = try await get(URL(string: "http://127.0.0.1:\(port)/other")!)
        #expect(status == 404)
        // FoundationNetworking cannot address [::1] on Linux, so the IPv6 side is checked with a plain TCP connect.
        #expect(canConnectToIPv6Loopback(port: port))
    }

    @Test("No redirect in time ends with timed_out and closes the listener")
    func timeout() async throws {
        let agent = try await LoopbackUserAgent.start(redirectURI: URL(string: "http://127.0.0.1/callback")!, browser: .custom { _ in }, timeout: .milliseconds(200))
        let request = AuthorizationRequest(
            providerID: "loopback-test", url: URL(string: "https://idp.example.test/authorize")!,
            redirectURI: agent.redirectURI, state: "s", prefersEphemeralSession: false, expiresAt: .distantFuture)
        let error = await #expect(throws: AuthError.self) { _ = try await agent.authorize(request) }
        #expect(error?.code == .timedOut)
        try await Task.sleep(for: .milliseconds(100))
        #expect(!agent.isListening)
    }

    @Test("Non-loopback or https redirect URIs are refused", arguments: ["https://127.0.0.1/cb", "http://example.com/cb", "http://192.168.1.2:8080/cb", "com.example.app:/cb"])
    func refusesNonLoopback(uri: String) async {
        let error = await #expect(throws: AuthError.self) { _ = try await LoopbackUserAgent.start(redirectURI: URL(string: uri)!) }
        #expect(error?.code == .invalidConfiguration)
    }

    @Test("A fixed port is honoured and a taken port is a clear error")
    func fixedPort() async throws {
        let first = try await LoopbackUserAgent.start(redirectURI: URL(string: "http://127.0.0.1:0/cb")!)
        let port = try #require(first.redirectURI.port)
        defer { first.close() }
        let error = await #expect(throws: AuthError.self) {
            _ = try await LoopbackUserAgent.start(redirectURI: URL(string: "http://127.0.0.1:\(port)/cb")!)
        }
        #expect(error?.code == .network)
    }
}

/// Whether a TCP connection to `[::1]:port` is accepted.
private func canConnectToIPv6Loopback(port: Int) -> Bool {
    #if canImport(Glibc)
        let descriptor = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
    #else
        let descriptor = socket(AF_INET6, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var address = sockaddr_in6()
    address.sin6_family = sa_family_t(AF_INET6)
    address.sin6_port = in_port_t(UInt16(port).bigEndian)
    address.sin6_addr = in6addr_loopback
    let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
    }
    return result == 0
}

private actor LockedURL {
    var value: URL?
    func set(_ url: URL) { value = url }
}
