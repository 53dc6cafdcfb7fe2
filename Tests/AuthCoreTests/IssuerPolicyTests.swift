import AuthCore
import Foundation
import Testing

@Suite("ID token policy: alternative issuers and issuer templates")
struct IssuerPolicyTests {
    private let template = IssuerTemplate("https://login.example.com/{tenantid}/v2.0", placeholder: "{tenantid}", claim: "tid")

    @Test("The standard policy accepts only the issuer itself: no alternative, no template")
    func standardUnchanged() {
        let policy = IDTokenPolicy.standard
        #expect(policy.alternativeIssuers.isEmpty && policy.issuerTemplate == nil)
        #expect(policy.issuerMatches("https://idp.example", expected: "https://idp.example"))
        #expect(!policy.issuerMatches("idp.example", expected: "https://idp.example"))
        #expect(!policy.discoveryIssuerMatches("https://idp.example/{tenantid}", expected: "https://idp.example"))
        #expect(policy.tokenIssuerMatches("https://idp.example", expected: "https://idp.example") { _ in "x" })
        #expect(!policy.tokenIssuerMatches("https://other.example", expected: "https://idp.example") { _ in "x" })
    }

    @Test("alternativeIssuers adds exactly the spellings listed")
    func alternatives() {
        let policy = IDTokenPolicy(alternativeIssuers: ["accounts.example.com"])
        #expect(policy.issuerMatches("accounts.example.com", expected: "https://accounts.example.com"))
        #expect(policy.issuerMatches("https://accounts.example.com", expected: "https://accounts.example.com"))
        #expect(!policy.issuerMatches("http://accounts.example.com", expected: "https://accounts.example.com"))
        #expect(!policy.issuerMatches("accounts.example.com.evil", expected: "https://accounts.example.com"))
    }

    @Test("A template: discovery accepts it as-is or filled with one segment; a token's iss must be it filled with the token's own claim")
    func templateRules() {
        let policy = IDTokenPolicy(issuerTemplate: template)
        let configured = "https://login.example.com/common/v2.0"
        #expect(policy.discoveryIssuerMatches(template.template, expected: configured))
        #expect(policy.discoveryIssuerMatches("https://login.example.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0", expected: configured))
        #expect(policy.discoveryIssuerMatches(configured, expected: configured))
        #expect(!policy.discoveryIssuerMatches("https://login.example.com/a/b/v2.0", expected: configured))
        #expect(!policy.discoveryIssuerMatches("https://evil.example/{tenantid}/v2.0", expected: configured))

        let tid = "72f988bf-86f1-41af-91ab-2d7cd011db47"
        let claims: (String) -> String? = { $0 == "tid" ? tid : nil }
        #expect(policy.tokenIssuerMatches("https://login.example.com/\(tid)/v2.0", expected: configured, claim: claims))
        #expect(!policy.tokenIssuerMatches("https://login.example.com/other/v2.0", expected: configured, claim: claims))
        #expect(!policy.tokenIssuerMatches(configured, expected: configured, claim: claims))
        #expect(!policy.tokenIssuerMatches(template.template, expected: configured, claim: claims))
        #expect(!policy.tokenIssuerMatches("https://login.example.com/\(tid)/v2.0", expected: configured) { _ in nil })
    }

    @Test("A claim value that is not one plain path segment fills nothing", arguments: ["", "a/b", "..", "a?b", "a#b", "a%2Fb", "{tenantid}", "a b", "é"])
    func unsafeValues(value: String) {
        #expect(template.issuer(for: value) == nil)
        let policy = IDTokenPolicy(issuerTemplate: template)
        #expect(!policy.tokenIssuerMatches("https://login.example.com/\(value)/v2.0", expected: "x") { _ in value })
    }
}
