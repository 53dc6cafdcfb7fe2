import AuthCore
import AuthTesting
import Foundation
import Testing

@Suite("Verifying an ID token an app sends to its backend")
struct VerifyIDTokenTests {
    /// An app signs in; its backend, a second client of the same provider with nothing stored, verifies the ID token.
    private func appAndBackend(backendClientID: String = TestIdentityProvider.defaultClientID) async throws -> (
        idToken: Secret, nonce: String?, backend: AuthClient, backendStorage: InMemoryTokenStorage, fixture: Fixture
    ) {
        let fixture = Fixture()
        let session = try await fixture.signIn()
        let idToken = try #require(await session.credential.idToken)
        let nonce = await session.idTokenClaims?.nonce
        let storage = InMemoryTokenStorage()
        let backend = AuthClient(
            provider: PlainOIDCProvider(
                issuer: TestIdentityProvider.defaultIssuer,
                client: ClientRegistration(clientID: backendClientID, redirectURI: TestIdentityProvider.defaultRedirectURI, scopes: ["openid"])
            ),
            storage: storage,
            transport: fixture.idp.transport,
            logger: RecordingLogger(),
            clock: fixture.clock
        )
        return (idToken, nonce, backend, storage, fixture)
    }

    @Test("A genuine ID token verifies with its nonce, and nothing is stored")
    func genuine() async throws {
        let (idToken, nonce, backend, storage, _) = try await appAndBackend()
        let claims = try await backend.verifyIDToken(idToken, nonce: nonce)
        #expect(claims.subject == "user-1234")
        #expect(claims.audience == [TestIdentityProvider.defaultClientID])
        #expect(await storage.storedKeys().isEmpty)
    }

    @Test("Another nonce, another audience, a changed signature or an expired token are each refused by name")
    func refused() async throws {
        let (idToken, nonce, backend, storage, fixture) = try await appAndBackend()
        #expect(nonce != nil)
        let wrongNonce = await authError { _ = try await backend.verifyIDToken(idToken, nonce: "another-nonce") }
        #expect(wrongNonce?.code == .nonceMismatch)
        #expect(wrongNonce?.providerID == "plain")

        var parts = idToken.reveal().split(separator: ".").map(String.init)
        var signature = Array(parts[2])
        signature[10] = signature[10] == "A" ? "B" : "A"  // one bit pattern changed, still canonical base64url
        parts[2] = String(signature)
        let forged = await authError { _ = try await backend.verifyIDToken(Secret(parts.joined(separator: ".")), nonce: nonce) }
        #expect(forged?.code == .invalidSignature)

        fixture.clock.advance(by: 7200)
        let expired = await authError { _ = try await backend.verifyIDToken(idToken, nonce: nonce) }
        #expect(expired?.code == .tokenExpired)
        #expect(await storage.storedKeys().isEmpty)

        let other = try await appAndBackend(backendClientID: "another-client")
        let audience = await authError { _ = try await other.backend.verifyIDToken(other.idToken, nonce: other.nonce) }
        #expect(audience?.code == .invalidAudience)
    }
}
