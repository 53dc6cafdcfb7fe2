import AuthCore
import AuthTesting
import Foundation
import Testing

@Suite("Provider registry")
struct RegistryTests {
    private var registry: ProviderRegistry {
        var registry = ProviderRegistry()
        registry.register(PlainOIDCProvider.self)
        registry.register(id: "acme", displayName: "Acme") { configuration in
            try PlainOIDCProvider(configuration: configuration)
        }
        return registry
    }

    private let configuration = ProviderConfiguration([
        "issuer": "https://idp.example.test",
        "client_id": "abc",
        "redirect_uri": "com.example.app:/cb"
    ])

    @Test("Required strings are trimmed of any whitespace (ASCII or Unicode) and scopes split on it, as before the byte-level fast paths")
    func trimmingAndWords() throws {
        let configuration = ProviderConfiguration([
            "plain": "client-1", "padded": " \tclient-2\n", "unicode": "\u{00A0}client-3\u{2003}", "blank": " \u{3000} ",
            "scope": "openid  email\tprofile\n", "unicodeScope": "openid\u{2003}email"
        ])
        #expect(try configuration.requiredString("plain") == "client-1")
        #expect(try configuration.requiredString("padded") == "client-2")
        #expect(try configuration.requiredString("unicode") == "client-3")
        #expect(try configuration.requiredString("missing", aliases: ["padded"]) == "client-2")
        #expect(throws: AuthError.self) { try configuration.requiredString("blank") }
        #expect(configuration.scopes("scope") == ["openid", "email", "profile"])
        #expect(configuration.scopes("unicodeScope") == ["openid", "email"])
        #expect(ProviderConfiguration.words("") == [])
    }

    @Test("An unknown id is an error that lists the known ids")
    func unknownProvider() {
        let error = #expect(throws: AuthError.self) {
            try registry.provider(named: "okta", configuration: configuration)
        }
        #expect(error?.code == .unknownProvider)
        #expect(error?.message == "No provider is registered as 'okta'. Known providers: acme, plain.")
    }

    @Test("Providers are selected by case-insensitive name and built from their configuration")
    func selectByName() throws {
        let provider = try registry.provider(named: "PLAIN", configuration: configuration)
        #expect(provider.id == "plain")
        #expect(provider.client.clientID == "abc")
        #expect(registry.providerIDs == ["acme", "plain"])
        #expect(registry.registeredProviders.map(\.displayName) == ["Acme", "plain"])
    }

    @Test("A configuration error names the key and the provider")
    func configurationError() {
        var incomplete = configuration
        incomplete["client_id"] = nil
        let error = #expect(throws: AuthError.self) {
            try registry.provider(named: "plain", configuration: incomplete)
        }
        #expect(error?.code == .missingConfigurationKey)
        #expect(error?.message.contains("'client_id'") == true)
        #expect(error?.providerID == "plain")
    }

    @Test("Configurations load from Foundation dictionaries, JSON and property lists alike")
    func configurationSources() throws {
        let fromDictionary = try ProviderConfiguration(dictionary: [
            "issuer": "https://idp.example.test", "client_id": "abc", "redirect_uri": "com.example.app:/cb",
            "Nested": ["flag": true, "count": 3] as [String: Any]
        ])
        #expect(fromDictionary.string("client_id") == "abc")
        #expect(fromDictionary.section("Nested")?.bool("flag") == true)
        #expect(fromDictionary.section("Nested")?.string("count") == "3")

        let json = Data(#"{"issuer":"https://idp.example.test","client_id":"abc","scope":"openid email"}"#.utf8)
        let fromJSON = try ProviderConfiguration(json: json)
        #expect(fromJSON.scopes("scope") == ["openid", "email"])

        let plist = try PropertyListSerialization.data(
            fromPropertyList: ["client_id": "abc", "AcrValues": ["service": "PASSENGER"]] as [String: Any],
            format: .xml,
            options: 0
        )
        let fromPlist = try ProviderConfiguration(propertyList: plist)
        #expect(fromPlist.string("client_id") == "abc")
        #expect(fromPlist.stringDictionary("AcrValues") == ["service": "PASSENGER"])

        #expect(throws: AuthError.self) { try ProviderConfiguration(json: Data("[1]".utf8)) }
    }
}
