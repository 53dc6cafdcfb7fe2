import AuthCore
import AuthSchibsted
import AuthTesting
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 18: the rows of `../shared/audits/schibsted.md` and the Schibsted part of the wire audit that were not OK,
/// each pinned by a test named after its row, with the vendor's own test vectors where it has them.
@Suite("Schibsted, faithful to account-sdk-ios-web")
struct SchibstedVendorFidelityTests {
    private func client(
        _ idp: TestIdentityProvider,
        storage: any TokenStorage = InMemoryTokenStorage(),
        transport: (any HTTPTransport)? = nil
    ) -> SchibstedAccountClient {
        SchibstedAccountClient(
            configuration: ClientConfiguration(environment: .pre, clientId: TestIdentityProvider.schibstedClientID,
                                               redirectURI: TestIdentityProvider.schibstedRedirectURI),
            storage: storage, transport: transport ?? idp.transport, logger: RecordingLogger(), clock: idp.clock)
    }

    // MARK: Row 34 / wire "amr / MFA"

    @Test("row34: the vendor's AMR vectors — eid-se with amr [eid] accepted, with [eid-se] refused, otp without amr refused")
    func row34AMRVectors() {
        // IdTokenValidator.swift 6.x :124-139 and 5.1.3 :71-73.
        #expect(MFAType.eidSE.isSatisfiedForTesting(by: ["eid"]))
        #expect(!MFAType.eidSE.isSatisfiedForTesting(by: ["eid-se"]))
        #expect(!MFAType.otp.isSatisfiedForTesting(by: []))
        #expect(MFAType.otp.isSatisfiedForTesting(by: ["otp"]))
        for country in [MFAType.eidDK, .eidFI, .eidNO, .eidSE] {
            #expect(country.isSatisfiedForTesting(by: ["pwd", "eid"]), "\(country)")
        }
    }

    @Test("row34: the emulator reports a country eID as eid, as the real server; a login asking for eid-dk succeeds")
    func row34EmulatorReportsEID() async throws {
        let idp = TestIdentityProvider.schibsted(clock: ManualClock())
        let client = client(idp)
        let user = try await client.login(with: HeadlessUserAgent(transport: idp.transport), withMFA: .eidDK)
        #expect(await user.session.idTokenClaims?.authenticationMethods == ["eid"])
    }

    // MARK: Wire "ID token iss" / issue item 3

    @Test("item3: the emulator's issuer ends in /, as the real server's; sign-in and a refresh that brings a new ID token both accept it")
    func item3RefreshWithTrailingSlashIssuer() async throws {
        let idp = TestIdentityProvider.schibsted(clock: ManualClock())
        #expect(idp.configuration.issuer.absoluteString == "https://identity-pre.schibsted.com/")
        let storage = InMemoryTokenStorage()
        let client = client(idp, storage: storage)
        let user = try await client.login(with: HeadlessUserAgent(transport: idp.transport))
        #expect(await user.session.idTokenClaims?.issuer == "https://identity-pre.schibsted.com/")
        let before = await user.session.credential
        let refreshed = try await user.session.refresh()
        #expect(refreshed.accessToken != before.accessToken)
        #expect(refreshed.idToken != nil && refreshed.idToken != before.idToken)
        // Stored under the configured issuer, so the next start finds it.
        #expect(await storage.storedKeys().map(\.issuer) == ["https://identity-pre.schibsted.com"])
        #expect(try await client.resumeLastLoggedInUser() != nil)
    }
}
