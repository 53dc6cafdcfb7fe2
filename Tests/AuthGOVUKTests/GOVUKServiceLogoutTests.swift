import AuthCore
import AuthEmulators
import AuthGOVUK
import AuthProviders
import AuthTesting
import Foundation
import Testing

/// The service configuration's `post_logout_redirect_uri` reaches the client registration sign-out reads.
@Suite("GOV.UK One Login for services: the post-logout redirect URI is wired through")
struct GOVUKServiceLogoutTests {
    @Test("post_logout_redirect_uri of the service configuration is the registration's postLogoutRedirectURI, with either client authentication")
    func wired() throws {
        var values = ProviderEmulator.govUKService().configuration.values
        let withKey = try ProviderRegistry.builtIn.provider(named: "govuk", configuration: ProviderConfiguration(values))
        #expect(withKey.client.postLogoutRedirectURI == TestIdentityProvider.govUKServicePostLogoutRedirectURI)
        values["private_key"] = nil
        values["private_key_alg"] = nil
        values["client_secret"] = "secret"
        values["vtr"] = ["Cl.Cm"]
        values["claims"] = nil
        let withSecret = try ProviderRegistry.builtIn.provider(named: "govuk", configuration: ProviderConfiguration(values))
        #expect(withSecret.client.postLogoutRedirectURI == TestIdentityProvider.govUKServicePostLogoutRedirectURI)
        values["post_logout_redirect_uri"] = nil
        let without = try ProviderRegistry.builtIn.provider(named: "govuk", configuration: ProviderConfiguration(values))
        #expect(without.client.postLogoutRedirectURI == nil)
    }

    @Test("A post_logout_redirect_uri that is not a URL is refused at configuration: invalid_configuration naming the key")
    func invalid() throws {
        var values = ProviderEmulator.govUKService().configuration.values
        values["post_logout_redirect_uri"] = "not a url"
        #expect {
            _ = try ProviderRegistry.builtIn.provider(named: "govuk", configuration: ProviderConfiguration(values))
        } throws: { error in
            (error as? AuthError)?.message.contains("post_logout_redirect_uri") == true
        }
    }

    @Test("Every client of the emulator has the web samples' loopback post-logout routes registered, beside the service's own")
    func registration() {
        for client in TestIdentityProvider.govUKService().configuration.clients {
            #expect(client.postLogoutRedirectURIs.contains(TestIdentityProvider.govUKServicePostLogoutRedirectURI))
            #expect(client.postLogoutRedirectURIs.contains(URL(string: "http://127.0.0.1/auth/govuk/signed-out")!))
        }
    }
}
