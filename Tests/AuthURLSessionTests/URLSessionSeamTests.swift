import AuthCore
import AuthOIDC
import AuthTesting
import AuthURLSession
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport written for the earlier `URLRequest` seam, migrated by changing its conformance only: it answers
/// from the in-process identity provider, and can be told to hang (ignoring cancellation) or to pad its bodies.
private struct LegacyTransport: URLRequestTransport {
    let idp: TestIdentityProvider
    var hangs = false
    var padding = 0

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let url = try #require(request.url)
        if hangs {
            await withCheckedContinuation { (resumed: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().asyncAfter(deadline: .now() + 120) { resumed.resume() }
            }
        }
        var captured = CapturedRequest(url: url, body: request.httpBody)
        captured.httpMethod = request.httpMethod ?? "GET"
        for (name, value) in request.allHTTPHeaderFields ?? [:] { captured.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = await idp.handle(captured)
        var fields: [String: String] = [:]
        for field in response.headerFields { fields[field.name.rawName] = field.value }
        let legacy = try #require(HTTPURLResponse(url: url, statusCode: response.status.code, httpVersion: "HTTP/1.1", headerFields: fields))
        return (data + Data(repeating: 0x20, count: padding), legacy)
    }
}

private func provider() -> OpenIDProvider {
    OpenIDProvider(
        issuer: TestIdentityProvider.defaultIssuer,
        client: ClientRegistration(
            clientID: TestIdentityProvider.defaultClientID, redirectURI: TestIdentityProvider.defaultRedirectURI,
            scopes: ["openid", "email", "offline_access"]))
}

@Suite("the HTTPTypes seam, URLSession in its own module, and the migration of URLRequest transports")
struct URLSessionSeamTests {
    @Test("A transport written for URLRequest signs in and refreshes after changing only its conformance")
    func legacyTransportSignsIn() async throws {
        let idp = TestIdentityProvider()
        let storage = InMemoryTokenStorage()
        let client = AuthClient(provider: provider(), storage: storage, transport: LegacyTransport(idp: idp), logger: RecordingLogger(), clock: idp.clock)
        let session = try await client.signIn(with: HeadlessUserAgent(transport: idp.transport))
        #expect(await session.idTokenClaims?.subject == "user-1234")
        let before = await session.credential.accessToken
        #expect(try await session.refresh().accessToken != before)
        #expect(await idp.tokenRequestsByGrant == ["authorization_code": 1, "refresh_token": 1])
        #expect(await storage.storedKeys().count == 1)
    }

    @Test("The adapter keeps the limits: a body over the cap is response_too_large, nothing stored")
    func legacyTransportCap() async throws {
        let idp = TestIdentityProvider()
        let storage = InMemoryTokenStorage()
        var options = AuthClient.Options()
        options.maximumResponseSize = 4096
        let client = AuthClient(
            provider: provider(), storage: storage, transport: LegacyTransport(idp: idp, padding: 8192),
            logger: RecordingLogger(), clock: idp.clock, options: options)
        let error = await #expect(throws: AuthError.self) { _ = try await client.signIn(with: HeadlessUserAgent(transport: idp.transport)) }
        #expect(error?.code == .responseTooLarge)
        #expect(await storage.storedKeys().isEmpty)
    }

    @Test("The adapter keeps the deadline: a transport that hangs and ignores cancellation ends in timed_out on time")
    func legacyTransportDeadline() async throws {
        let idp = TestIdentityProvider()
        var options = AuthClient.Options()
        options.requestTimeout = .milliseconds(300)
        let client = AuthClient(
            provider: provider(), transport: LegacyTransport(idp: idp, hangs: true),
            logger: RecordingLogger(), clock: idp.clock, options: options)
        let started = ContinuousClock.now
        let error = await #expect(throws: AuthError.self) { _ = try await client.metadata() }
        #expect(error?.code == .timedOut)
        // Far below the transport's 120-second hang, with room for a loaded machine.
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test("Session.send(URLRequest) sends the method, headers and body with the bearer, and refreshes once on 401")
    func sessionSendsURLRequest() async throws {
        let idp = TestIdentityProvider()
        let recorder = RecordingTransport(idp.transport)
        let client = AuthClient(provider: provider(), transport: recorder, logger: RecordingLogger(), clock: idp.clock)
        let session = try await client.signIn(with: HeadlessUserAgent(transport: idp.transport))
        await idp.revokeAccessTokens()
        var request = URLRequest(url: idp.endpoint("/api/resource"))
        request.httpMethod = "POST"
        request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data("hello".utf8)
        let (_, response) = try await session.send(request)
        #expect(response.statusCode == 200)
        #expect(response.url == request.url)
        let sent = await recorder.exchanges(pathSuffix: "/api/resource")
        #expect(sent.map(\.status) == [401, 200])
        #expect(sent.allSatisfy { $0.request.httpMethod == "POST" && $0.request.httpBody == Data("hello".utf8) })
        #expect(sent.allSatisfy { $0.request.value(forHTTPHeaderField: "Content-Type") == "text/plain" })
        #expect(sent.last?.request.value(forHTTPHeaderField: "Authorization") == "Bearer \(await session.credential.accessToken.reveal())")
        #expect(await idp.tokenRequestsByGrant["refresh_token"] == 1)
    }

    @Test("AuthClient(provider:) without a transport sends through URLSession, behind the guard")
    func defaultTransport() {
        let client = AuthClient(provider: provider())
        let guarded = client.transport as? GuardedTransport
        #expect(guarded?.base is URLSessionTransport)
    }

    @Test("The guard refuses cleartext before anything is sent, whatever the transport")
    func cleartextRefused() async throws {
        let idp = TestIdentityProvider()
        let recorder = RecordingTransport(idp.transport)
        let guarded = GuardedTransport(recorder, limits: HTTPRequestLimits())
        let error = await #expect(throws: AuthError.self) {
            _ = try await guarded.send(HTTPRequest(method: .get, url: URL(string: "http://idp.example.test/userinfo")!))
        }
        #expect(error?.code == .insecureEndpoint)
        #expect(await recorder.exchanges.isEmpty)
    }
}
