import AuthCore
import AuthTesting
import Foundation
import Testing

@Suite("ProviderBehavior: a provider states only its quirks")
struct ProviderBehaviorTests {
    /// A provider written without any quirk: it must get standard OAuth 2.0 / OpenID Connect behaviour.
    private struct PlainProvider: AuthProvider {
        static let id: ProviderID = "plain"
        init(configuration: ProviderConfiguration) throws {}
        init() {}
        var client: ClientRegistration {
            ClientRegistration(clientID: TestIdentityProvider.defaultClientID, redirectURI: TestIdentityProvider.defaultRedirectURI)
        }
        var endpointSource: EndpointSource { .discovery(issuer: TestIdentityProvider.defaultIssuer) }
    }

    /// The same provider, tolerating a token response without `token_type`.
    private struct LenientProvider: AuthProvider {
        static let id: ProviderID = "lenient"
        init(configuration: ProviderConfiguration) throws {}
        init() {}
        var client: ClientRegistration { PlainProvider().client }
        var endpointSource: EndpointSource { PlainProvider().endpointSource }
        var behavior: ProviderBehavior { ProviderBehavior(tokenTypeWhenAbsent: "Bearer") }
    }

    @Test("The default is the standard: no retries, state and token_type required, plain requests, shared cookies")
    func standardDefaults() {
        let behavior = PlainProvider().behavior
        #expect(behavior == .standard)
        #expect(behavior.tokenRequestRetries == 0 && !behavior.acceptsResponsesWithoutState && behavior.tokenTypeWhenAbsent == nil)
        #expect(!behavior.usesSignedRequestObject && !behavior.prefersEphemeralWebSession)
    }

    @Test("The engine reads the behaviour: a token response without token_type fails for the standard, passes for the lenient")
    func engineReadsBehavior() async throws {
        for (provider, passes) in [(PlainProvider() as any AuthProvider, false), (LenientProvider(), true)] {
            let idp = TestIdentityProvider()
            await idp.update { $0.tokenResponseRemovals = ["token_type"] }
            let storage = InMemoryTokenStorage()
            let client = AuthClient(provider: provider, storage: storage, transport: idp.transport, clock: idp.clock)
            do {
                let session = try await client.signIn(with: HeadlessUserAgent(transport: idp.transport))
                #expect(passes, "\(provider.id) accepted a token response without token_type")
                #expect(await session.credential.tokenType == "Bearer")
            } catch let error as AuthError {
                #expect(!passes, "\(provider.id): \(error)")
                #expect(error.code == .invalidResponse)
                #expect(await storage.isEmpty)
            }
        }
    }
}
