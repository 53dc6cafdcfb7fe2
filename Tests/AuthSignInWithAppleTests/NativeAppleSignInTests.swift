import AuthCore
import AuthEmulators
import AuthSignInWithApple
import AuthTesting
import Foundation
import Testing

/// `AuthClient.completeNativeSignIn` with what `ASAuthorizationAppleIDCredential` carries, against the emulator.
@Suite("Sign in with Apple, native credential")
struct NativeAppleSignInTests {
    private func harness() throws -> AppleHarness {
        try AppleHarness(clientID: TestIdentityProvider.appleBundleID)
    }

    @Test("A native credential signs in: the ID token is verified with the app's nonce, the code redeemed for a refresh token, the name kept")
    func goodPath() async throws {
        let harness = try harness()
        let request = try await harness.client.prepareNativeSignIn()
        let credential = try await harness.emulator.appleNativeSignIn(nonce: request.nonce)
        let user = try #require(credential.user)
        let session = try await harness.client.completeNativeSignIn(
            identityToken: credential.identityToken, authorizationCode: credential.authorizationCode, nonce: request.nonce,
            authorizationResponse: ["user": user]
        )
        let stored = await session.credential
        #expect(stored.subject == TestIdentityProvider.appleUser.subject)
        #expect(stored.clientID == TestIdentityProvider.appleBundleID)
        #expect(stored.refreshToken != nil)
        #expect(stored.profile?["name"] == "Alex Appleseed")
        #expect(stored.profile?["email"] == "alex@example.com")
        #expect(await harness.storedCount() == 1)
        // The stored credential refreshes with the client secret.
        let refreshed = try await session.refresh()
        #expect(refreshed.profile?["name"] == "Alex Appleseed")
    }

    @Test("The provider's identity rule runs for native credentials too: refused with its error after every other check, nothing stored")
    func identityRuleRefuses() async throws {
        let harness = try harness()
        let refusing = IdentityRuleProvider(harness.provider) { _ in throw AuthError("test_identity_refused", "Not this user.") }
        let client = AuthClient(provider: refusing, storage: harness.storage, transport: harness.emulator.transport, logger: RecordingLogger(), clock: harness.clock)
        let request = try await client.prepareNativeSignIn()
        let credential = try await harness.emulator.appleNativeSignIn(nonce: request.nonce)
        let error = await #expect(throws: AuthError.self) {
            try await client.completeNativeSignIn(identityToken: credential.identityToken, authorizationCode: credential.authorizationCode, nonce: request.nonce)
        }
        #expect(error?.code == "test_identity_refused")
        #expect(await harness.storedCount() == 0)
    }

    @Test("HOSTILE: a replayed nonce, or one this client never made, is refused with nonce_replayed and nothing more is stored")
    func replayedNonce() async throws {
        let harness = try harness()
        let request = try await harness.client.prepareNativeSignIn()
        let first = try await harness.emulator.appleNativeSignIn(nonce: request.nonce)
        _ = try await harness.client.completeNativeSignIn(identityToken: first.identityToken, authorizationCode: first.authorizationCode, nonce: request.nonce)
        let before = await harness.storage.storedKeys()
        let updated = await harness.storage.credential(for: try #require(before.first))?.updatedAt
        harness.clock.advance(by: 5)

        let replay = try await harness.emulator.appleNativeSignIn(nonce: request.nonce)
        let error = await #expect(throws: AuthError.self) {
            try await harness.client.completeNativeSignIn(identityToken: replay.identityToken, authorizationCode: replay.authorizationCode, nonce: request.nonce)
        }
        #expect(error?.code == .nonceReplayed)
        #expect(await harness.storage.storedKeys() == before)
        #expect(await harness.storage.credential(for: before[0])?.updatedAt == updated)

        let fresh = try self.harness()
        let invented = "n-" + String(repeating: "a", count: 40)
        let unknown = try await fresh.emulator.appleNativeSignIn(nonce: invented)
        let unknownError = await #expect(throws: AuthError.self) {
            try await fresh.client.completeNativeSignIn(identityToken: unknown.identityToken, authorizationCode: unknown.authorizationCode, nonce: invented)
        }
        #expect(unknownError?.code == .nonceReplayed)
        #expect(await fresh.storedCount() == 0)
    }

    @Test("HOSTILE: an identity token issued to another app is refused with invalid_audience and nothing is stored")
    func foreignAudience() async throws {
        let harness = try harness()
        let request = try await harness.client.prepareNativeSignIn()
        let foreign = try await harness.emulator.appleNativeSignIn(nonce: request.nonce, clientID: TestIdentityProvider.appleOtherBundleID)
        let error = await #expect(throws: AuthError.self) {
            try await harness.client.completeNativeSignIn(identityToken: foreign.identityToken, authorizationCode: foreign.authorizationCode, nonce: request.nonce)
        }
        #expect(error?.code == .invalidAudience)
        #expect(await harness.storedCount() == 0)
    }

    @Test("HOSTILE: no nonce from the app, or an identity token without one, is refused with missing_nonce and nothing is stored")
    func missingNonce() async throws {
        let harness = try harness()
        let request = try await harness.client.prepareNativeSignIn()
        let credential = try await harness.emulator.appleNativeSignIn(nonce: request.nonce)
        let empty = await #expect(throws: AuthError.self) {
            try await harness.client.completeNativeSignIn(identityToken: credential.identityToken, authorizationCode: credential.authorizationCode, nonce: "")
        }
        #expect(empty?.code == .missingNonce)

        let other = try await harness.client.prepareNativeSignIn()
        let nonceless = try await harness.emulator.appleNativeSignIn(nonce: nil)
        let error = await #expect(throws: AuthError.self) {
            try await harness.client.completeNativeSignIn(identityToken: nonceless.identityToken, authorizationCode: nonceless.authorizationCode, nonce: other.nonce)
        }
        #expect(error?.code == .missingNonce)
        #expect(await harness.storedCount() == 0)
    }

    @Test("HOSTILE: an ID token with another nonce is refused with nonce_mismatch and nothing is stored")
    func wrongNonce() async throws {
        let harness = try harness()
        let request = try await harness.client.prepareNativeSignIn()
        let other = try await harness.client.prepareNativeSignIn()
        let credential = try await harness.emulator.appleNativeSignIn(nonce: other.nonce)
        let error = await #expect(throws: AuthError.self) {
            try await harness.client.completeNativeSignIn(identityToken: credential.identityToken, authorizationCode: credential.authorizationCode, nonce: request.nonce)
        }
        #expect(error?.code == .nonceMismatch)
        #expect(await harness.storedCount() == 0)
    }

    @Test("HOSTILE: a code issued for another user than the identity token is refused with subject_mismatch and nothing is stored")
    func mismatchedSubject() async throws {
        let harness = try harness()
        let request = try await harness.client.prepareNativeSignIn()
        let alex = try await harness.emulator.appleNativeSignIn(nonce: request.nonce)
        await harness.idp.setUser(TestIdentityProvider.applePrivateRelayUser)
        let robin = try await harness.emulator.appleNativeSignIn(nonce: request.nonce)
        let error = await #expect(throws: AuthError.self) {
            try await harness.client.completeNativeSignIn(identityToken: alex.identityToken, authorizationCode: robin.authorizationCode, nonce: request.nonce)
        }
        #expect(error?.code == .subjectMismatch)
        #expect(await harness.storedCount() == 0)
    }
}
