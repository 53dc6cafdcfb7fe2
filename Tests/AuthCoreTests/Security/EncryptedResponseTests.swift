import AuthCore
import AuthTesting
import Foundation
import Testing

/// Signed and encrypted ID tokens and user info through the engine (OpenID Connect Core §3.1.3.7 step 1, §5.3.2,
/// §10.2), against the in-process identity provider: what a registered client accepts, and each refusal's code with
/// nothing stored or returned.
@Suite("Signed and encrypted responses")
struct EncryptedResponseTests {
    static let secret = "the-confidential-client-secret"

    static func registered(_ encryption: ResponseEncryption?, userInfoEncryption: ResponseEncryption? = nil, userInfoSigning: JWSAlgorithm? = nil)
        -> (inout ClientRegistration) -> Void
    {
        { client in
            client.idTokenEncryption = encryption
            client.userInfoEncryption = userInfoEncryption
            client.userInfoSigningAlgorithm = userInfoSigning
            client.decryptionKeys = [TestJWE.clientRSAKey, TestJWE.clientP256Key]
        }
    }

    @Test(
        "An encrypted ID token is decrypted, its nested token verified, and the signed token stored",
        arguments: [
            ("RSA-OAEP", "A256GCM", TestJWE.Recipient.clientRSA), ("RSA-OAEP-256", "A128CBC-HS256", .clientRSA), ("ECDH-ES", "A128GCM", .clientP256),
            ("ECDH-ES+A128KW", "A256CBC-HS512", .clientP256), ("A128KW", "A256CBC-HS512", .secret(secret)), ("A256KW", "A256GCM", .secret(secret))
        ])
    func encryptedIDToken(_ algorithm: String, _ encryption: String, _ recipient: TestJWE.Recipient) async throws {
        let fixture = Fixture(clientSecret: Self.secret, configureClient: Self.registered(ResponseEncryption(algorithm: algorithm, contentEncryption: encryption)))
        await fixture.idp.update { $0.idTokenEncryption = .init(algorithm: algorithm, encryption: encryption, recipient: recipient) }
        let session = try await fixture.signIn()
        let stored = try #require(await session.credential.idToken).reveal()
        #expect(stored.split(separator: ".", omittingEmptySubsequences: false).count == 3, "the signed token inside is kept")
        #expect(await session.credential.subject == "user-1234")
        // A refresh answers with an encrypted ID token too: decrypted and checked against the first.
        _ = try await session.refresh()
        #expect(try #require(await session.credential.idToken).reveal().split(separator: ".").count == 3)
    }

    @Test("An ID token that does not decrypt, decrypts to an unsigned token, or arrives in the clear stores nothing")
    func refusedIDTokens() async throws {
        let registered = Self.registered(ResponseEncryption(algorithm: "RSA-OAEP", contentEncryption: "A256GCM"))
        let cases: [(AuthError.Code, @Sendable (inout TestIdentityProvider.Behavior) -> Void)] = [
            (.decryptionFailed, { $0.idTokenEncryption = .init(recipient: .strangerRSA) }),
            (.decryptionFailed, { $0.idTokenEncryption = .init(tamperedTag: true) }),
            (
                .unsignedResponse,
                {
                    $0.idTokenEncryption = .init()
                    $0.signing = .unsigned
                }
            ),
            (.unencryptedResponse, { $0.idTokenEncryption = nil }),
            (.unsupportedAlgorithm, { $0.idTokenEncryption = .init(algorithm: "RSA1_5") })
        ]
        for (expected, behave) in cases {
            let fixture = Fixture(configureClient: registered)
            await fixture.idp.update(behave)
            let error = await authError { _ = try await fixture.signIn() }
            #expect(error?.code == expected, "\(String(describing: error))")
            #expect(try await fixture.storedCount() == 0)
        }
        // An encrypted ID token for a client that registered for none is refused too.
        let plain = Fixture()
        await plain.idp.update { $0.idTokenEncryption = .init() }
        #expect(await authError { _ = try await plain.signIn() }?.code == .decryptionFailed)
        #expect(try await plain.storedCount() == 0)
    }

    @Test("Signed user info is verified like an ID token: the issuer's key, iss, aud, sub")
    func signedUserInfo() async throws {
        let fixture = Fixture(configureClient: Self.registered(nil, userInfoSigning: .rs256))
        await fixture.idp.update { $0.userInfoProtection = .init(algorithm: nil, signsUserInfo: true) }
        let session = try await fixture.signIn()
        let info = try await session.userInfo()
        #expect(info.subject == "user-1234")
        #expect(info.claims["email"] != nil)
        #expect(info.claims["iss"]?.stringValue == TestIdentityProvider.defaultIssuer.absoluteString)
    }

    @Test("Signed user info with another iss, aud or sub, unsigned, or JSON is refused with its code")
    func refusedSignedUserInfo() async throws {
        let cases: [(AuthError.Code, Behavior)] = [
            (.invalidIssuer, { $0.userInfoOverrides["iss"] = "https://impostor.example.test" }),
            (.invalidAudience, { $0.userInfoOverrides["aud"] = "another-client" }),
            (.subjectMismatch, { $0.userInfoOverrides["sub"] = "someone-else" }),
            (.unsignedResponse, { $0.userInfoProtection?.unsignedUserInfo = true }),
            (.unsignedResponse, { $0.userInfoProtection = nil })
        ]
        for (expected, behave) in cases {
            let fixture = Fixture(configureClient: Self.registered(nil, userInfoSigning: .rs256))
            let session = try await fixture.signIn()
            await fixture.idp.update {
                $0.userInfoProtection = .init(algorithm: nil, signsUserInfo: true)
                behave(&$0)
            }
            let error = await authError { _ = try await session.userInfo() }
            #expect(error?.code == expected, "\(String(describing: error))")
        }
    }

