import AuthAppSupport
import AuthCore
import AuthEmulators
import AuthOneLogin
import AuthTesting
import Foundation
import OneLoginCompat
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session OneLogin's OLOidc SDK kept (Keychain account `ol-oidc-authState-<clientId>`, AppAuth's
/// `OIDAuthState` archived with NSKeyedArchiver) is moved once into this package's storage.
@Suite("OneLogin: the OLOidc SDK's stored session")
struct OLOidcVendorSessionTests {
    /// `NSKeyedArchiver.archivedData(withRootObject: authState, requiringSecureCoding: false)` of a signed-in
    /// `OIDAuthState`, in AppAuth's archive layout (OIDAuthState.m / OIDTokenResponse.m / OIDFieldMapping.m):
    /// `refreshToken`, `scope`, `needsTokenRefresh`, `lastAuthorizationResponse`, and `lastTokenResponse` whose
    /// fields are archived under `access_token`, `expires_in` (an NSDate: 2026-01-01T01:00:00Z), `token_type`,
    /// `id_token` (sub `vendor-user-77`), `refresh_token`, `scope`, `request` and `additionalParameters`.
    /// Written as a binary property list with Python's plistlib (UIDs included), since Foundation on Linux archives
    /// Swift classes under module-qualified names.
    static let archivedAuthState = Data(
        base64Encoded:
            "YnBsaXN0MDDUAQIDBAUGUFNZJGFyY2hpdmVyWCRvYmplY3RzVCR0b3BYJHZlcnNpb25fEA9OU0tleWVkQXJjaGl2ZXKvEBQHCBUbHiEkJysxMjM0NTZHSEk1NFUkbnVsbNYJCgsMDQ4PEBESExRWJGNsYXNzXxAZbGFzdEF1dGhvcml6YXRpb25SZXNwb25zZV8QEWxhc3RUb2tlblJlc3BvbnNlXxARbmVlZHNUb2tlblJlZnJlc2hccmVmcmVzaFRva2VuVXNjb3BlgAKAEYAOCIATgBLSFhcYGVgkY2xhc3Nlc1okY2xhc3NuYW1lohkaXE9JREF1dGhTdGF0ZVhOU09iamVjdNIWFxwdoh0aXxAQT0lEVG9rZW5SZXNwb25zZdIWFx8goiAaVk5TRGF0ZdIWFyIjoiMaXE5TRGljdGlvbmFyedIWFyUmoiYaXxAYT0lEQXV0aG9yaXphdGlvblJlc3BvbnNl0gkoKSpXTlMudGltZYAEI0HHgv9IAAAA0wksLS4vMFdOUy5rZXlzWk5TLm9iamVjdHOABaCgXxATdmVuZG9yLWFjY2Vzcy10b2tlblZCZWFyZXJfEQEGZXlKaGJHY2lPaUFpVWxNeU5UWWlMQ0FpYTJsa0lqb2dJblpsYm1SdmNpMXJaWGtpZlEuZXlKcGMzTWlPaUFpYUhSMGNITTZMeTlsZUdGdGNHeGxMbTl1Wld4dloybHVMbU52YlM5dmFXUmpMeklpTENBaWMzVmlJam9nSW5abGJtUnZjaTExYzJWeUxUYzNJaXdnSW1GMVpDSTZJQ0l3YjJFdFpXMTFiR0YwWldRdGIyNWxiRzluYVc0dFkyeHBaVzUwSWl3Z0ltbGhkQ0k2SURFM05qY3lNalUyTURBc0lDSmxlSEFpT2lBeE56WTNNakk1TWpBd2ZRLmMybG5ibUYwZFhKbF8QFHZlbmRvci1yZWZyZXNoLXRva2VuXm9wZW5pZCBwcm9maWxl2Qk3ODk6OzwOPT4/QEFCQ0RFRlxhY2Nlc3NfdG9rZW5fEBRhZGRpdGlvbmFsUGFyYW1ldGVyc1pleHBpcmVzX2luWGlkX3Rva2VuXXJlZnJlc2hfdG9rZW5XcmVxdWVzdFp0b2tlbl90eXBlgAOACYAIgAeAC4AMgACADYAKWXVzZWQtY29kZVp1c2VkLXN0YXRl1Qk4SjxLTEBNTk9UY29kZVVzdGF0ZYAGgA+AAIAQ0VFSVHJvb3SAARIAAYagAAgAEQAbACQAKQAyAEQAWwBhAG4AdQCRAKUAuQDGAMwAzgDQANIA0wDVANcA3ADlAPAA8wEAAQkBDgERASQBKQEsATMBOAE7AUgBTQFQAWsBcAF4AXoBgwGKAZIBnQGfAaABoQG3Ab4CyALfAu4DAQMOAyUDMAM5A0cDTwNaA1wDXgNgA2IDZANmA2gDagNsA3YDgQOMA5EDlwOZA5sDnQOfA6IDpwOpAAAAAAAAAgEAAAAAAAAAVAAAAAAAAAAAAAAAAAAAA64="
    )!

