import AuthCore
import AuthFileStorage
import AuthTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Hostile inputs that need more than one sign-in, a stored file, a concurrent operation or a transport that
/// misbehaves in time; each test's id is listed in SECURITY.md (checked by `HostileScenarioTests`).
@Suite("Hostile inputs: numbers, cleartext, limits, sign-out races, stale keys, provider text")
struct HostileInputTests {
    static let documentedIDs = [
        "hostile-expires-in-clamped", "hostile-stored-credential-out-of-range", "rfc6750-bearer-only-over-https",
        "hostile-transport-ignores-deadline", "hostile-signout-during-refresh", "oauth-jwks-withdrawn-key-expires",
        "oauth-jwks-cache-control-max-age", "hostile-provider-text-sanitized", "rfc8252-loopback-ip-literals-only"
    ]

    @Test("hostile-expires-in-clamped: expires_in 1e19 is stored as ten years, and every later step handles it")
    func expiresInClamped() async throws {
        let fixture = Fixture()
        await fixture.idp.update { $0.tokenResponseOverrides["expires_in"] = 1e19 }
        let session = try await fixture.signIn()
        let credential = await session.credential
        let expiresAt = try #require(credential.expiresAt)
        #expect(expiresAt.timeIntervalSince(fixture.clock.now()) == JSONValue.maximumLifetime)
        #expect(expiresAt.isWithinTimestampRange)
        #expect(fixture.logger.lines.contains { $0.contains("signin.completed") && $0.contains("expires_in=\(Int(JSONValue.maximumLifetime))") })
        // Restoring the stored session and asking for a token must not trap either.
        let restored = try #require(try await fixture.client.restoreSession())
        #expect(try await restored.validAccessToken() == credential.accessToken)
    }

