import AuthCore
import AuthOIDC
import AuthTesting
import Foundation
import Testing

@Suite("Pushed authorization requests (RFC 9126) through the engine's one sign-in path")
struct PushedAuthorizationTests {
    @Test("Advertised in discovery: one POST to the PAR endpoint per sign-in; the browser's URL carries only client_id and request_uri")
    func pushedWhenAdvertised() async throws {
        let harness = try PARHarness()
        let request = try await harness.client.prepareSignIn()
        #expect(PARHarness.queryNames(request.url) == ["client_id", "request_uri"])
        let pushes = await harness.pushes()
        #expect(pushes.count == 1)
        let form = try #require(pushes.first).formParameters
        #expect(form["response_type"] == "code" && form["client_id"] == TestIdentityProvider.defaultClientID)
        #expect(form["code_challenge_method"] == "S256" && form["code_challenge"] != nil)
        #expect(form["state"] == request.state && form["nonce"] != nil && form["redirect_uri"] == TestIdentityProvider.defaultRedirectURI.absoluteString)
        #expect(try #require(pushes.first).status == 201)
        let session = try await harness.client.completeSignIn(redirect: try await harness.agent.authorize(request))
        #expect(await session.idTokenClaims?.subject == "user-1234")
        #expect(await harness.pushes().count == 1, "exactly one pushed request for the sign-in")
    }

