import AuthCore
import AuthDynamicRegistration
import AuthTesting
import Foundation
import Testing

@Suite("Dynamic client registration (RFC 7591 / 7592)")
struct RegistrationTests {
    static let loopback = URL(string: "http://127.0.0.1:53682/callback")!
    static let asked = RegistrationRequest(redirectURIs: [loopback], scopes: ["openid", "email"])

    @Test("A native public client registers: the request says what was asked, the answer is kept and builds a provider")
    func registersNativePublicClient() async throws {
        let issuer = ScriptedIssuer()
        let storage = InMemoryRegistrationStorage()
        let registrar = ClientRegistrar(transport: issuer.transport, clock: ManualClock())
        let registration = try await registrar.register(Self.asked, issuer: ScriptedIssuer.issuer, initialAccessToken: Secret("iat"), storage: storage)
        #expect(registration.clientID == "client-1")
        #expect(registration.clientSecret == nil)
        #expect(registration.registrationAccessToken?.reveal() == "rat-value")
        #expect(await storage.registration(forIssuer: ScriptedIssuer.issuer) == registration)
        let post = try #require(issuer.requests.all.last)
        #expect(post.httpMethod == "POST")
        #expect(post.value(forHTTPHeaderField: "Authorization") == "Bearer iat")
        let body = try JSONValue.parseObject(try #require(post.body))
        #expect(body["application_type"] == "native")
        #expect(body["token_endpoint_auth_method"] == "none")
        #expect(body["redirect_uris"] == [.string(Self.loopback.absoluteString)])
        #expect(body["response_types"] == ["code"])
        #expect(body["grant_types"] == ["authorization_code", "refresh_token"])
        let client = registration.clientRegistration()
        #expect(client.clientID == "client-1" && client.authenticationMethod == .none && client.redirectURI == Self.loopback)
        #expect(registration.providerConfiguration()["client_id"] == "client-1")
        // The secrets never print.
        #expect(!String(describing: registration).contains("rat-value"))
    }

    @Test("A confidential client gets its secret; the stored value round-trips through JSON")
    func registersConfidentialClient() async throws {
        let issuer = ScriptedIssuer()
        let request = RegistrationRequest(applicationType: .web, redirectURIs: [URL(string: "https://app.example.test/cb")!], authenticationMethod: .clientSecretPost)
        let registration = try await ClientRegistrar(transport: issuer.transport, clock: ManualClock()).register(request, issuer: ScriptedIssuer.issuer)
        #expect(registration.clientSecret?.reveal() == "s3cret-value")
        #expect(registration.clientSecretExpiresAt == nil)
        let decoded = try JSONDecoder().decode(DynamicRegistration.self, from: try JSONEncoder().encode(registration))
        #expect(decoded == registration)
    }

    @Test("private_key_jwt sends the public JWK Set, and is refused without one before anything is sent")
    func privateKeyJWTNeedsKeys() async throws {
        let issuer = ScriptedIssuer()
        let registrar = ClientRegistrar(transport: issuer.transport, clock: ManualClock())
        let jwks: [String: JSONValue] = ["keys": [["kty": "EC", "crv": "P-256", "x": "x", "y": "y", "kid": "k1"]]]
        let request = RegistrationRequest(redirectURIs: [Self.loopback], authenticationMethod: .privateKeyJWT, jwks: jwks)
        _ = try await registrar.register(request, issuer: ScriptedIssuer.issuer)
        #expect(try JSONValue.parseObject(try #require(issuer.requests.all.last?.body))["jwks"] == .object(jwks))
        let bare = RegistrationRequest(redirectURIs: [Self.loopback], authenticationMethod: .privateKeyJWT)
        let error = await #expect(throws: AuthError.self) { try await registrar.register(bare, issuer: ScriptedIssuer.issuer) }
        #expect(error?.code == .invalidConfiguration)
    }

    @Test("Signed and encrypted responses: the algorithms and the encryption key's public half are registered and kept")
    func registersResponseProtection() async throws {
        let issuer = ScriptedIssuer()
        var request = Self.asked
        request.jwks = ["keys": [.object(try TestJWE.clientRSAKey.publicJWK())]]
        request.idTokenEncryption = ResponseEncryption(algorithm: "RSA-OAEP", contentEncryption: "A256GCM")
        request.userInfoEncryption = ResponseEncryption(algorithm: "RSA-OAEP-256")
        request.userInfoSigningAlgorithm = .rs256
        let registration = try await ClientRegistrar(transport: issuer.transport, clock: ManualClock()).register(request, issuer: ScriptedIssuer.issuer)
        let body = try JSONValue.parseObject(try #require(issuer.requests.all.last?.body))
        #expect(body["id_token_encrypted_response_alg"] == "RSA-OAEP" && body["id_token_encrypted_response_enc"] == "A256GCM")
        #expect(body["userinfo_encrypted_response_alg"] == "RSA-OAEP-256" && body["userinfo_encrypted_response_enc"] == "A128CBC-HS256")
        #expect(body["userinfo_signed_response_alg"] == "RS256")
        let key = try #require(body["jwks"]?.objectValue?["keys"]?.arrayValue?.first?.objectValue)
        #expect(key["use"] == "enc" && key["kty"] == "RSA" && key["d"] == nil)
        let client = registration.clientRegistration(decryptionKeys: [TestJWE.clientRSAKey])
        #expect(client.idTokenEncryption == request.idTokenEncryption && client.userInfoEncryption == request.userInfoEncryption)
        #expect(client.userInfoSigningAlgorithm == .rs256 && client.decryptionKeys == [TestJWE.clientRSAKey])
        let configuration = registration.providerConfiguration(adding: ["decryption_key_jwk": .object(try TestJWE.clientRSAKey.publicJWK())])
        #expect(configuration["id_token_encrypted_response_alg"] == "RSA-OAEP" && configuration["userinfo_signed_response_alg"] == "RS256")
        let decoded = try JSONDecoder().decode(DynamicRegistration.self, from: try JSONEncoder().encode(registration))
        #expect(decoded.request.idTokenEncryption == request.idTokenEncryption && decoded.request.userInfoSigningAlgorithm == .rs256)
        // An answer that registers another algorithm is refused.
        let changed = ScriptedIssuer { $0["id_token_encrypted_response_alg"] = "RSA1_5" }
        let error = await #expect(throws: AuthError.self) {
            try await ClientRegistrar(transport: changed.transport, clock: ManualClock()).register(request, issuer: ScriptedIssuer.issuer)
        }
        #expect(error?.code == .registrationResponseProtectionChanged)
    }

    /// One hostile answer per row: what the provider changed, and the code it must be refused with.
    static let hostile: [(String, AuthError.Code, RegistrationRequest.ApplicationType, ClientRegistration.AuthenticationMethod, @Sendable (inout [String: JSONValue]) -> Void)] = [
        ("redirect changed", .registrationRedirectMismatch, .native, .none, { $0["redirect_uris"] = ["https://evil.example/cb"] }),
        ("redirect added", .registrationRedirectMismatch, .native, .none, { $0["redirect_uris"] = [.string(loopback.absoluteString), "https://evil.example/cb"] }),
        ("redirects dropped", .registrationRedirectMismatch, .native, .none, { $0["redirect_uris"] = nil }),
        ("public made confidential", .registrationClientTypeChanged, .native, .none, { $0["token_endpoint_auth_method"] = "client_secret_basic" }),
        ("method dropped means client_secret_basic", .registrationClientTypeChanged, .native, .none, { $0["token_endpoint_auth_method"] = nil }),
        ("confidential made public", .registrationClientTypeChanged, .web, .clientSecretBasic, { $0["token_endpoint_auth_method"] = "none" }),
        ("basic made post", .registrationAuthMethodChanged, .web, .clientSecretBasic, { $0["token_endpoint_auth_method"] = "client_secret_post" }),
        ("implicit added", .registrationResponseTypesChanged, .native, .none, { $0["response_types"] = ["code", "token"] }),
        ("code dropped for token", .registrationResponseTypesChanged, .native, .none, { $0["response_types"] = ["token"] }),
        ("grant types changed", .registrationGrantTypesChanged, .native, .none, { $0["grant_types"] = ["authorization_code", "implicit"] }),
        // Dropping PKCE: a token from the authorization endpoint (no code to bind), or a per-client challenge method
        // that is not S256 (RFC 7591 §3.2.1: the client checks what was registered).
        ("PKCE dropped by a hybrid response type", .registrationResponseTypesChanged, .native, .none, { $0["response_types"] = ["code id_token"] }),
        ("PKCE dropped by the implicit grant", .registrationGrantTypesChanged, .native, .none, { $0["grant_types"] = ["implicit"] }),
        ("PKCE method plain", .registrationPKCEDropped, .native, .none, { $0["code_challenge_method"] = "plain" }),
        ("PKCE methods without S256", .registrationPKCEDropped, .native, .none, { $0["code_challenge_method"] = ["plain"] }),
        ("PKCE method empty", .registrationPKCEDropped, .native, .none, { $0["code_challenge_method"] = [] }),
        ("application type changed", .registrationApplicationTypeChanged, .native, .none, { $0["application_type"] = "web" }),
        ("no client_id", .registrationMissingClientID, .native, .none, { $0["client_id"] = nil }),
        ("empty client_id", .registrationMissingClientID, .native, .none, { $0["client_id"] = "" }),
        ("no secret for a secret method", .registrationMissingClientSecret, .web, .clientSecretPost, { $0["client_secret"] = nil }),
        ("secret already expired", .registrationSecretExpired, .web, .clientSecretBasic, { $0["client_secret_expires_at"] = 1 }),
        ("registration URI over http", .insecureEndpoint, .native, .none, { $0["registration_client_uri"] = "http://id.example.test/register/client-1" })
    ]

    @Test("An answer that changes what was asked security-wise is refused with its own code, and nothing is stored", arguments: 0..<hostile.count)
    func refusesChangedAnswer(_ index: Int) async throws {
        let (name, code, type, method, tamper) = Self.hostile[index]
        let issuer = ScriptedIssuer(tamper: tamper)
        let storage = InMemoryRegistrationStorage()
        let redirect = type == .web ? URL(string: "https://app.example.test/cb")! : Self.loopback
        var request = RegistrationRequest(applicationType: type, redirectURIs: [redirect], authenticationMethod: method)
        if name.hasPrefix("redirect") { request.redirectURIs = [Self.loopback] }
        let registrar = ClientRegistrar(transport: issuer.transport, clock: ManualClock())
        let error = await #expect(throws: AuthError.self, "\(name)") { try await registrar.register(request, issuer: ScriptedIssuer.issuer, storage: storage) }
        #expect(error?.code == code, "\(name)")
        #expect(await storage.count == 0, "\(name)")
    }

    @Test("An answer whose code_challenge_method includes S256 (alone or with others) is accepted and stored")
    func acceptsS256ChallengeMethod() async throws {
        for value: JSONValue in ["S256", ["plain", "S256"]] {
            let issuer = ScriptedIssuer { $0["code_challenge_method"] = value }
            let storage = InMemoryRegistrationStorage()
            let registration = try await ClientRegistrar(transport: issuer.transport, clock: ManualClock())
                .register(Self.asked, issuer: ScriptedIssuer.issuer, storage: storage)
            #expect(registration.clientID == "client-1")
            #expect(await storage.count == 1)
        }
    }

    @Test("A refusal of the registration endpoint is registration_refused with the provider's error; nothing is stored")
    func refusedByProvider() async throws {
        let issuer = ScriptedIssuer(status: 400) {
            $0 = ["error": "invalid_redirect_uri", "error_description": "redirect_uris must use https\u{1B}[2J"]
        }
        let storage = InMemoryRegistrationStorage()
        let error = await #expect(throws: AuthError.self) {
            try await ClientRegistrar(transport: issuer.transport, clock: ManualClock()).register(Self.asked, issuer: ScriptedIssuer.issuer, storage: storage)
        }
        #expect(error?.code == .registrationRefused)
        #expect(error?.oauthError == "invalid_redirect_uri")
        // The provider's description says what to fix; its terminal escape does not reach the user's terminal.
        #expect(error?.message.contains("redirect_uris must use https") == true)
        #expect(error?.message.contains("\u{1B}") == false)
        #expect(await storage.count == 0)
    }