    @Test("hostile-stored-credential-out-of-range: a file whose dates overflow loads as storage_corrupted")
    func storedCredentialOutOfRange() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("auth-hostile-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = FileTokenStorage(directory: directory)
        let fixture = Fixture(storage: storage)
        let session = try await fixture.signIn()
        let file = storage.fileURL(for: session.storageKey)
        // Tamper with the stored file: an expiry no date arithmetic survives.
        var text = try String(contentsOf: file, encoding: .utf8)
        let expiry = try #require(text.range(of: #""expiresAt":[0-9.e+]+"#, options: .regularExpression))
        text.replaceSubrange(expiry, with: #""expiresAt":1e300"#)
        try Data(text.utf8).write(to: file)

        let error = await authError { _ = try await storage.credential(for: session.storageKey) }
        #expect(error?.code == .storageCorrupted)
        let restoreError = await authError { _ = try await fixture.client.restoreSession() }
        #expect(restoreError?.code == .storageCorrupted)
    }

    @Test("rfc6750-bearer-only-over-https: a session never sends its token over cleartext to a non-loopback host")
    func bearerOnlyOverHTTPS() async throws {
        let fixture = Fixture()
        let session = try await fixture.signIn()
        for target in ["http://api.example.test/me", "http://127.evil.test/me", "http://localhost/me", "file:///etc/passwd", "ftp://127.0.0.1/me"] {
            let error = await authError { _ = try await session.send(CapturedRequest(url: URL(string: target)!)) }
            #expect(error?.code == .insecureEndpoint, "\(target)")
        }
        // Nothing left the process for any of them.
        #expect(await fixture.transport.exchanges.allSatisfy { $0.request.url?.isSecureEndpoint == true })
        // A loopback IP literal is allowed: the request reaches the transport (which has no such host in-process).
        _ = await authError { _ = try await session.send(CapturedRequest(url: URL(string: "http://127.0.0.1:9/me")!)) }
        #expect(await fixture.transport.exchanges(pathSuffix: "/me").count == 1)
    }

    @Test("hostile-transport-ignores-deadline: a transport that never answers (and ignores cancellation) ends in timed_out on time")
    func transportIgnoresDeadline() async throws {
        let idp = TestIdentityProvider()
        let hanging = HangingTransport(idp.transport, hangingPathSuffix: "/token")
        let storage = InMemoryTokenStorage()
        var options = AuthClient.Options()
        options.requestTimeout = .milliseconds(300)
        let client = AuthClient(
            provider: PlainOIDCProvider(
                issuer: TestIdentityProvider.defaultIssuer,
                client: ClientRegistration(
                    clientID: TestIdentityProvider.defaultClientID, redirectURI: TestIdentityProvider.defaultRedirectURI, scopes: ["openid"])),
            storage: storage, transport: hanging, logger: RecordingLogger(), clock: idp.clock, options: options
        )
        let started = ContinuousClock.now
        let error = await authError { _ = try await client.signIn(with: HeadlessUserAgent(transport: idp.transport)) }
        #expect(error?.code == .timedOut)
        // Far below the transport's 120-second hang, with room for a machine busy with the other suites (timers wait
        // for a cooperative thread, and suites generating RSA keys hold both of a 2-core machine's for seconds).
        #expect(ContinuousClock.now - started < .seconds(30))
        #expect(await storage.storedKeys().isEmpty)
    }

    @Test("hostile-signout-during-refresh: sign-out wins; the refreshed tokens are revoked and nothing is stored")
    func signOutDuringRefresh() async throws {
        let idp = TestIdentityProvider()
        let gate = GatedTransport(idp.transport, gatedGrant: "refresh_token")
        let recording = RecordingTransport(gate)
        let storage = InMemoryTokenStorage()
        let client = AuthClient(
            provider: PlainOIDCProvider(
                issuer: TestIdentityProvider.defaultIssuer,
                client: ClientRegistration(
                    clientID: TestIdentityProvider.defaultClientID, redirectURI: TestIdentityProvider.defaultRedirectURI,
                    scopes: ["openid", "offline_access"])),
            storage: storage, transport: recording, logger: RecordingLogger(), clock: idp.clock
        )
        let session = try await client.signIn(with: HeadlessUserAgent(transport: idp.transport))
        let refreshing = Task { try await session.refresh() }
        await gate.waitUntilHeld()
        let signingOut = Task { try await session.signOut(revokingTokens: true) }
        // Let sign-out reach its wait before the refresh response arrives.
        try await Task.sleep(for: .milliseconds(50))
        await gate.release()
        let refreshed = try await refreshing.value
        let report = try await signingOut.value

        #expect(report.revokedRefreshToken && report.revokedAccessToken)
        #expect(await storage.storedKeys().isEmpty)
        #expect(try await client.restoreSession() == nil)
        let revoked = await recording.exchanges(pathSuffix: "/revoke").compactMap { $0.formParameters["token"] }
        #expect(revoked.contains(try #require(refreshed.refreshToken).reveal()))
        #expect(revoked.contains(refreshed.accessToken.reveal()))
        let error = await authError { _ = try await session.validAccessToken() }
        #expect(error?.code == .notSignedIn)
    }

    @Test("oauth-jwks-withdrawn-key-expires: a key withdrawn from the JWKS stops validating once the cache expires")
    func withdrawnKeyExpires() async throws {
        let fixture = Fixture()
        _ = try await fixture.signIn()
        await fixture.idp.update {
            $0.withdrawsPrimaryKeys = true
            $0.publishRotatedKeys = true
        }
        // Within the day the cached key set is still trusted (no JWKS request at all).
        fixture.clock.advance(by: 3600)
        _ = try await fixture.signIn()
        #expect(await fixture.transport.exchanges(pathSuffix: "/jwks").count == 1)
        // After the default maximum age, the key set is fetched again and the withdrawn key is gone.
        fixture.clock.advance(by: 24 * 3600)
        let error = await authError { _ = try await fixture.signIn() }
        #expect(error?.code == .unknownKeyID)
        #expect(try await fixture.storedCount() == 1)  // the account of the two earlier sign-ins, unchanged
    }

    @Test("oauth-jwks-cache-control-max-age: Cache-Control max-age sets the key set's lifetime (capped at a day)")
    func cacheControlMaxAge() async throws {
        let fixture = Fixture()
        await fixture.idp.update { $0.jwksCacheControl = "public, max-age=300" }
        _ = try await fixture.signIn()
        fixture.clock.advance(by: 299)
        _ = try await fixture.signIn()
        #expect(await fixture.transport.exchanges(pathSuffix: "/jwks").count == 1)
        fixture.clock.advance(by: 2)
        _ = try await fixture.signIn()
        #expect(await fixture.transport.exchanges(pathSuffix: "/jwks").count == 2)

        #expect(KeySetCacheProbe.maxAge("max-age=86400000") == 86_400_000)
        #expect(KeySetCacheProbe.maxAge("no-store") == 0)
        #expect(KeySetCacheProbe.maxAge("max-age=-5") == nil)
        #expect(KeySetCacheProbe.maxAge("max-age=0x10") == nil)
        #expect(KeySetCacheProbe.maxAge(nil) == nil)
    }

    @Test("hostile-provider-text-sanitized: escape sequences from a provider reach no error, log or description")
    func providerTextSanitized() async throws {
        let fixture = Fixture()
        await fixture.idp.update {
            $0.idTokenClaimOverrides["iss"] = "https://idp.example.test\u{1b}[2J\u{1b}]0;pwned\u{07}\u{202e}\r\nforged: line"
        }
        let error = await authError { _ = try await fixture.signIn() }
        #expect(error?.code == .invalidIssuer)
        let texts = [error?.message ?? "", error?.description ?? ""] + fixture.logger.lines
        for text in texts {
            #expect(!ProviderText.containsUnsafeCharacters(text), "\(text.debugDescription)")
        }
        #expect(error?.message.contains("https://idp.example.test?[2J?]0;pwned???") == true)
        #expect(ProviderText.sanitized("a\u{9b}31mb\u{2066}c\u{0}d") == "a?31mb?c?d")
        #expect(ProviderText.sanitized(String(repeating: "x", count: 10), limit: 4) == "xxxx…")
    }

    @Test(
        "rfc8252-loopback-ip-literals-only: loopback means an IP literal in 127/8 or ::1, never a name",
        arguments: [
            ("http://127.0.0.1/cb", true), ("http://127.255.255.254:8080/", true), ("http://[::1]:9/", true),
            ("http://[0:0:0:0:0:0:0:1]/", true), ("http://[::0:1]/", true), ("https://idp.example.test/", true),
            ("http://localhost/", false), ("http://127.evil.test/", false), ("http://127.0.0.1.nip.io/", false),
            ("http://0177.0.0.1/", false), ("http://127.1/", false), ("http://128.0.0.1/", false), ("http://[::2]/", false),
            ("http://[::ffff:127.0.0.1]/", false), ("file:///etc/passwd", false), ("smb://127.0.0.1/share", false),
            ("com.example.app:/cb", false), ("https:///nohost", false), ("http://127.0.0.256/", false)
        ]
    )
    func loopbackLiterals(url: String, secure: Bool) throws {
        let parsed = try #require(URL(string: url))
        #expect(parsed.isSecureEndpoint == secure)
        if !secure {
            #expect(throws: AuthError.self) { try parsed.requireSecureEndpoint("endpoint") }
        }
    }
}

/// `KeySetCache` is package-internal; its header parsing is what this probes.
private enum KeySetCacheProbe {
    static func maxAge(_ header: String?) -> TimeInterval? {
        KeySetCache.maxAge(cacheControl: header)
    }
}

/// Never answers requests whose path ends with `hangingPathSuffix`, and ignores cancellation while not answering
/// (as a careless third-party transport might); everything else goes to `base`.
private struct HangingTransport: HTTPTransport {
    let base: any HTTPTransport
    let hangingPathSuffix: String

