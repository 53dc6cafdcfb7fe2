import AuthCore
import AuthOIDC
import AuthTesting
import Foundation
import Testing

@Suite("OpenIDProvider: the registered ID token signing algorithm (id_token_signed_response_alg)")
struct OpenIDProviderSigningAlgorithmTests {
    private let base: [String: JSONValue] = [
        "issuer": .string(TestIdentityProvider.defaultIssuer.absoluteString),
        "client_id": .string(TestIdentityProvider.defaultClientID),
        "redirect_uri": .string(TestIdentityProvider.defaultRedirectURI.absoluteString)
    ]

    @Test("Absent, RS256 and ES256 are accepted; named, only it; none or an HMAC algorithm is invalid_configuration")
    func configuration() throws {
        #expect(try OpenIDProvider(configuration: ProviderConfiguration(base)).idTokenPolicy.allowedAlgorithms == [.rs256, .es256])
        var values = base
        values["id_token_signed_response_alg"] = "PS256"
        #expect(try OpenIDProvider(configuration: ProviderConfiguration(values)).idTokenPolicy.allowedAlgorithms == [.ps256])
        for refused in ["none", "HS256", "RS1"] {
            values["id_token_signed_response_alg"] = .string(refused)
            let error = #expect(throws: AuthError.self, "\(refused)") { try OpenIDProvider(configuration: ProviderConfiguration(values)) }
            #expect(error?.code == .invalidConfiguration, "\(refused)")
            #expect(error?.configurationKey == "id_token_signed_response_alg", "\(refused)")
        }
    }

    @Test("A logout token signed with another algorithm than the registered one is unsupported_algorithm; with it, taken")
    func logoutTokenAlgorithm() async throws {
        // The provider signs with ES256 (rp-backchannel-rpinitlogout-lt-wrong-alg: a logout token in another
        // algorithm than the client's ID tokens).
        var configuration = TestIdentityProvider.Configuration()
        configuration.signingAlgorithm = .es256
        let idp = TestIdentityProvider(configuration: configuration, clock: ManualClock())
        for (registered, taken) in [("RS256", false), ("ES256", true)] {
            var values = base
            values["id_token_signed_response_alg"] = .string(registered)
            let storage = InMemoryTokenStorage()
            let client = AuthClient(
                provider: try OpenIDProvider(configuration: ProviderConfiguration(values)), storage: storage, transport: idp.transport, clock: idp.clock)
            let token = await idp.logoutToken(subject: "user-1234")
            if taken {
                #expect(try await client.handleBackChannelLogout(token).subject == "user-1234")
            } else {
                let error = await #expect(throws: AuthError.self) { try await client.handleBackChannelLogout(token) }
                #expect(error?.code == .unsupportedAlgorithm)
                #expect(error?.message.contains("ES256") == true)
            }
        }
    }
}
