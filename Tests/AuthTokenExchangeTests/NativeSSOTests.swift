import AuthCore
import AuthTesting
import AuthTokenExchange
import Foundation
import Testing

@Suite("OpenID Connect Native SSO for Mobile Apps")
struct NativeSSOTests {
    static let grantType = "urn:ietf:params:oauth:grant-type:token-exchange"

    /// App 1 signed in with `device_sso` and its sign-in shared with the family.
    private func firstApp(_ fixture: ExchangeFixture, family: NativeSSOFamily) async throws -> Session {
        let session = try await fixture.signIn(fixture.client(), adding: [NativeSSOFamily.scope])
        #expect(try await family.share(session))
        return session
    }

    @Test("The second app of the family signs in with no browser: the ID token and device secret by token exchange (§4)")
    func secondAppSignsInWithoutBrowser() async throws {
        let fixture = ExchangeFixture()
        let shared = InMemoryTokenStorage()
        let family = NativeSSOFamily(name: "com.example.suite", storage: shared)
        let first = try await firstApp(fixture, family: family)
        let firstCredential = await first.credential
        let deviceSecret = try #require(firstCredential.deviceSecret)
        let browserSignIns = await fixture.authorizationRequests()
        #expect(browserSignIns == 1)

        let secondStorage = InMemoryTokenStorage()
        let second = try await family.signIn(with: fixture.client(ExchangeFixture.secondApp, storage: secondStorage))
        let credential = await second.credential
        #expect(credential.subject == "user-1234" && credential.clientID == ExchangeFixture.secondApp)
        #expect(credential.refreshToken != nil && credential.idToken != nil)
        #expect(await second.idTokenClaims?.audience == [ExchangeFixture.secondApp])
        #expect(await fixture.authorizationRequests() == browserSignIns, "no browser for the second app")
        #expect(await secondStorage.storedKeys().count == 1)

        // The request is Native SSO §4.1's.
        let sent = try #require(await fixture.tokenRequests(Self.grantType).first?.formParameters)
        #expect(sent["subject_token"] == firstCredential.idToken?.reveal())
        #expect(sent["subject_token_type"] == "urn:ietf:params:oauth:token-type:id_token")
        #expect(sent["actor_token"] == deviceSecret.reveal())
        #expect(sent["actor_token_type"] == "urn:x-oath:params:oauth:token-type:device-secret")
        #expect(sent["audience"] == TestIdentityProvider.defaultIssuer.absoluteString)
        #expect(sent["client_id"] == ExchangeFixture.secondApp && sent["requested_token_type"] == nil)
        // The device secret is never logged.
        #expect(fixture.logger.lines.allSatisfy { !$0.contains(deviceSecret.reveal()) })
        // The second app refreshes on its own.
        #expect(try await second.refresh().clientID == ExchangeFixture.secondApp)
    }

    @Test("The device secret is checked against the ID token's ds_hash (§3.1) and kept with the credential")
    func deviceSecretBoundByHash() async throws {
        let fixture = ExchangeFixture()
        let session = try await fixture.signIn(fixture.client(), adding: [NativeSSOFamily.scope])
        let credential = await session.credential
        let secret = try #require(credential.deviceSecret)
        let hash = try #require(await session.idTokenClaims?["ds_hash"]?.stringValue)
        #expect(AuthClient.deviceSecretHashes(secret, algorithm: .rs256).contains(hash))
        // Without device_sso: none.
        let plain = try await fixture.signIn(fixture.client(storage: InMemoryTokenStorage()))
        #expect(await plain.credential.deviceSecret == nil)
        #expect(try await NativeSSOFamily(name: "f", storage: InMemoryTokenStorage()).share(plain) == false)
    }

    @Test("ds_hash in the constructions servers use (at_hash's, base64url and hex SHA-256) binds; without ds_hash the secret is dropped")
    func deviceSecretHashConstructions() async throws {
        // SHA-256("abc") (FIPS 180-2 appendix B.1).
        let hashes = AuthClient.deviceSecretHashes(Secret("abc"), algorithm: .rs256)
        #expect(hashes == ["ungWv48Bz-pBQUDeXa4iIw", "ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"])
        for hash in hashes {
            let fixture = ExchangeFixture()
            await fixture.idp.update {
                $0.tokenResponseOverrides["device_secret"] = "abc"
                $0.idTokenClaimOverrides["ds_hash"] = .string(hash)
            }
            let session = try await fixture.signIn(fixture.client())
            #expect(await session.credential.deviceSecret == Secret("abc"))
        }
        let fixture = ExchangeFixture()
        await fixture.idp.update { $0.tokenResponseOverrides["device_secret"] = "abc" }
        let session = try await fixture.signIn(fixture.client())
        #expect(await session.credential.deviceSecret == nil)
        #expect(fixture.logger.lines.contains { $0.contains("native_sso.unbound_device_secret") })
    }

