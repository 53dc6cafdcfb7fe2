import AuthCore
import AuthTesting
import AuthTokenExchange
import Foundation
import Testing

@Suite("Token exchange (RFC 8693)")
struct TokenExchangeTests {
    static let grantType = "urn:ietf:params:oauth:grant-type:token-exchange"

    @Test("A session exchanges its access token for one for another audience, and its own credential is not changed")
    func exchangesForAnotherAudience() async throws {
        let fixture = ExchangeFixture()
        let session = try await fixture.signIn(fixture.client())
        let before = await session.credential

        let token = try await session.exchangeToken(TokenExchangeRequest(audience: [ExchangeFixture.audience], scopes: ["openid", "email"]))
        #expect(token.issuedTokenType == .accessToken)
        #expect(token.tokenType == "Bearer" && !token.isDPoPBound)
        #expect(token.scopes == ["openid", "email"])
        #expect(token.expiresAt == fixture.clock.now().addingTimeInterval(3600))
        #expect(token.token != before.accessToken)
        #expect(!"\(token)".contains(token.token.reveal()), "the description is redacted")
        // The issued JWT is for the audience asked for.
        let claims = try #require(TestIdentityProvider.payload(of: token.token.reveal()))
        #expect(claims["aud"] == [.string(ExchangeFixture.audience)])

        // The request: RFC 8693 §2.1's parameters, the subject the session's access token.
        let sent = try #require(await fixture.tokenRequests(Self.grantType).first?.formParameters)
        #expect(sent["subject_token"] == before.accessToken.reveal())
        #expect(sent["subject_token_type"] == "urn:ietf:params:oauth:token-type:access_token")
        #expect(sent["requested_token_type"] == "urn:ietf:params:oauth:token-type:access_token")
        #expect(sent["audience"] == ExchangeFixture.audience && sent["scope"] == "openid email")
        #expect(sent["actor_token"] == nil && sent["actor_token_type"] == nil)
        // Kept apart: the session's credential is the one it had.
        #expect(await session.credential == before)
        #expect(fixture.logger.lines.allSatisfy { !$0.contains(token.token.reveal()) })
    }