    init(_ base: any HTTPTransport, hangingPathSuffix: String) {
        self.base = base
        self.hangingPathSuffix = hangingPathSuffix
    }

    func send(_ request: HTTPRequest, body: Data?, limits: HTTPRequestLimits) async throws -> (Data, HTTPResponse) {
        if request.url?.path.hasSuffix(hangingPathSuffix) == true {
            // Ignores cancellation (without spinning on a cooperative thread): only the seam's deadline can end
            // the caller's wait.
            await withCheckedContinuation { (resumed: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().asyncAfter(deadline: .now() + 120) { resumed.resume() }
            }
        }
        return try await base.send(request, body: body, limits: limits)
    }
}

/// Holds token requests of one grant type until released, to run something while a refresh is in flight.
private actor GatedTransport: HTTPTransport {
    private let base: any HTTPTransport
    private let gatedGrant: String
    private var held: [CheckedContinuation<Void, Never>] = []
    private var heldWaiters: [CheckedContinuation<Void, Never>] = []
    private var released = false

    init(_ base: any HTTPTransport, gatedGrant: String) {
        self.base = base
        self.gatedGrant = gatedGrant
    }

    func send(_ request: HTTPRequest, body: Data?, limits: HTTPRequestLimits) async throws -> (Data, HTTPResponse) {
        let form = body.map { String(decoding: $0, as: UTF8.self) } ?? ""
        if !released, form.contains("grant_type=\(gatedGrant)") {
            await withCheckedContinuation { continuation in
                held.append(continuation)
                heldWaiters.forEach { $0.resume() }
                heldWaiters.removeAll()
            }
        }
        return try await base.send(request, body: body, limits: limits)
    }

    /// Returns once a request is being held.
    func waitUntilHeld() async {
        if !held.isEmpty { return }
        await withCheckedContinuation { heldWaiters.append($0) }
    }

    /// Lets every held request (and all later ones) through.
    func release() {
        released = true
        held.forEach { $0.resume() }
        held.removeAll()
    }
}