    @Test("A device secret from another app family (ds_hash binds another) is refused with its own code; nothing is stored")
    func foreignDeviceSecretInAnswer() async throws {
        let fixture = ExchangeFixture()
        await fixture.idp.update {
            $0.idTokenClaimOverrides["ds_hash"] = .string(IDTokenValidator.accessTokenHash(Secret("another-family-secret"), algorithm: .rs256))
        }
        let storage = InMemoryTokenStorage()
        let error = await #expect(throws: AuthError.self) { try await fixture.signIn(fixture.client(storage: storage), adding: [NativeSSOFamily.scope]) }
        #expect(error?.code == .deviceSecretMismatch)
        #expect(await storage.storedKeys().isEmpty)
    }

    @Test("A shared store holding another family's or issuer's device secret is refused before anything is sent")
    func foreignFamilyInStore() async throws {
        let fixture = ExchangeFixture()
        let shared = InMemoryTokenStorage()
        _ = try await firstApp(fixture, family: NativeSSOFamily(name: "com.example.suite", storage: shared))
        // Another family's record copied into this family's place.
        let key = StorageKey(providerID: "native-sso", issuer: TestIdentityProvider.defaultIssuer.absoluteString, clientID: "com.example.suite", account: "device-secret")
        var record = try #require(await shared.credential(for: key))
        record.annotations = ["native_sso_family": "com.other.vendor"]
        await shared.store(record, for: key)

        let storage = InMemoryTokenStorage()
        let family = NativeSSOFamily(name: "com.example.suite", storage: shared)
        let error = await #expect(throws: AuthError.self) { try await family.signIn(with: fixture.client(ExchangeFixture.secondApp, storage: storage)) }
        #expect(error?.code == .foreignDeviceSecret)
        #expect(await storage.storedKeys().isEmpty)
        #expect(await fixture.tokenRequests(Self.grantType).isEmpty)

        let empty = NativeSSOFamily(name: "com.example.empty", storage: InMemoryTokenStorage())
        let none = await #expect(throws: AuthError.self) { try await empty.signIn(with: fixture.client(ExchangeFixture.secondApp, storage: storage)) }
        #expect(none?.code == .noSharedSignIn)
    }

    @Test("An app outside the family is refused by the server (§4.3 step 5); nothing is stored")
    func outsiderRefused() async throws {
        let fixture = ExchangeFixture()
        let family = NativeSSOFamily(name: "com.example.suite", storage: InMemoryTokenStorage())
        _ = try await firstApp(fixture, family: family)
        let storage = InMemoryTokenStorage()
        let error = await #expect(throws: AuthError.self) { try await family.signIn(with: fixture.client(ExchangeFixture.outsider, storage: storage)) }
        #expect(error?.code == .invalidGrant)
        #expect(await fixture.idp.tokenExchangeFailures == ["the client is not of the device secret's app family"])
        #expect(await storage.storedKeys().isEmpty)
    }

    @Test("Signing out of one app ends the family's session when asked: the shared secret goes, and the server refuses it")
    func familySignOut() async throws {
        let fixture = ExchangeFixture()
        let shared = InMemoryTokenStorage()
        let family = NativeSSOFamily(name: "com.example.suite", storage: shared)
        let first = try await firstApp(fixture, family: family)
        let sharedKey = try #require(await shared.storedKeys().first)
        let kept = try #require(await shared.credential(for: sharedKey))

        // Signing out without ending the family's session leaves the shared sign-in.
        let second = try await family.signIn(with: fixture.client(ExchangeFixture.secondApp))
        try await family.signOut(second, endingFamilySession: false)
        #expect(try await family.hasSharedSignIn(issuer: TestIdentityProvider.defaultIssuer.absoluteString))

        let report = try await family.signOut(first, endingFamilySession: true)
        #expect(report.revokedRefreshToken)
        #expect(await shared.storedKeys().isEmpty)
        let error = await #expect(throws: AuthError.self) { try await family.signIn(with: fixture.client(ExchangeFixture.secondApp)) }
        #expect(error?.code == .noSharedSignIn)
        // A copy kept elsewhere no longer works: the device secret's session ended (§4.3 step 4).
        await shared.store(kept, for: kept.storageKey)
        let ended = await #expect(throws: AuthError.self) { try await family.signIn(with: fixture.client(ExchangeFixture.secondApp)) }
        #expect(ended?.code == .invalidGrant)
        #expect(await fixture.idp.tokenExchangeFailures.last == "the device secret's session ended")
    }
}
