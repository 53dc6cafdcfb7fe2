import AuthCore
import AuthOIDC
import AuthTesting
import Foundation
import Testing

@Suite("OpenIDProvider: the registered post-logout redirect URI")
struct OpenIDProviderPostLogoutTests {
    private let base: [String: JSONValue] = [
        "issuer": .string(TestIdentityProvider.defaultIssuer.absoluteString),
        "client_id": .string(TestIdentityProvider.defaultClientID),
        "redirect_uri": .string(TestIdentityProvider.defaultRedirectURI.absoluteString)
    ]

    @Test("post_logout_redirect_uri is read into the registration; absent, it is nil; not a URL, invalid_configuration")
    func postLogoutRedirectURI() throws {
        #expect(try OpenIDProvider(configuration: ProviderConfiguration(base)).client.postLogoutRedirectURI == nil)
        var values = base
        values["post_logout_redirect_uri"] = "https://app.example.com/signed-out"
        let provider = try OpenIDProvider(configuration: ProviderConfiguration(values))
        #expect(provider.client.postLogoutRedirectURI == URL(string: "https://app.example.com/signed-out")!)
        values["post_logout_redirect_uri"] = "not a url"
        let error = #expect(throws: AuthError.self) { try OpenIDProvider(configuration: ProviderConfiguration(values)) }
        #expect(error?.code == .invalidConfiguration)
    }
}
