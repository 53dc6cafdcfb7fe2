import AuthCore
import AuthTesting
import Foundation
import Testing

/// The byte-level rewrites (redirect matching and parsing, query building, one CSPRNG draw, the
/// pending-request sweep, level-gated logging) keep every rule of the Foundation-based code they replaced.
@Suite("Byte-level redirects, queries and secrets")
struct ByteLevelParsingTests {
    /// What redirect matching was before: `URLComponents` on both sides.
    private func componentsMatch(_ redirect: URL, _ registered: URL) -> Bool {
        guard let a = URLComponents(url: redirect, resolvingAgainstBaseURL: false),
            let b = URLComponents(url: registered, resolvingAgainstBaseURL: false)
        else { return false }
        return a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased()
            && a.port == b.port && a.percentEncodedPath == b.percentEncodedPath
    }

    @Test("Redirect matching agrees with URLComponents, and also refuses user info that the registration lacks")
    func matchingAgreesWithURLComponents() throws {
        let registered = [
            "com.example.app:/oauth/callback", "com.example.app://callback", "http://127.0.0.1:53682/callback",
            "http://[::1]:8080/cb", "https://app.example.com/auth/oidc/callback", "https://app.example.com:8443/cb"
        ].map { URL(string: $0)! }
        let received = [
            "com.example.app:/oauth/callback?code=a&state=b", "COM.EXAMPLE.APP:/oauth/callback", "com.example.app:/oauth/callback/",
            "com.example.app:/OAUTH/callback", "com.example.app://callback?x=1", "com.example.app://CALLBACK",
            "http://127.0.0.1:53682/callback?code=x#frag", "HTTP://127.0.0.1:53682/callback", "http://127.0.0.1:53683/callback",
            "http://127.0.0.1/callback", "http://localhost:53682/callback", "https://127.0.0.1:53682/callback",
            "http://[::1]:8080/cb?code=1", "http://[::1]/cb", "http://[::2]:8080/cb", "https://APP.example.com/auth/oidc/callback",
            "https://app.example.com:443/auth/oidc/callback", "https://app.example.com/auth/oidc/callback%2F",
            "https://app.example.com.evil.test/auth/oidc/callback", "https://app.example.com:8443/cb", "https://app.example.com:08443/cb",
            "https://app.example.com/auth/oidc/callback?code=1&state=2", "other:/oauth/callback", "https://app.example.com"
        ].map { URL(string: $0)! }
        for expected in registered {
            for redirect in received {
                #expect(
                    AuthorizationResponse.redirect(redirect, matches: expected) == componentsMatch(redirect, expected),
                    "\(redirect) against \(expected)")
            }
        }
        // URLComponents ignores user info; an exact match does not: nothing may be smuggled before the host.
        let loopback = URL(string: "http://127.0.0.1:53682/callback")!
        let withUserInfo = URL(string: "http://attacker@127.0.0.1:53682/callback?code=x")!
        #expect(componentsMatch(withUserInfo, loopback))
        #expect(!AuthorizationResponse.redirect(withUserInfo, matches: loopback))
        #expect(throws: AuthError.self) { try AuthorizationResponse(redirect: withUserInfo, redirectURI: loopback) }
    }

    @Test("Response parameters are percent-decoded, + is a space, bad escapes stay literal, repeats are refused")
    func responseParameters() throws {
        #expect(FormEncoding.decode("code=a%2Bb%3D").map(\.1) == ["a+b="])
        let registered = URL(string: "com.example.app:/cb")!
        let response = try AuthorizationResponse(
            redirect: URL(string: "com.example.app:/cb?code=a%2Bb%3D&state=s+t&error_description=a%20b&iss=https%3A%2F%2Fidp.test&empty=&flag#ignored=1")!,
            redirectURI: registered
        )
        #expect(response.code == "a+b=")
        #expect(response.state == "s t")
        #expect(response.errorDescription == "a b")
        #expect(FormEncoding.decode("e=bad%ZZescape+x&f=%4").map(\.1) == ["bad%ZZescape x", "%4"])
        #expect(response.issuer == "https://idp.test")
        #expect(response.parameters["empty"] == "" && response.parameters["flag"] == "")
        #expect(response.parameters["ignored"] == nil)
        #expect(try AuthorizationResponse(redirect: URL(string: "com.example.app:/cb?x=%FF%FE")!, redirectURI: registered).parameters["x"] == "%FF%FE")
        #expect(try AuthorizationResponse(redirect: registered, redirectURI: registered).parameters.isEmpty)
        let repeated = URL(string: "com.example.app:/cb?code=1&state=s&code=2")!
        #expect { try AuthorizationResponse(redirect: repeated, redirectURI: registered) } throws: {
            ($0 as? AuthError)?.code == .duplicateParameter
        }
        let elsewhere = URL(string: "com.example.app:/other?code=1")!
        #expect { try AuthorizationResponse(redirect: elsewhere, redirectURI: registered) } throws: {
            ($0 as? AuthError)?.code == .redirectMismatch
        }
    }

    @Test("A JWS whose signature segment is re-encoded non-canonically is malformed, not merely a bad signature")
    func nonCanonicalSignatureSegment() throws {
        let keys = TestSigningKeys.primary
        let token = TestJWT.make(header: ["alg": "RS256", "kid": .string(keys.keyID(for: .rs256))], claims: ["sub": "s"]) {
            keys.sign($0, algorithm: .rs256)
        }
        #expect(throws: Never.self) { try CompactJWS(parsing: token) }
        // A 256-byte signature ends in a two-character group whose second character carries 4 unused bits.
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let last = try #require(token.last.flatMap { alphabet.firstIndex(of: $0) })
        #expect(last & 0x0F == 0)
        let altered = String(token.dropLast()) + String(alphabet[last + 1])
        #expect(Base64URL.decode(String(altered.split(separator: ".")[2])) == nil)
        #expect { try CompactJWS(parsing: altered) } throws: { ($0 as? AuthError)?.code == .malformedIDToken }
    }

    @Test("A query is appended after an existing one, after a bare '?', and before a fragment")
    func appendingQuery() {
        let pairs = [("a", "x y"), ("b", "é/&=")]
        #expect(URL(string: "https://idp.test/authorize")!.appendingQuery(pairs).absoluteString == "https://idp.test/authorize?a=x%20y&b=%C3%A9%2F%26%3D")
        #expect(URL(string: "https://idp.test/authorize?p=B2C_1")!.appendingQuery(pairs).absoluteString == "https://idp.test/authorize?p=B2C_1&a=x%20y&b=%C3%A9%2F%26%3D")
        #expect(URL(string: "https://idp.test/authorize?")!.appendingQuery(pairs).absoluteString == "https://idp.test/authorize?a=x%20y&b=%C3%A9%2F%26%3D")
        #expect(URL(string: "https://idp.test/authorize#f")!.appendingQuery(pairs).absoluteString == "https://idp.test/authorize?a=x%20y&b=%C3%A9%2F%26%3D#f")
        #expect(FormEncoding.escape("~A-z_0.9 +") == "~A-z_0.9%20%2B")
    }

    @Test("One CSPRNG draw gives the PKCE verifier, state and nonce: each 43 characters, all different, all fresh")
    func secretsFromOneDraw() async throws {
        let idp = TestIdentityProvider()
        let client = AuthClient(
            provider: try PlainOIDCProvider(
                configuration: ProviderConfiguration([
                    "issuer": .string(TestIdentityProvider.defaultIssuer.absoluteString), "client_id": .string(TestIdentityProvider.defaultClientID),
                    "redirect_uri": .string(TestIdentityProvider.defaultRedirectURI.absoluteString)
                ])),
            transport: idp.transport, clock: idp.clock
        )
        var seen = Set<String>()
        for _ in 0..<20 {
            let parameters = try await client.prepareSignIn().url.queryParameters
            let state = try #require(parameters["state"])
            let nonce = try #require(parameters["nonce"])
            let challenge = try #require(parameters["code_challenge"])
            #expect(state.utf8.count == 43 && nonce.utf8.count == 43 && challenge.utf8.count == 43)
            #expect(Base64URL.decode(state)?.count == 32 && Base64URL.decode(nonce)?.count == 32)
            #expect(parameters["code_challenge_method"] == "S256")
            for value in [state, nonce, challenge] { #expect(seen.insert(value).inserted) }
        }
        let tokens = SecureRandom.tokens(3)
        #expect(Set(tokens).count == 3 && tokens.allSatisfy { Base64URL.decode($0)?.count == 32 })
        let verifier = PKCE.generate()
        #expect(try PKCE(verifier: verifier.verifier).challenge == verifier.challenge)
    }

    @Test("Expired authorization requests are swept as new ones arrive, and stay unusable")
    func expiredRequestsAreSwept() async throws {
        let fixture = Fixture()
        let (_, stale) = try await fixture.redirect()
        for _ in 0..<99 { _ = try await fixture.client.prepareSignIn() }
        #expect(await fixture.client.heldAuthorizationCount() == 100)
        fixture.clock.advance(by: 601)
        for _ in 0..<100 { _ = try await fixture.client.prepareSignIn() }
        // Sweeps at 64 and 128 entries: none of the expired hundred is left, whatever the order.
        #expect(await fixture.client.heldAuthorizationCount() == 100)
        let (_, fresh) = try await fixture.redirect()
        let error = await authError { _ = try await fixture.client.completeSignIn(redirect: stale) }
        #expect(error?.code == .stateMismatch)
        _ = try await fixture.client.completeSignIn(redirect: fresh)
    }

    @Test("A logger that keeps only notices receives no debug or info record, and none is built for it")
    func levelGatedLogging() async throws {
        final class NoticeLogger: AuthLogger, @unchecked Sendable {
            let records = LockedValue<[AuthLogRecord]>([])
            func log(_ record: AuthLogRecord) { records.withLock { $0.append(record) } }
            func isEnabled(_ level: AuthLogRecord.Level) -> Bool { level >= .notice }
        }
        let logger = NoticeLogger()
        let idp = TestIdentityProvider()
        let client = AuthClient(
            provider: PlainOIDCProvider(
                issuer: TestIdentityProvider.defaultIssuer,
                client: ClientRegistration(
                    clientID: TestIdentityProvider.defaultClientID, redirectURI: TestIdentityProvider.defaultRedirectURI, scopes: ["openid"])),
            transport: idp.transport, logger: logger, clock: idp.clock
        )
        _ = try await client.signIn(with: HeadlessUserAgent(transport: idp.transport))
        var built = false
        client.log(
            .debug, "test.lazy",
            {
                built = true
                return "never built"
            }())
        #expect(!built)
        #expect(logger.records.withLock { $0.allSatisfy { $0.level >= .notice } })
        let replay = await authError { _ = try await client.completeSignIn(redirect: URL(string: "com.example.app:/oauth/callback?code=x&state=unknown")!) }
        #expect(replay != nil)
        #expect(logger.records.withLock { $0.contains { $0.event == "signin.failed" } })
    }
}
