import AuthCore
import AuthDeviceFlow
import AuthTesting
import Crypto
import Foundation
import Testing
import _CryptoExtras

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// RFC 7523 `private_key_jwt`: one engine mechanism on every call that authenticates the client.
@Suite("private_key_jwt client authentication (RFC 7523)")
struct ClientAssertionTests {
    static let rsaPEM = try! _RSA.Signing.PrivateKey(keySize: .bits2048).pemRepresentation
    static let otherRSAPEM = try! _RSA.Signing.PrivateKey(keySize: .bits2048).pemRepresentation
    static let ecKey = P256.Signing.PrivateKey()

    private static func ecJWK() -> [String: JSONValue] {
        let raw = ecKey.publicKey.rawRepresentation
        return [
            "kty": "EC", "crv": "P-256", "kid": "ec-1",
            "x": .string(Base64URL.encode(raw.prefix(32))), "y": .string(Base64URL.encode(raw.suffix(32))),
            "d": .string(Base64URL.encode(ecKey.rawRepresentation))
        ]
    }

    /// An identity provider with one `private_key_jwt` client registered with `registered`'s public key, and a
    /// client signing with `signing`.
    private func fixture(signing: ClientSigningKey, registered: ClientSigningKey? = nil) throws -> (TestIdentityProvider, RecordingTransport, AuthClient, RecordingLogger) {
        let clock = ManualClock()
        let client = TestIdentityProvider.Client(
            id: "service", redirectURIs: [TestIdentityProvider.defaultRedirectURI], publicKey: try (registered ?? signing).publicJWK()
        )
        let idp = TestIdentityProvider(configuration: .init(clients: [client]), clock: clock)
        let transport = RecordingTransport(idp.transport)
        let logger = RecordingLogger()
        let provider = PlainOIDCProvider(
            issuer: TestIdentityProvider.defaultIssuer,
            client: ClientRegistration(
                clientID: "service", redirectURI: TestIdentityProvider.defaultRedirectURI,
                scopes: ["openid", "offline_access"], signingKey: signing
            )
        )
        return (idp, transport, AuthClient(provider: provider, transport: transport, logger: logger, clock: clock), logger)
    }

    private static func claims(of assertion: String) throws -> [String: JSONValue] {
        try JSONValue.parseObject(try CompactJWS(parsing: assertion).payload)
    }

