import AuthCore
import AuthLoopback
import AuthTesting
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A provider registered with a loopback redirect on the in-process identity provider.
private struct FormPostProvider: AuthProvider {
    static let id: ProviderID = "loopback-form-post"
    let client = ClientRegistration(clientID: "cli", redirectURI: URL(string: "http://127.0.0.1/callback")!, scopes: ["openid"])
    init() {}
    init(configuration: ProviderConfiguration) throws { self.init() }
    var endpointSource: EndpointSource { .discovery(issuer: TestIdentityProvider.defaultIssuer) }
}

/// One HTTP/1.1 request written byte for byte to `127.0.0.1:port` over a plain socket (any method, any header, any
/// body), and the response's status code and body.
private func send(port: Int, method: String, target: String = "/callback", headers: [String] = [], body: [UInt8] = []) async -> (Int, String) {
    await Task.detached {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for header in headers { text += header + "\r\n" }
        if !body.isEmpty || method == "POST" { text += "Content-Length: \(body.count)\r\n" }
        let request = Array((text + "\r\n").utf8) + body
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return (0, "") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return (0, "") }
        // The listener may answer and close before reading a large body: a failed write then is expected.
        var sent = 0
        while sent < request.count {
            let written = request[sent...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written <= 0 { break }
            sent += written
        }
        var response: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            response += chunk[0..<count]
        }
        let reply = String(decoding: response, as: UTF8.self)
        // Skip an interim "100 Continue" to the final status line.
        let finalStatus = reply.components(separatedBy: "\r\n").filter { $0.hasPrefix("HTTP/1.1 ") && !$0.hasPrefix("HTTP/1.1 100") }.first
        let status = finalStatus.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
        return (status, reply.components(separatedBy: "\r\n\r\n").last ?? "")
    }.value
}

private let form = "Content-Type: application/x-www-form-urlencoded"

@Suite("LoopbackUserAgent: response_mode=form_post and the answers the listener cannot take", .serialized)
struct LoopbackFormPostTests {
    /// A listener with an authorization pending for `state` (asking for form_post when `formPost`), and its port.
    private func pending(state: String = "pending-state", formPost: Bool = true, timeout: Duration = .seconds(20)) async throws
        -> (LoopbackUserAgent, Int, Task<URL, any Error>)
    {
        // authorize registers the pending state before it opens the browser: the "browser" says when that happened.
        let (opened, browserOpened) = AsyncStream<Void>.makeStream()
        let agent = try await LoopbackUserAgent.start(
            redirectURI: URL(string: "http://127.0.0.1:0/callback")!, browser: .custom { _ in browserOpened.yield() }, timeout: timeout,
            status: { _ in })
        let port = try #require(agent.redirectURI.port)
        let url = URL(string: "https://idp.example.test/authorize?client_id=cli\(formPost ? "&response_mode=form_post" : "")")!
        let request = AuthorizationRequest(
            providerID: "loopback-form-post", url: url, redirectURI: agent.redirectURI, state: state, prefersEphemeralSession: false,
            expiresAt: .distantFuture)
        let task = Task { try await agent.authorize(request) }
        var iterator = opened.makeAsyncIterator()
        _ = await iterator.next()
        return (agent, port, task)
    }

    @Test("form-post-accepted: the POSTed form becomes the redirect's query, parameters and order kept")
    func formPostAccepted() async throws {
        let (agent, port, task) = try await pending()
        let (status, page) = await send(
            port: port, method: "POST", headers: [form + "; charset=UTF-8"], body: Array("code=c%2B1&state=pending-state&iss=https%3A%2F%2Fidp".utf8))
        #expect(status == 200)
        #expect(page.contains("You can close this window"))
        let redirect = try await task.value
        #expect(redirect.absoluteString == "http://127.0.0.1:\(port)/callback?code=c%2B1&state=pending-state&iss=https%3A%2F%2Fidp")
        #expect(await closesSoon(agent))
    }

    @Test("hostile-loopback-get-to-form-post: the pending answer in the URL of a form_post sign-in ends it with redirect_method_mismatch")
    func getToFormPost() async throws {
        let (_, port, task) = try await pending()
        let (status, _) = await send(port: port, method: "GET", target: "/callback?code=c&state=pending-state")
        #expect(status == 400)
        let error = await #expect(throws: AuthError.self) { _ = try await task.value }
        #expect(error?.code == .redirectMethodMismatch)
        #expect(error?.message.contains("form_post") == true)
    }

