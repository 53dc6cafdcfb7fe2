import AuthConfigCheck
import AuthCore
import Foundation
import Testing

@Suite("check-auth-config rules")
struct AuthConfigCheckerTests {
    private func fixture(_ name: String) throws -> (String, ProviderConfiguration) {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil))
        return (name, try ProviderConfiguration(contentsOf: url))
    }

    private func check(plist: String? = nil, _ configs: [(ProviderID, String)] = []) throws -> [ConfigFinding] {
        let info = try plist.map(fixture)
        let files = try configs.map { id, name -> AuthConfigChecker.ConfigurationFile in
            let (file, values) = try fixture(name)
            return .init(providerID: id, file: file, values: values)
        }
        return AuthConfigChecker().check(infoPlist: info.map { (file: $0.0, values: $0.1) }, configurations: files)
    }

    private func errors(_ findings: [ConfigFinding]) -> [ConfigFinding] { findings.filter { $0.severity == .error } }

    @Test("Valid fixtures pass with no finding")
    func validFixtures() throws {
        #expect(try check(plist: "valid-Info.plist", [("govuk", "govuk-valid.json"), ("onelogin", "OL-Oidc.plist")]).isEmpty)
    }

    @Test("Each invalid fixture fails with its own message")
    func invalidFixtures() throws {
        let cases: [(String?, [(ProviderID, String)], String, String)] = [
            ("grab-missing-scope-Info.plist", [], "Scope", "'Scope' is missing"),
            ("unregistered-scheme-Info.plist", [], "CFBundleURLTypes", "'com.example.partner' (grab) is not registered"),
            // The same plist's Uber section redirects to the same unregistered scheme (UberAuth README: register it).
            ("unregistered-scheme-Info.plist", [], "CFBundleURLTypes", "'com.example.partner' (uber) is not registered"),
            ("uber-secret-Info.plist", [], "ClientSecret", "never ship a client secret"),
            ("valid-Info.plist", [("govuk", "govuk-custom-scheme.json")], "redirectURI", "claimed https universal link"),
            ("valid-Info.plist", [("onelogin", "onelogin-no-openid.plist")], "scopes", "must contain openid"),
            ("valid-Info.plist", [("oidc", "oidc-secret.json")], "client_secret", "never ship a client secret"),
            (nil, [("oidc", "oidc-http-redirect.json")], "redirect", "plain http on a non-loopback host")
        ]
        for (plist, configs, key, fragment) in cases {
            let found = errors(try check(plist: plist, configs))
            #expect(found.contains { $0.key == key && $0.message.contains(fragment) }, "\(plist ?? "-") \(configs): \(found)")
        }
    }

    @Test("Risky but legal settings are warnings, not errors")
    func warnings() throws {
        let cases: [(String?, [(ProviderID, String)], String)] = [
            ("missing-query-schemes-Info.plist", [], "add grab and grabconnect"),
            // GrabIdPartnerSDK's README lists `grab` beside `grabconnect` in LSApplicationQueriesSchemes.
            ("grab-scheme-missing-Info.plist", [], "add grab,"),
            ("missing-query-schemes-Info.plist", [], "uberauth, ubereats, uberdriver"),
            ("valid-Info.plist", [("govuk", "govuk-shared-cookies.json")], "ephemeral"),
            ("valid-Info.plist", [("schibsted", "schibsted-pre.json")], "pre-production")
        ]
        for (plist, configs, fragment) in cases {
            let findings = try check(plist: plist, configs)
            #expect(errors(findings).isEmpty, "\(findings)")
            #expect(findings.contains { $0.severity == .warning && $0.message.contains(fragment) }, "\(findings)")
        }
    }

    @Test("Findings print as file: severity: key: message")
    func format() {
        let finding = ConfigFinding(severity: .error, file: "Info.plist", key: "Scope", message: "missing")
        #expect(finding.description == "Info.plist: error: Scope: missing")
    }
}
