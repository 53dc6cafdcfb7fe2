import AuthAppSupport
import AuthCore
import AuthTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one-time move of a vendor SDK's session into storage, which Grab, Uber and OneLogin share.
@Suite("Vendor session adoption")
struct VendorSessionAdoptionTests {
    private struct DiscoveredProvider: AuthProvider {
        static let id: ProviderID = "vendor"
        init() {}
        init(configuration: ProviderConfiguration) throws {}
        var client: ClientRegistration {
            ClientRegistration(clientID: TestIdentityProvider.defaultClientID, redirectURI: TestIdentityProvider.defaultRedirectURI, scopes: ["openid"])
        }
        var endpointSource: EndpointSource {
            .custom(cacheKey: "vendor") { transport in
                var request = CapturedRequest(url: TestIdentityProvider.defaultIssuer.appendingPathComponent(".well-known/openid-configuration"))
                request.httpMethod = "GET"
                do {
                    let (data, _) = try await transport.send(request)
                    return try ProviderMetadata(document: try JSONValue.parseObject(data))
                } catch let error as AuthError {
                    throw error
                } catch {
                    throw AuthError(.network, "unreachable", underlying: error)
                }
            }
        }
    }

    private func credential(_ issuer: String) -> Credential {
        Credential(
            providerID: "vendor", issuer: issuer, clientID: TestIdentityProvider.defaultClientID, subject: "u",
            accessToken: Secret("vendor-token"), updatedAt: Date(timeIntervalSince1970: ManualClock.defaultEpoch))
    }

    @Test("Each outcome: offline (retry later), adopted (stored, then the copy removed), nothing to adopt, unreadable (left in place)")
    func outcomes() async throws {
        let idp = TestIdentityProvider()
        let storage = InMemoryTokenStorage()
        let offline = AuthClient(provider: DiscoveredProvider(), storage: storage, transport: InProcessTransport(), clock: ManualClock())
        var removed = 0
        #expect(await offline.adoptVendorSessionIfPresent({ self.credential($0) }, removingVendorCopy: { removed += 1 }) == .offline)
        let empty = await storage.isEmpty
        #expect(removed == 0 && empty)

        let online = AuthClient(provider: DiscoveredProvider(), storage: storage, transport: idp.transport, clock: ManualClock())
        struct Unreadable: Error {}
        let logger = RecordingLogger()
        let logging = AuthClient(provider: DiscoveredProvider(), storage: storage, transport: idp.transport, logger: logger, clock: ManualClock())
        #expect(await logging.adoptVendorSessionIfPresent({ _ in throw Unreadable() }, removingVendorCopy: { removed += 1 }) == .unreadable)
        #expect(removed == 0 && logger.contains("session.adoption_failed") && !logger.contains("vendor-token"))

        #expect(await online.adoptVendorSessionIfPresent({ self.credential($0) }, removingVendorCopy: { removed += 1 }) == .adopted)
        let restored = try await online.restoreSession()
        let token = await restored?.credential.accessToken.reveal()
        #expect(removed == 1 && token == "vendor-token")
        #expect(
            await online.adoptVendorSessionIfPresent({ self.credential($0) }, removingVendorCopy: { removed += 1 }) == .nothingToAdopt,
            "storage already holds this client's session")
        #expect(removed == 1)
    }
}