    @Test("Several audiences and resources are each sent (RFC 8693 §2.1); an unknown one is the server's invalid_target")
    func audiencesAndResources() async throws {
        let fixture = ExchangeFixture()
        let session = try await fixture.signIn(fixture.client())
        _ = try await session.exchangeToken(TokenExchangeRequest(audience: [ExchangeFixture.audience], resources: [URL(string: ExchangeFixture.audience)!]))
        let body = try #require(await fixture.tokenRequests(Self.grantType).first?.request.httpBody).map { String(decoding: $0, as: UTF8.self) }
        #expect(body?.contains("resource=https%3A%2F%2Fapi.example.test") == true && body?.contains("audience=https%3A%2F%2Fapi.example.test") == true)

        let error = await #expect(throws: AuthError.self) {
            try await session.exchangeToken(TokenExchangeRequest(audience: ["https://unknown.example"]))
        }
        #expect(error?.code == .tokenRequestFailed && error?.oauthError == "invalid_target")
        #expect(await fixture.idp.tokenExchangeFailures == ["unknown audience or resource"])
    }

    @Test("A JWT asked for comes with token_type N_A (RFC 8693 §2.2.1); the ID token can be the subject")
    func jwtAndIDTokenSubject() async throws {
        let fixture = ExchangeFixture()
        let session = try await fixture.signIn(fixture.client())
        let jwt = try await session.exchangeToken(TokenExchangeRequest(audience: [ExchangeFixture.audience], requestedTokenType: .jwt))
        #expect(jwt.issuedTokenType == .jwt && jwt.tokenType == "N_A")

        // The emulator exchanges access tokens only: an ID token subject is its invalid_request, sent as asked.
        let error = await #expect(throws: AuthError.self) { try await session.exchangeToken(TokenExchangeRequest(subject: .idToken)) }
        #expect(error?.oauthError == "invalid_request")
        let sent = try #require(await fixture.tokenRequests(Self.grantType).last?.formParameters)
        #expect(sent["subject_token_type"] == "urn:ietf:params:oauth:token-type:id_token")
        #expect(sent["subject_token"] == (await session.credential.idToken?.reveal()))
    }

    @Test("An actor token goes with its type; one without is refused before anything is sent")
    func actorToken() async throws {
        let fixture = ExchangeFixture()
        let session = try await fixture.signIn(fixture.client())
        let actor = try await fixture.signIn(fixture.client(ExchangeFixture.secondApp))
        let request = TokenExchangeRequest(
            audience: [ExchangeFixture.audience], actorToken: try await actor.validAccessToken(), actorTokenType: .accessToken)
        let token = try await session.exchangeToken(request)
        let claims = try #require(TestIdentityProvider.payload(of: token.token.reveal()))
        #expect(claims["act"]?.objectValue?["sub"] == "user-1234")
        #expect(await fixture.tokenRequests(Self.grantType).last?.formParameters["actor_token_type"] == "urn:ietf:params:oauth:token-type:access_token")

        let error = await #expect(throws: AuthError.self) {
            try await session.exchangeToken(TokenExchangeRequest(audience: [ExchangeFixture.audience], actorToken: Secret("actor")))
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(await fixture.tokenRequests(Self.grantType).count == 1)
    }

    @Test("A DPoP-bound session's exchange proves its key, and the DPoP answer is bound to it (RFC 9449 §5)")
    func dpopBound() async throws {
        let fixture = ExchangeFixture(dpop: .init())
        let session = try await fixture.signIn(fixture.client())
        let key = try #require(await session.credential.dpopKey)
        let token = try await session.exchangeToken(TokenExchangeRequest(audience: [ExchangeFixture.audience]))
        #expect(token.tokenType == "DPoP" && token.isDPoPBound)
        let sent = try #require(await fixture.tokenRequests(Self.grantType).first)
        #expect(sent.request.value(forHTTPHeaderField: "DPoP") != nil)
        let claims = try #require(TestIdentityProvider.payload(of: token.token.reveal()))
        #expect(claims["cnf"]?.objectValue?["jkt"]?.stringValue == key.thumbprint)

        // The protected resource sees the exchanged token bound to the key.
        let source = ExchangedTokenSource(session: session, request: TokenExchangeRequest(audience: [ExchangeFixture.audience]))
        let (body, response) = try await source.send(HTTPRequest(method: .get, url: fixture.idp.endpoint("/api/resource")))
        #expect(response.status == .ok)
        #expect(try JSONValue.parseObject(body)["jkt"]?.stringValue == key.thumbprint)
        let resource = try #require(await fixture.transport.exchanges(pathSuffix: "/api/resource").last)
        #expect(resource.request.value(forHTTPHeaderField: "Authorization")?.hasPrefix("DPoP ") == true)
    }

    @Test("A resource's 401 makes the source exchange again once and retry once; the session's own token is not used")
    func sourceRetriesAfterUnauthorized() async throws {
        let fixture = ExchangeFixture()
        let session = try await fixture.signIn(fixture.client())
        let source = ExchangedTokenSource(session: session, request: TokenExchangeRequest(audience: [ExchangeFixture.audience]))
        let resource = fixture.idp.endpoint("/api/resource")
        let first = try await source.token()
        #expect(try await source.send(HTTPRequest(method: .get, url: resource)).1.status == .ok)
        // The exchanged token is revoked at the provider (RFC 7009); the resource now answers 401.
        var revoke = HTTPRequest(method: .post, url: fixture.idp.endpoint("/revoke"))
        revoke.headerFields[HTTPField.Name("Content-Type")!] = "application/x-www-form-urlencoded"
        let form = "token=\(first.token.reveal())&client_id=\(TestIdentityProvider.defaultClientID)"
        _ = try await fixture.idp.transport.send(revoke, body: Data(form.utf8))
        let (_, response) = try await source.send(HTTPRequest(method: .get, url: resource))
        #expect(response.status == .ok)
        #expect(try await source.token().token != first.token)
        #expect(await fixture.tokenRequests(Self.grantType).count == 2)
        let own = "Bearer " + (await session.credential.accessToken.reveal())
        let sent = await fixture.transport.exchanges(pathSuffix: "/api/resource").compactMap { $0.request.value(forHTTPHeaderField: "Authorization") }
        #expect(sent.count == 3 && !sent.contains(own))
    }

    @Test("An exchanged token source reuses its token until it expires, then asks again; concurrent callers share one exchange")
    func sourceAsksAgainWhenExpired() async throws {
        let fixture = ExchangeFixture()
        let session = try await fixture.signIn(fixture.client())
        let source = ExchangedTokenSource(session: session, request: TokenExchangeRequest(audience: [ExchangeFixture.audience]))
        let first = try await source.token()
        let tokens = try await withThrowingTaskGroup(of: Secret.self) { group in
            for _ in 0..<20 { group.addTask { try await source.token().token } }
            return try await group.reduce(into: [Secret]()) { $0.append($1) }
        }
        #expect(Set(tokens) == [first.token])
        #expect(await fixture.tokenRequests(Self.grantType).count == 1)

        fixture.clock.advance(by: 3600 - 10)
        let second = try await source.token()
        #expect(second.token != first.token)
        #expect(await fixture.tokenRequests(Self.grantType).count == 2)
        // The session's own access token was refreshed for the subject, and stays the session's.
        #expect(await session.credential.accessToken != second.token)
    }

    @Test("Each hostile exchange answer is refused with its own code; nothing is kept and the session is unchanged", arguments: HostileScenario.tokenExchangeAnswers)
    func hostileAnswer(_ scenario: HostileScenario) async throws {
        let fixture = ExchangeFixture()
        let session = try await fixture.signIn(fixture.client())
        let before = await session.credential
        await fixture.idp.update(scenario.configure)
        let source = ExchangedTokenSource(session: session, request: TokenExchangeRequest(audience: [ExchangeFixture.audience]))
        let error = await #expect(throws: AuthError.self) { try await source.token() }
        guard case .rejected(let code) = scenario.expectation else {
            Issue.record("\(scenario.id) expects a refusal")
            return
        }
        #expect(error?.code == code, "\(scenario.id): \(String(describing: error))")
        #expect(await session.credential == before)
        #expect(await fixture.tokenRequests(Self.grantType).count == 1)
        // Nothing was kept: once the provider answers honestly, the source exchanges again.
        await fixture.idp.update { $0.tokenExchangeOverrides = [:] }
        #expect(try await source.token().issuedTokenType == .accessToken)
        #expect(await fixture.tokenRequests(Self.grantType).count == 2)
        let secrets = await fixture.idp.issuedSecrets
        #expect(fixture.logger.lines.allSatisfy { line in !secrets.contains { line.contains($0) } })
    }

    @Test("SECURITY.md lists every token exchange scenario by id")
    func securityDocument() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let document = try String(contentsOf: root.appendingPathComponent("SECURITY.md"), encoding: .utf8)
        for scenario in HostileScenario.tokenExchangeAnswers {
            #expect(document.contains("`\(scenario.id)`"), "SECURITY.md does not list \(scenario.id)")
        }
    }
}