    @Test("RFC 7592: read and update send the registration access token to registration_client_uri and keep the client")
    func readsAndUpdates() async throws {
        let issuer = ScriptedIssuer()
        let storage = InMemoryRegistrationStorage()
        let registrar = ClientRegistrar(transport: issuer.transport, clock: ManualClock())
        let registration = try await registrar.register(Self.asked, issuer: ScriptedIssuer.issuer, storage: storage)
        var changed = Self.asked
        changed.redirectURIs.append(URL(string: "http://127.0.0.1:53683/callback")!)
        let updated = try await registrar.update(registration, to: changed, storage: storage)
        let put = try #require(issuer.requests.all.last)
        #expect(put.httpMethod == "PUT" && put.url?.path == "/register/client-1")
        #expect(put.value(forHTTPHeaderField: "Authorization") == "Bearer rat-value")
        #expect(try JSONValue.parseObject(try #require(put.body))["client_id"] == "client-1")
        #expect(updated.request.redirectURIs.count == 2)
        #expect(await storage.registration(forIssuer: ScriptedIssuer.issuer)?.request.redirectURIs.count == 2)
    }

    @Test("RFC 7592: a read answer naming another client, or changed redirects, is refused and the stored one kept")
    func refusesChangedRead() async throws {
        let storage = InMemoryRegistrationStorage()
        let good = try await ClientRegistrar(transport: ScriptedIssuer().transport, clock: ManualClock()).register(Self.asked, issuer: ScriptedIssuer.issuer, storage: storage)
        let other = ScriptedIssuer { $0["client_id"] = "client-2" }
        let error = await #expect(throws: AuthError.self) {
            try await ClientRegistrar(transport: other.transport, clock: ManualClock()).update(good, to: Self.asked, storage: storage)
        }
        #expect(error?.code == .registrationMissingClientID)
        #expect(await storage.registration(forIssuer: ScriptedIssuer.issuer) == good)
    }

    @Test("An issuer without a registration endpoint is endpoint_unavailable")
    func noRegistrationEndpoint() async throws {
        let transport = InProcessTransport().adding(host: "id.example.test") { _ in ScriptedIssuer.json(["issuer": .string(ScriptedIssuer.issuer)]) }
        let error = await #expect(throws: AuthError.self) { try await ClientRegistrar(transport: transport).register(Self.asked, issuer: ScriptedIssuer.issuer) }
        #expect(error?.code == .endpointUnavailable)
    }
}
