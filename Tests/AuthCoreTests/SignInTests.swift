import AuthCore
import AuthTesting
import Foundation
import Testing

@Suite("Sign-in against the in-process identity provider")
struct SignInTests {
    @Test("A complete sign-in validates the ID token and stores the credential", arguments: [JWSAlgorithm.rs256, .es256])
    func completeSignIn(algorithm: JWSAlgorithm) async throws {
        let fixture = Fixture(algorithm: algorithm)
        let session = try await fixture.signIn()

        let claims = try #require(await session.idTokenClaims)
        #expect(claims.subject == "user-1234")
        #expect(claims.issuer == TestIdentityProvider.defaultIssuer.absoluteString)
        #expect(claims.audience == [TestIdentityProvider.defaultClientID])
        #expect(claims["email"]?.stringValue == "alice@example.com")

        let credential = await session.credential
        #expect(credential.subject == "user-1234")
        #expect(credential.expiresAt == fixture.clock.now().addingTimeInterval(3600))
        #expect(credential.refreshToken != nil)
        let stored = try await fixture.storage.credential(for: credential.storageKey)
        #expect(stored == credential)
    }

    @Test("The authorization request carries PKCE S256, a fresh state and nonce, and the client's parameters")
    func authorizationRequestParameters() async throws {
        let fixture = Fixture()
        let first = try await fixture.client.prepareSignIn(options: SignInOptions(loginHint: "alice@example.com", prompt: ["login", "consent"]))
        let second = try await fixture.client.prepareSignIn()
        let query = first.url.queryParameters

        #expect(query["response_type"] == "code")
        #expect(query["client_id"] == TestIdentityProvider.defaultClientID)
        #expect(query["redirect_uri"] == TestIdentityProvider.defaultRedirectURI.absoluteString)
        #expect(query["scope"] == "openid email offline_access")
        #expect(query["code_challenge_method"] == "S256")
        #expect(query["code_challenge"]?.count == 43)
        #expect(query["login_hint"] == "alice@example.com")
        #expect(query["prompt"] == "login consent")
        #expect(query["state"] == first.state)
        #expect((query["state"]?.count ?? 0) >= 43)
        #expect((query["nonce"]?.count ?? 0) >= 43)
        // Fresh every time.
        let other = second.url.queryParameters
        #expect(other["state"] != query["state"])
        #expect(other["nonce"] != query["nonce"])
        #expect(other["code_challenge"] != query["code_challenge"])
    }

    @Test("The token request is a form POST with the code, verifier, redirect URI and client id")
    func tokenRequestShape() async throws {
        let fixture = Fixture()
        let (request, redirect) = try await fixture.redirect()
        _ = try await fixture.client.completeSignIn(redirect: redirect)

        let exchange = try #require(await fixture.transport.exchanges(pathSuffix: "/token").first)
        #expect(exchange.request.httpMethod == "POST")
        #expect(exchange.request.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded")
        #expect(exchange.request.url?.query == nil)
        let form = exchange.formParameters
        #expect(form["grant_type"] == "authorization_code")
        #expect(form["code"] == redirect.queryParameters["code"])
        #expect(form["redirect_uri"] == request.redirectURI.absoluteString)
        #expect(form["client_id"] == TestIdentityProvider.defaultClientID)
        let verifier = try #require(form["code_verifier"])
        #expect(PKCE.challenge(for: Secret(verifier)) == request.url.queryParameters["code_challenge"])
    }

    @Test("Discovery is fetched once per client and reused")
    func discoveryIsCached() async throws {
        let fixture = Fixture()
        _ = try await fixture.signIn()
        _ = try await fixture.signIn()
        #expect(await fixture.transport.exchanges(pathSuffix: "/openid-configuration").count == 1)
        #expect(await fixture.transport.exchanges(pathSuffix: "/jwks").count == 1)
    }

    @Test("Without declared RFC 9207 support a response without iss is accepted")
    func issuerParameterOptional() async throws {
        let fixture = Fixture()
        await fixture.idp.update {
            $0.advertisesIssParameter = false
            $0.sendsIssParameter = false
        }
        let session = try await fixture.signIn()
        #expect(await session.subject == "user-1234")
    }

    @Test("A redirect to another path is redirect_mismatch")
    func redirectMismatch() async throws {
        let fixture = Fixture()
        let (_, redirect) = try await fixture.redirect()
        var components = URLComponents(url: redirect, resolvingAgainstBaseURL: false)!
        components.path = "/oauth/other"
        let error = await authError { _ = try await fixture.client.completeSignIn(redirect: components.url!) }
        #expect(error?.code == .redirectMismatch)
        #expect(try await fixture.storedCount() == 0)
    }

    @Test("The engine's security parameters cannot be overridden")
    func reservedParameters() async throws {
        let fixture = Fixture()
        let error = await authError {
            _ = try await fixture.client.prepareSignIn(options: SignInOptions(additionalParameters: ["state": "fixed"]))
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.contains("state") == true)
    }

    @Test("A token error response maps its OAuth error; nothing is stored")
    func tokenErrorResponse() async throws {
        let fixture = Fixture()
        await fixture.idp.update {
            $0.tokenResponseReplacement = (400, Data(#"{"error":"invalid_grant","error_description":"code expired"}"#.utf8), ["Content-Type": "application/json"])
        }
        let error = await authError { _ = try await fixture.signIn() }
        #expect(error?.code == .invalidGrant)
        #expect(error?.httpStatus == 400)
        #expect(error?.message.contains("code expired") == true)
        #expect(try await fixture.storedCount() == 0)
    }

    @Test("A session is restored from storage with its claims")
    func restoreSession() async throws {
        let fixture = Fixture()
        let session = try await fixture.signIn()
        let restored = try #require(try await fixture.client.restoreSession())
        #expect(await restored.credential == session.credential)
        #expect(await restored.idTokenClaims?.subject == "user-1234")
        try await restored.signOut()
        #expect(try await fixture.client.restoreSession() == nil)
    }
}

/// A user agent that fails the way a broken browser bridge would.
private struct FailingUserAgent: UserAgent {
    let error: any Error
    func authorize(_ request: AuthorizationRequest) async throws -> URL { throw error }
}

@Suite("User agent failures")
struct UserAgentFailureTests {
    @Test("Cancellation is user_cancelled; any other user agent failure is a typed authorization_failed")
    func userAgentErrors() async throws {
        let fixture = Fixture()
        let cancelled = await authError { _ = try await fixture.client.signIn(with: FailingUserAgent(error: CancellationError())) }
        #expect(cancelled?.code == .userCancelled)
        let broken = await authError { _ = try await fixture.client.signIn(with: FailingUserAgent(error: URLError(.cannotConnectToHost))) }
        #expect(broken?.code == .authorizationFailed)
        #expect(broken?.providerID == "plain")
        #expect(broken?.underlying is URLError)
        #expect(try await fixture.storedCount() == 0)
    }
}