    @Test(
        "Sign-in, refresh, introspection and revocation each carry a fresh assertion",
        arguments: [ClientSigningKey.Algorithm.rs256, .ps256, .es256]
    )
    func everyCallAuthenticates(algorithm: ClientSigningKey.Algorithm) async throws {
        let key =
            algorithm == .es256
            ? try ClientSigningKey(jwk: Self.ecJWK())
            : try ClientSigningKey(pem: Self.rsaPEM, algorithm: algorithm, keyID: "rsa-1")
        #expect(key.algorithm == algorithm)
        let (idp, transport, client, logger) = try fixture(signing: key)
        let session = try await client.signIn(with: HeadlessUserAgent(transport: idp.transport))
        try await session.refresh()
        _ = try await session.introspect()
        try await session.signOut(revokingTokens: true)
        #expect(await idp.clientAuthenticationFailures.isEmpty)

        let sent = await transport.exchanges.filter { $0.formParameters["client_assertion"] != nil }
        #expect(sent.count == 5)  // code exchange, refresh, introspection, two revocations
        var identifiers: Set<String> = []
        for exchange in sent {
            #expect(exchange.formParameters["client_assertion_type"] == ClientAssertion.type)
            #expect(exchange.request.value(forHTTPHeaderField: "Authorization") == nil)
            let assertion = try #require(exchange.formParameters["client_assertion"])
            let header = try CompactJWS(parsing: assertion).header
            #expect(header.algorithm == algorithm.rawValue)
            let claims = try Self.claims(of: assertion)
            #expect(claims["iss"] == "service")
            #expect(claims["sub"] == "service")
            #expect(claims["aud"] == .string(idp.endpoint("/token").absoluteString))
            #expect(claims["exp"]?.numberValue.map { $0 - (claims["iat"]?.numberValue ?? 0) } == 60)
            identifiers.insert(try #require(claims["jti"]?.stringValue))
            // The assertion is a credential: never in a log line.
            #expect(!logger.lines.contains { $0.contains(assertion) })
        }
        #expect(identifiers.count == sent.count)
    }

    @Test("Hostile discovery: device, revocation and introspection endpoints on another origin than the token endpoint never receive an assertion")
    func assertionsStayWithTheirAudience() async throws {
        let key = try ClientSigningKey(pem: Self.rsaPEM, algorithm: .rs256, keyID: "rsa-1")
        let (idp, transport, client, _) = try fixture(signing: key)
        // The document keeps the honest token endpoint and names the harvester's own endpoints for the rest.
        await idp.update {
            $0.discoveryOverrides["device_authorization_endpoint"] = "https://harvester.example.test/device"
            $0.discoveryOverrides["revocation_endpoint"] = "https://harvester.example.test/revoke"
            $0.discoveryOverrides["introspection_endpoint"] = "https://harvester.example.test:8443/introspect"
        }
        let device = await authError { _ = try await client.startDeviceAuthorization() }
        #expect(device?.code == .insecureEndpoint)
        let session = try await client.signIn(with: HeadlessUserAgent(transport: idp.transport))
        let introspection = await authError { _ = try await session.introspect() }
        #expect(introspection?.code == .insecureEndpoint)
        let revocation = await authError { try await client.revoke(Secret("token"), hint: .accessToken) }
        #expect(revocation?.code == .insecureEndpoint)
        let harvested = await transport.exchanges.filter { $0.request.url?.host == "harvester.example.test" }
        #expect(harvested.isEmpty, "no request reached the other origin")
        // The token endpoint, its audience, still got its assertion.
        let sent = await transport.exchanges.filter { $0.formParameters["client_assertion"] != nil }
        #expect(sent.count == 1 && sent.allSatisfy { $0.request.url?.path == "/token" })
    }

    @Test("A key the provider did not register is refused: invalid_client, nothing stored")
    func unregisteredKey() async throws {
        let signing = try ClientSigningKey(pem: Self.otherRSAPEM, algorithm: .rs256)
        let registered = try ClientSigningKey(pem: Self.rsaPEM, algorithm: .rs256)
        let (idp, _, client, _) = try fixture(signing: signing, registered: registered)
        let error = await authError { _ = try await client.signIn(with: HeadlessUserAgent(transport: idp.transport)) }
        #expect(error?.code == .tokenRequestFailed)
        #expect(error?.oauthError == "invalid_client")
        #expect(await idp.clientAuthenticationFailures == ["bad signature"])
        #expect(try await client.storage.storedKeys().isEmpty)
    }

    @Test("The identity provider refuses a replayed assertion and one for another audience")
    func replayAndAudience() async throws {
        let key = try ClientSigningKey(pem: Self.rsaPEM, algorithm: .rs256)
        let (idp, _, _, _) = try fixture(signing: key)
        func post(_ assertion: Secret) async -> Int {
            var request = CapturedRequest(url: idp.endpoint("/token"))
            request.httpMethod = "POST"
            request.httpBody = Data(
                FormEncoding.encode([
                    ("grant_type", "refresh_token"), ("refresh_token", "none"),
                    ("client_assertion_type", ClientAssertion.type), ("client_assertion", assertion.reveal())
                ]).utf8)
            return (try? await idp.transport.send(request).1.statusCode) ?? 0
        }
        let assertion = try ClientAssertion.make(clientID: "service", audience: idp.endpoint("/token").absoluteString, key: key, now: idp.clock.now())
        #expect(await post(assertion) == 400)  // authenticated; the refresh token itself is unknown (invalid_grant)
        #expect(await post(assertion) == 401)
        let elsewhere = try ClientAssertion.make(clientID: "service", audience: "https://other.example.test/token", key: key, now: idp.clock.now())
        #expect(await post(elsewhere) == 401)
        #expect(await idp.clientAuthenticationFailures == ["replayed jti", "wrong audience"])
    }

    /// A provider that sends its authorization requests as signed request objects.
    struct RequestObjectProvider: AuthProvider {
        static let id: ProviderID = "jar"
        let client: ClientRegistration
        init(configuration: ProviderConfiguration) throws { throw AuthError(.invalidConfiguration, "code only") }
        init(key: ClientSigningKey) {
            client = ClientRegistration(clientID: "service", redirectURI: TestIdentityProvider.defaultRedirectURI, signingKey: key)
        }
        var endpointSource: EndpointSource { .discovery(issuer: TestIdentityProvider.defaultIssuer) }
        var behavior: ProviderBehavior { ProviderBehavior(usesSignedRequestObject: true) }
        func authorizationParameters(for request: SignInContext) -> [String: String] { ["ui_locales": "cy"] }
    }

    @Test("Signed request objects (RFC 9101): every parameter inside the JWT, only client_id, response_type and scope outside")
    func signedRequestObject() async throws {
        let key = try ClientSigningKey(pem: Self.rsaPEM, algorithm: .ps256, keyID: "jar-1")
        let (idp, transport, _, _) = try fixture(signing: key)
        let client = AuthClient(provider: RequestObjectProvider(key: key), transport: transport, clock: idp.clock)
        let request = try await client.prepareSignIn()
        let query = Dictionary(
            FormEncoding.decode(URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""),
            uniquingKeysWith: { first, _ in first }
        )
        #expect(Set(query.keys) == ["client_id", "response_type", "scope", "request"])
        let jws = try CompactJWS(parsing: try #require(query["request"]))
        #expect(jws.header.algorithm == "PS256")
        let claims = try JSONValue.parseObject(jws.payload)
        #expect(claims["state"] == .string(request.state))
        #expect(claims["code_challenge_method"] == "S256")
        #expect(claims["nonce"]?.stringValue?.isEmpty == false)
        #expect(claims["ui_locales"] == "cy")
        #expect(claims["aud"] == .string(TestIdentityProvider.defaultIssuer.absoluteString))
        #expect(claims["iss"] == "service")
        // The identity provider verifies it and signs the user in with the signed parameters.
        let redirect = try await HeadlessUserAgent(transport: idp.transport).authorize(request)
        _ = try await client.completeSignIn(redirect: redirect)
        #expect(await idp.requestObjectFailures.isEmpty)

        // Signed with a key the provider does not know: refused before any redirect.
        let stranger = AuthClient(
            provider: RequestObjectProvider(key: try ClientSigningKey(pem: Self.otherRSAPEM, algorithm: .rs256)),
            transport: transport, clock: idp.clock
        )
        let error = await authError { _ = try await stranger.signIn(with: HeadlessUserAgent(transport: idp.transport)) }
        #expect(error?.code == .authorizationFailed, "\(String(describing: error))")
        #expect(await idp.requestObjectFailures == ["bad signature"])
        #expect(try await stranger.storage.storedKeys().isEmpty)
    }

    @Test("Keys from configuration: PEM text or file, JWK, algorithm and kid; clear errors without key material")
    func configuration() throws {
        let base: [String: JSONValue] = [
            "issuer": "https://idp.example.test", "client_id": "service", "redirect_uri": "https://app.example.test/cb"
        ]
        var pem = base
        pem["private_key"] = .string(Self.rsaPEM)
        pem["private_key_alg"] = "ps256"
        pem["private_key_id"] = "k1"
        let key = try #require(try ProviderConfiguration(pem).clientSigningKey())
        #expect(key.algorithm == .ps256)
        #expect(key.keyID == "k1")
        #expect(key.description == "ClientSigningKey(PS256, kid: k1)")
        #expect(try ProviderConfiguration(pem).clientAuthenticationMethod() == nil)

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("client-\(UUID().uuidString).pem")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(Self.rsaPEM.utf8).write(to: file)
        var fromFile = base
        fromFile["private_key_file"] = .string(file.path)
        #expect(try ProviderConfiguration(fromFile).clientSigningKey()?.algorithm == .rs256)

        var jwk = base
        jwk["private_key_jwk"] = .object(Self.ecJWK())
        #expect(try ProviderConfiguration(jwk).clientSigningKey()?.keyID == "ec-1")

        var broken = base
        broken["private_key"] = "-----BEGIN PRIVATE KEY-----\nc2VjcmV0LWtleS1tYXRlcmlhbA==\n-----END PRIVATE KEY-----"
        let error = #expect(throws: AuthError.self) { try ProviderConfiguration(broken).clientSigningKey() }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.contains("c2VjcmV0") == false)

        var wrongAlgorithm = base
        wrongAlgorithm["private_key_jwk"] = .object(Self.ecJWK())
        wrongAlgorithm["private_key_alg"] = "RS256"
        #expect(throws: AuthError.self) { try ProviderConfiguration(wrongAlgorithm).clientSigningKey() }

        var unknownMethod = base
        unknownMethod["token_endpoint_auth_method"] = "client_secret_jwt"
        #expect(throws: AuthError.self) { try ProviderConfiguration(unknownMethod).clientAuthenticationMethod() }

        // The registration's description never shows the key.
        let registration = ClientRegistration(clientID: "service", redirectURI: URL(string: "https://app.example.test/cb")!, signingKey: key)
        #expect(registration.authenticationMethod == .privateKeyJWT)
        #expect(!String(describing: registration).contains("PRIVATE"))
        #expect(!String(reflecting: registration).contains(Self.rsaPEM.prefix(80).suffix(40)))
    }
}