    @Test("par_repeat: the named parameters ride beside client_id and request_uri with their pushed values; the rest stays pushed")
    func repeatedParameters() async throws {
        let harness = try PARHarness(values: ["par_repeat": ["response_type", "scope", "redirect_uri"]])
        let request = try await harness.client.prepareSignIn()
        #expect(PARHarness.queryNames(request.url) == ["client_id", "redirect_uri", "request_uri", "response_type", "scope"])
        let query = Dictionary(
            uniqueKeysWithValues: (URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        let form = try #require(await harness.pushes().first).formParameters
        for name in ["response_type", "scope", "redirect_uri"] { #expect(query[name] == form[name]) }
        let session = try await harness.client.completeSignIn(redirect: try await harness.agent.authorize(request))
        #expect(await session.idTokenClaims?.subject == "user-1234")
    }

    @Test("par_repeat naming a parameter outside response_type, scope and redirect_uri: invalid_configuration naming the key")
    func repeatedParameterRefused() async throws {
        let error = #expect(throws: AuthError.self) { try PARHarness(values: ["par_repeat": ["state"]]) }
        #expect(error?.code == .invalidConfiguration && error?.configurationKey == "par_repeat")
    }

    @Test("A used request_uri is refused by the server: a second visit of the same authorization URL is an error page")
    func reusedRequestURIRefused() async throws {
        let harness = try PARHarness()
        let request = try await harness.client.prepareSignIn()
        _ = try await harness.client.completeSignIn(redirect: try await harness.agent.authorize(request))
        let error = await #expect(throws: AuthError.self) { try await harness.agent.authorize(request) }
        #expect(error?.httpStatus == 400)
        #expect(await harness.idp.pushedAuthorizationFailures == ["unknown or used request_uri"])
    }

    @Test("An expired request_uri is refused by the server")
    func expiredRequestURIRefused() async throws {
        let harness = try PARHarness { $0.pushedAuthorization = .init(requestLifetime: 30) }
        let request = try await harness.client.prepareSignIn()
        harness.clock.advance(by: 31)
        let error = await #expect(throws: AuthError.self) { try await harness.agent.authorize(request) }
        #expect(error?.httpStatus == 400)
        #expect(await harness.idp.pushedAuthorizationFailures == ["expired request_uri"])
    }

    @Test("The prepared request says until when its URL works (the push's expires_in by the client's clock); nil when nothing was pushed")
    func pushedRequestDeadline() async throws {
        let harness = try PARHarness { $0.pushedAuthorization = .init(requestLifetime: 90) }
        let pushedAt = harness.clock.now()
        let request = try await harness.client.prepareSignIn()
        #expect(request.pushedRequestExpiresAt == pushedAt.addingTimeInterval(90))
        #expect(request.expiresAt > pushedAt.addingTimeInterval(90), "the sign-in itself may last longer than the reference")
        let unpushed = try await PARHarness(values: ["par": false]).client.prepareSignIn()
        #expect(unpushed.pushedRequestExpiresAt == nil)
    }

    @Test("A provider that redirects back with invalid_request_uri (the URL opened late or twice): authorization_failed saying to open it promptly and once, nothing stored")
    func invalidRequestURIAnswer() async throws {
        let harness = try PARHarness()
        let request = try await harness.client.prepareSignIn()
        var callback = URLComponents(url: TestIdentityProvider.defaultRedirectURI, resolvingAgainstBaseURL: false)!
        callback.queryItems = [
            URLQueryItem(name: "error", value: "invalid_request_uri"), URLQueryItem(name: "state", value: request.state),
            URLQueryItem(name: "iss", value: TestIdentityProvider.defaultIssuer.absoluteString)
        ]
        let error = await #expect(throws: AuthError.self) { try await harness.client.completeSignIn(redirect: callback.url!) }
        #expect(error?.code == .authorizationFailed && error?.oauthError == "invalid_request_uri")
        #expect(error?.message.contains("open the authorization URL promptly and only once") == true)
        #expect(try await harness.nothingKept())
    }

    @Test("A server that requires pushed requests refuses one that was not pushed")
    func serverRefusesUnpushed() async throws {
        // The discovery document hides the endpoint, so the client does not push; the server still requires it.
        let harness = try PARHarness {
            $0.pushedAuthorization = .init(required: true)
            $0.initialBehavior.discoveryOverrides = ["pushed_authorization_request_endpoint": .null, "require_pushed_authorization_requests": false]
        }
        let request = try await harness.client.prepareSignIn()
        #expect(await harness.pushes().isEmpty)
        let error = await #expect(throws: AuthError.self) { try await harness.agent.authorize(request) }
        #expect(error?.httpStatus == 400)
        #expect(await harness.idp.pushedAuthorizationFailures == ["authorization request not pushed"])
    }

    @Test("par: false against a provider that requires pushed requests: invalid_configuration naming the setting, nothing sent or kept")
    func forbiddenButRequired() async throws {
        let harness = try PARHarness(values: ["par": false]) { $0.pushedAuthorization = .init(required: true) }
        let error = await #expect(throws: AuthError.self) { try await harness.client.prepareSignIn() }
        #expect(error?.code == .invalidConfiguration && error?.configurationKey == "par")
        #expect(error?.message.contains("require_pushed_authorization_requests") == true)
        #expect(await harness.pushes().isEmpty)
        #expect(try await harness.nothingKept())
    }

    @Test("par: false where it is only advertised: the request is not pushed")
    func forbiddenWhenAdvertised() async throws {
        let harness = try PARHarness(values: ["par": false])
        let session = try await harness.client.signIn(with: harness.agent)
        #expect(await session.idTokenClaims?.subject == "user-1234")
        #expect(await harness.pushes().isEmpty)
    }

    @Test("par: true against a provider without a PAR endpoint: endpoint_unavailable, nothing kept")
    func forcedWithoutEndpoint() async throws {
        let harness = try PARHarness(values: ["par": true]) { $0.pushedAuthorization = nil }
        let error = await #expect(throws: AuthError.self) { try await harness.client.prepareSignIn() }
        #expect(error?.code == .endpointUnavailable)
        #expect(try await harness.nothingKept())
    }

    @Test("A PAR answer without request_uri: missing_request_uri, nothing stored")
    func answerWithoutRequestURI() async throws {
        let harness = try PARHarness()
        await harness.idp.update { $0.pushedAuthorizationAnswer = (201, ["expires_in": 60]) }
        let error = await #expect(throws: AuthError.self) { try await harness.client.signIn(with: harness.agent) }
        #expect(error?.code == .missingRequestURI)
        #expect(try await harness.nothingKept())
        #expect(await harness.idp.requestCounts["/authorize"] == nil, "the browser was never sent")
    }

    @Test(
        "A PAR answer whose expires_in is missing, not positive, fractional, the wrong type or absurdly large: invalid_request_uri_lifetime, nothing stored",
        arguments: [JSONValue.null, 0, -60, 1.5, "60", 86_400, 1e300])
    func absurdLifetime(expiresIn: JSONValue) async throws {
        let harness = try PARHarness()
        var body: [String: JSONValue] = ["request_uri": "urn:ietf:params:oauth:request_uri:abc"]
        if expiresIn != .null { body["expires_in"] = expiresIn }
        await harness.idp.update { [body] in $0.pushedAuthorizationAnswer = (201, body) }
        let error = await #expect(throws: AuthError.self) { try await harness.client.signIn(with: harness.agent) }
        #expect(error?.code == .invalidRequestURILifetime)
        #expect(try await harness.nothingKept())
    }

    @Test("A PAR error answer: pushed_authorization_failed with the OAuth error, nothing stored", arguments: [400, 401])
    func errorAnswer(status: Int) async throws {
        let harness = try PARHarness()
        await harness.idp.update { $0.pushedAuthorizationAnswer = (status, ["error": "invalid_request", "error_description": "bad scope"]) }
        let error = await #expect(throws: AuthError.self) { try await harness.client.signIn(with: harness.agent) }
        #expect(error?.code == .pushedAuthorizationFailed && error?.oauthError == "invalid_request" && error?.httpStatus == status)
        #expect(try await harness.nothingKept())
    }

    @Test("A confidential client authenticates at the PAR endpoint as at the token endpoint (client_secret_basic); a wrong secret is refused")
    func clientSecretAtPAR() async throws {
        let harness = try PARHarness(secret: "s3cret")
        _ = try await harness.client.signIn(with: harness.agent)
        let push = try #require(await harness.pushes().first)
        #expect(push.request.value(forHTTPHeaderField: "Authorization")?.hasPrefix("Basic ") == true)
        #expect(push.formParameters["client_secret"] == nil)

        let wrong = try PARHarness(values: ["client_secret": "wrong"], secret: "s3cret")
        let error = await #expect(throws: AuthError.self) { try await wrong.client.signIn(with: wrong.agent) }
        #expect(error?.code == .pushedAuthorizationFailed && error?.oauthError == "invalid_client")
        #expect(await wrong.idp.pushedAuthorizationFailures.first?.hasPrefix("client authentication") == true)
        #expect(try await wrong.nothingKept())
    }

    @Test("private_key_jwt at the PAR endpoint, with the request as a signed request object (RFC 9101) pushed", arguments: [false, true])
    func privateKeyJWTAndRequestObject(requestObject: Bool) async throws {
        let harness = try PARHarness(values: ["request_object": .bool(requestObject)], privateJWK: PARHarness.p256JWK())
        let request = try await harness.client.prepareSignIn()
        #expect(PARHarness.queryNames(request.url) == ["client_id", "request_uri"])
        let form = try #require(await harness.pushes().first).formParameters
        #expect(form["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer" && form["client_assertion"] != nil)
        #expect((form["request"] != nil) == requestObject)
        #expect((form["code_challenge"] == nil) == requestObject, "inside the signed request object when there is one")
        _ = try await harness.client.completeSignIn(redirect: try await harness.agent.authorize(request))
        #expect(await harness.idp.requestObjectFailures.isEmpty)
        #expect(await harness.idp.clientAuthenticationFailures.isEmpty)
    }

    @Test(
        "client_assertion_audience: the assertion's aud is the token endpoint by default, the issuer, or the endpoint it is sent to",
        arguments: [(nil, "/token"), ("token_endpoint", "/token"), ("issuer", ""), ("endpoint", "/par")] as [(String?, String)])
    func assertionAudience(setting: String?, audiencePath: String) async throws {
        let harness = try PARHarness(values: setting.map { ["client_assertion_audience": .string($0)] } ?? [:], privateJWK: PARHarness.p256JWK())
        _ = try? await harness.client.prepareSignIn()
        let assertion = try #require(await harness.pushes().first?.formParameters["client_assertion"])
        let payload = try #require(assertion.split(separator: ".").dropFirst().first.flatMap { Base64URL.decode(String($0)) })
        let claims = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
        #expect(claims["aud"] as? String == TestIdentityProvider.defaultIssuer.absoluteString + audiencePath)
    }

    @Test("client_assertion_audience with another value: invalid_configuration naming the key")
    func assertionAudienceRefused() async throws {
        let error = #expect(throws: AuthError.self) { try PARHarness(values: ["client_assertion_audience": "everyone"]) }
        #expect(error?.code == .invalidConfiguration && error?.configurationKey == "client_assertion_audience")
    }

    @Test("DPoP: the pushed request names the key (dpop_jkt, RFC 9449 §10) and the tokens are bound to it")
    func dpopJKTPushed() async throws {
        let harness = try PARHarness(values: ["dpop": true]) { $0.dpop = .init() }
        let session = try await harness.client.signIn(with: harness.agent)
        let form = try #require(await harness.pushes().first).formParameters
        let credential = await session.credential
        #expect(credential.tokenType == "DPoP")
        #expect(form["dpop_jkt"] != nil && form["dpop_jkt"] == credential.dpopKey?.thumbprint)
    }
}