    private func store() async -> InMemoryVendorStore {
        let store = InMemoryVendorStore()
        await store.setGenericPassword(Self.archivedAuthState, service: nil, account: "ol-oidc-authState-\(TestIdentityProvider.oneLoginClientID)")
        return store
    }

    private func olOidc(_ idp: TestIdentityProvider, storage: any TokenStorage, vendorStore: InMemoryVendorStore, transport: (any HTTPTransport)? = nil) async throws -> OLOidc {
        try await OLOidc(
            configuration: try OneLoginConfiguration(dict: oneLoginTestConfiguration), secureStorage: storage,
            transport: transport ?? idp.transport, logger: RecordingLogger(), clock: idp.clock, vendorStore: vendorStore)
    }

    @Test("The archive reads as AppAuth's OIDAuthState with its last token response")
    func archiveFixture() throws {
        let state = try KeyedArchive(Self.archivedAuthState)
        #expect(state.className == "OIDAuthState" && state.string("refreshToken") == "vendor-refresh-token")
        let response = try #require(state.object("lastTokenResponse"))
        #expect(response.className == "OIDTokenResponse" && response.string("access_token") == "vendor-access-token")
        #expect(response.date("expires_in") == Date(timeIntervalSince1970: 1_767_229_200) && response.object("request") == nil)
    }

    @Test("A user signed in with OLOidc is signed in after the switch, offline; the vendor's item is removed once adopted")
    func adopted() async throws {
        let idp = TestIdentityProvider.oneLogin(clock: ManualClock())
        let vendor = await store()
        let storage = InMemoryTokenStorage()
        let offline = RecordingTransport(InProcessTransport())
        let olOidc = try await olOidc(idp, storage: storage, vendorStore: vendor, transport: offline)
        let state = await olOidc.olAuthState
        #expect(state.accessToken?.reveal() == "vendor-access-token" && state.refreshToken?.reveal() == "vendor-refresh-token")
        #expect(state.idTokenParsed?.subject == "vendor-user-77")
        let stored = try #require(await storage.storedKeys().first)
        #expect(await storage.credential(for: stored)?.expiresAt == Date(timeIntervalSince1970: 1_767_229_200))
        let (vendorEmpty, requests) = (await vendor.isEmpty, await offline.exchanges.count)
        #expect(vendorEmpty && requests == 0)

        // A second start finds our storage filled: nothing is read again.
        let again = await store()
        _ = try await self.olOidc(idp, storage: storage, vendorStore: again, transport: offline)
        #expect(await again.isEmpty == false)
    }

    @Test("A damaged item is left in place and logged; the app starts signed out")
    func damaged() async throws {
        let idp = TestIdentityProvider.oneLogin(clock: ManualClock())
        let vendor = InMemoryVendorStore()
        await vendor.setGenericPassword(Self.archivedAuthState.prefix(300), service: nil, account: "ol-oidc-authState-\(TestIdentityProvider.oneLoginClientID)")
        let olOidc = try await olOidc(idp, storage: InMemoryTokenStorage(), vendorStore: vendor)
        #expect(await olOidc.olAuthState.accessToken == nil)
        #expect(await vendor.isEmpty == false)
    }
}

@Suite("OneLogin: OLOidc(configuration: nil)")
struct OLOidcDefaultConfigurationTests {
    @Test("configuration nil reads OL-Oidc.plist from the main bundle, as the vendor's; missing, it is a clear error")
    func nilConfiguration() async throws {
        let error = await #expect(throws: AuthError.self) {
            _ = try await OLOidc(configuration: nil, secureStorage: InMemoryTokenStorage(), transport: InProcessTransport(), vendorStore: nil)
        }
        #expect(error?.code == .configurationFileNotFound && error?.message.contains("OL-Oidc") == true)
    }
}