    typealias Behavior = @Sendable (inout TestIdentityProvider.Behavior) -> Void

    @Test("A signed JWT answer is verified even unregistered (application/jwt), with the pinned algorithms; alg none never")
    func unregisteredSignedUserInfo() async throws {
        let fixture = Fixture()
        let session = try await fixture.signIn()
        await fixture.idp.update { $0.userInfoProtection = .init(algorithm: nil, signsUserInfo: true) }
        #expect(try await session.userInfo().subject == "user-1234")
        await fixture.idp.update { $0.userInfoProtection = .init(algorithm: nil, signsUserInfo: true, unsignedUserInfo: true) }
        #expect(await authError { _ = try await session.userInfo() }?.code == .unsignedResponse)
    }

    @Test("Encrypted user info (JSON inside, or a signed JWT inside) is decrypted; in the clear or undecryptable it is refused")
    func encryptedUserInfo() async throws {
        let encryption = ResponseEncryption(algorithm: "ECDH-ES+A256KW", contentEncryption: "A128GCM")
        let encrypted = Fixture(configureClient: Self.registered(nil, userInfoEncryption: encryption))
        let session = try await encrypted.signIn()
        await encrypted.idp.update { $0.userInfoProtection = .init(algorithm: encryption.algorithm, encryption: encryption.contentEncryption, recipient: .clientP256) }
        #expect(try await session.userInfo().subject == "user-1234")
        await encrypted.idp.update { $0.userInfoProtection = nil }
        #expect(await authError { _ = try await session.userInfo() }?.code == .unencryptedResponse)
        await encrypted.idp.update { $0.userInfoProtection = .init(algorithm: encryption.algorithm, encryption: encryption.contentEncryption, recipient: .strangerP256) }
        #expect(await authError { _ = try await session.userInfo() }?.code == .decryptionFailed)

        let both = Fixture(configureClient: Self.registered(nil, userInfoEncryption: encryption, userInfoSigning: .rs256))
        let signedSession = try await both.signIn()
        await both.idp.update {
            $0.userInfoProtection = .init(algorithm: encryption.algorithm, encryption: encryption.contentEncryption, recipient: .clientP256, signsUserInfo: true)
        }
        #expect(try await signedSession.userInfo().claims["aud"]?.stringValue == TestIdentityProvider.defaultClientID)
        // Encrypted JSON where a signed JWT was registered: unsigned inside.
        await both.idp.update { $0.userInfoProtection = .init(algorithm: encryption.algorithm, encryption: encryption.contentEncryption, recipient: .clientP256) }
        #expect(await authError { _ = try await signedSession.userInfo() }?.code == .unsignedResponse)
    }

    @Test("The configuration keys register signed and encrypted responses; RSA1_5, none and a missing key are refused")
    func configuration() throws {
        let keyFile = FileManager.default.temporaryDirectory.appendingPathComponent("enc-\(UUID().uuidString).pem")
        try TestJWE.clientP256PEM.write(to: keyFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: keyFile) }
        let base: [String: JSONValue] = ["client_id": "app", "redirect_uri": "http://127.0.0.1:1/cb", "client_secret": "s"]
        func client(_ extra: [String: JSONValue]) throws -> ClientRegistration {
            try ProviderConfiguration(base.merging(extra) { _, new in new }).openIDClient(providerID: "oidc", defaultScopes: ["openid"])
        }
        let configured = try client([
            "decryption_key_file": .string(keyFile.path), "id_token_encrypted_response_alg": "ECDH-ES",
            "userinfo_encrypted_response_alg": "A128KW", "userinfo_encrypted_response_enc": "A256GCM", "userinfo_signed_response_alg": "ES256"
        ])
        #expect(configured.idTokenEncryption == ResponseEncryption(algorithm: "ECDH-ES", contentEncryption: "A128CBC-HS256"))
        #expect(configured.userInfoEncryption == ResponseEncryption(algorithm: "A128KW", contentEncryption: "A256GCM"))
        #expect(configured.userInfoSigningAlgorithm == .es256)
        #expect(configured.decryptionKeys.map(\.description) == ["ClientDecryptionKey(P-256)"])
        for refused: [String: JSONValue] in [
            ["id_token_encrypted_response_alg": "RSA1_5", "decryption_key_file": .string(keyFile.path)],
            ["id_token_encrypted_response_alg": "RSA-OAEP"],
            ["id_token_encrypted_response_alg": "RSA-OAEP", "decryption_key_file": .string(keyFile.path)],
            ["userinfo_encrypted_response_alg": "ECDH-ES", "userinfo_encrypted_response_enc": "A192GCM", "decryption_key_file": .string(keyFile.path)],
            ["userinfo_signed_response_alg": "none"],
            ["id_token_encrypted_response_enc": "A128GCM"]
        ] {
            #expect(throws: AuthError.self) { _ = try client(refused) }
        }
    }
}