    @Test("form-post-error-in-query: a provider's error for a form_post sign-in, in the URL with the pending state, reaches the engine")
    func errorInQueryDelivered() async throws {
        let (_, port, task) = try await pending()
        let (status, _) = await send(port: port, method: "GET", target: "/callback?error=invalid_request&state=pending-state")
        #expect(status == 200)
        #expect(try await task.value.absoluteString == "http://127.0.0.1:\(port)/callback?error=invalid_request&state=pending-state")
    }

    @Test("hostile-loopback-post-to-query: a POSTed answer to a query sign-in ends it with redirect_method_mismatch")
    func postToQuery() async throws {
        let (_, port, task) = try await pending(formPost: false)
        let (status, _) = await send(port: port, method: "POST", headers: [form], body: Array("code=c&state=pending-state".utf8))
        #expect(status == 400)
        let error = await #expect(throws: AuthError.self) { _ = try await task.value }
        #expect(error?.code == .redirectMethodMismatch)
    }

    @Test(
        "hostile-loopback-form-content-type: a posted answer that is not a form ends the sign-in with redirect_form_invalid",
        arguments: [
            ["Content-Type: text/plain"], [], ["Content-Type: application/json"],
            ["Content-Type: multipart/form-data; boundary=x"]
        ])
    func wrongContentType(headers: [String]) async throws {
        let (agent, port, task) = try await pending()
        let body =
            headers.first?.contains("multipart") == true
            ? "--x\r\nContent-Disposition: form-data; name=\"state\"\r\n\r\npending-state\r\n--x--\r\n" : "state=pending-state&code=c"
        let (status, _) = await send(port: port, method: "POST", headers: headers, body: Array(body.utf8))
        #expect(status == 415)
        let error = await #expect(throws: AuthError.self) { _ = try await task.value }
        #expect(error?.code == .redirectFormInvalid)
        #expect(await closesSoon(agent))
    }

    @Test(
        "hostile-loopback-form-too-large: a form over 16 KiB (or over the read limit) ends the sign-in with redirect_too_large",
        arguments: [LoopbackUserAgent.maximumFormBodySize + 1, 2 << 20])
    func oversized(size: Int) async throws {
        let (_, port, task) = try await pending()
        var body = Array("state=pending-state&code=c&pad=".utf8)
        body += [UInt8](repeating: UInt8(ascii: "a"), count: size - body.count)
        let (status, _) = await send(port: port, method: "POST", headers: [form], body: body)
        #expect(status == 413)
        let error = await #expect(throws: AuthError.self) { _ = try await task.value }
        #expect(error?.code == .redirectTooLarge)
    }

    @Test("hostile-loopback-other-method: PUT with the pending state ends the sign-in with redirect_method_mismatch (405, Allow)")
    func otherMethod() async throws {
        let (_, port, task) = try await pending()
        let (status, _) = await send(port: port, method: "PUT", target: "/callback?state=pending-state", headers: [form], body: Array("code=c".utf8))
        #expect(status == 405)
        let error = await #expect(throws: AuthError.self) { _ = try await task.value }
        #expect(error?.code == .redirectMethodMismatch)
    }

    @Test("hostile-loopback-mixed: GETs and POSTs without the pending state are answered and ignored; the real form POST then completes")
    func mixedForeignRequests() async throws {
        let (agent, port, task) = try await pending()
        var padding = Array("code=x&pad=".utf8)
        padding += [UInt8](repeating: UInt8(ascii: "a"), count: LoopbackUserAgent.maximumFormBodySize)
        let probes: [(String, String, [String], [UInt8], Int)] = [
            ("GET", "/callback?code=attacker&state=guess", [], [], 400),
            ("GET", "/callback?error=access_denied", [], [], 400),
            ("POST", "/callback", [form], Array("code=attacker&state=guess".utf8), 400),
            ("POST", "/callback", [form], Array("error=access_denied".utf8), 400),
            ("POST", "/callback", ["Content-Type: text/plain"], Array("code=attacker".utf8), 415),
            ("POST", "/callback", [form], padding + Array("&state=pending-state".utf8), 413),  // the state beyond what is read
            ("DELETE", "/callback", [], [], 405),
            ("POST", "/other", [form], Array("state=pending-state".utf8), 404)
        ]
        for (method, target, headers, body, expected) in probes {
            let (status, _) = await send(port: port, method: method, target: target, headers: headers, body: body)
            #expect(status == expected, "\(method) \(target)")
        }
        #expect(agent.isListening)
        let (status, _) = await send(port: port, method: "POST", headers: [form], body: Array("code=real&state=pending-state".utf8))
        #expect(status == 200)
        #expect(try await task.value.absoluteString == "http://127.0.0.1:\(port)/callback?code=real&state=pending-state")
    }

    @Test("hostile-loopback-refusal-then-timeout: an answer refused without the state is what the timeout names, and it is reported once")
    func refusalNamedByTimeout() async throws {
        let reports = ReportLog()
        let (opened, browserOpened) = AsyncStream<Void>.makeStream()
        let agent = try await LoopbackUserAgent.start(
            redirectURI: URL(string: "http://127.0.0.1:0/callback")!, browser: .custom { _ in browserOpened.yield() }, timeout: .seconds(2),
            status: { line in Task { await reports.append(line) } })
        let port = try #require(agent.redirectURI.port)
        let request = AuthorizationRequest(
            providerID: "loopback-form-post", url: URL(string: "https://idp.example.test/authorize?response_mode=form_post")!,
            redirectURI: agent.redirectURI, state: "s-1", prefersEphemeralSession: false, expiresAt: .distantFuture)
        let task = Task { try await agent.authorize(request) }
        var iterator = opened.makeAsyncIterator()
        _ = await iterator.next()
        for _ in 0..<2 {
            let (status, _) = await send(port: port, method: "POST", headers: ["Content-Type: text/plain"], body: Array("code=c".utf8))
            #expect(status == 415)
        }
        let error = await #expect(throws: AuthError.self) { _ = try await task.value }
        #expect(error?.code == .redirectFormInvalid)
        #expect(error?.message.contains("No usable redirect arrived") == true)
        #expect(await reports.lines.filter { $0.contains("redirect_form_invalid") }.count == 1)
    }

    @Test("form-post-sign-in: a full sign-in answered by form POST is stored; the same answer in the URL is refused and nothing is stored")
    func signInEndToEnd() async throws {
        let idp = TestIdentityProvider(configuration: .init(clients: [.init(id: "cli", redirectURIs: [URL(string: "http://127.0.0.1/callback")!])]))
        for posted in [true, false] {
            let storage = InMemoryTokenStorage()
            let client = AuthClient(provider: FormPostProvider(), storage: storage, transport: idp.transport, logger: RecordingLogger(), clock: idp.clock)
            var options = SignInOptions()
            options.additionalParameters["response_mode"] = "form_post"
            let browser = LoopbackUserAgent.Browser.custom { url in
                #expect(url.absoluteString.contains("response_mode=form_post"))
                // The provider's answer as a redirect, then sent as the form it posts (or, wrongly, as that redirect).
                let request = AuthorizationRequest(
                    providerID: "loopback-form-post", url: url, redirectURI: URL(string: "http://127.0.0.1/")!, state: "",
                    prefersEphemeralSession: false, expiresAt: .distantFuture)
                let redirect = try await HeadlessUserAgent(transport: idp.transport).followRedirects(request)
                let port = redirect.port ?? 0
                let query = URLComponents(url: redirect, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
                Task {
                    _ =
                        posted
                        ? await send(port: port, method: "POST", headers: [form], body: Array(query.utf8))
                        : await send(port: port, method: "GET", target: "/callback?" + query)
                }
            }
            if posted {
                let session = try await client.signInWithLoopback(browser: browser, timeout: .seconds(20), options: options)
                #expect(await session.subject == "user-1234")
                #expect(await storage.storedKeys().count == 1)
            } else {
                let error = await #expect(throws: AuthError.self) {
                    _ = try await client.signInWithLoopback(browser: browser, timeout: .seconds(20), options: options)
                }
                #expect(error?.code == .redirectMethodMismatch)
                #expect(await storage.storedKeys().isEmpty)
            }
        }
    }
}

/// Whether the listener stops listening within two seconds (it closes asynchronously after `authorize` returns).
private func closesSoon(_ agent: LoopbackUserAgent) async -> Bool {
    for _ in 0..<40 {
        if !agent.isListening { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return !agent.isListening
}

private actor ReportLog {
    var lines: [String] = []
    func append(_ line: String) { lines.append(line) }
}
