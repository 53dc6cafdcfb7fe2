import AuthCore
import AuthTesting
import Foundation
import Testing

@Suite("Hostile identity provider scenarios")
struct HostileScenarioTests {
    @Test(
        "Each scenario ends in its own outcome, stores nothing when rejected, and leaks no secret",
        arguments: HostileScenario.all)
    func scenario(_ scenario: HostileScenario) async throws {
        let outcome = try await scenario.run { idp in
            var client = ClientRegistration(
                clientID: TestIdentityProvider.defaultClientID,
                redirectURI: TestIdentityProvider.defaultRedirectURI,
                scopes: ["openid", "email", "offline_access"]
            )
            if let encryption = scenario.registeredEncryption {
                client.idTokenEncryption = encryption
                client.decryptionKeys = [TestJWE.clientRSAKey, TestJWE.clientP256Key]
            }
            return PlainOIDCProvider(issuer: idp.configuration.issuer, client: client)
        }
        switch scenario.expectation {
        case .rejected(let code):
            #expect(outcome.error?.code == code, "\(scenario.id): got \(String(describing: outcome.error))")
            #expect(outcome.storedCredentials == 0)
            #expect(outcome.userInfoRequests == 0)
            if [.discovery, .pushedAuthorizationRequest, .authorizationResponse].contains(scenario.stage) {
                #expect(outcome.tokenRequests == 0, "no token request may follow a rejected \(scenario.stage.rawValue)")
            }
        case .accepted:
            #expect(outcome.error == nil, "\(scenario.id): \(String(describing: outcome.error))")
            #expect(outcome.storedCredentials == 1)
        }
        #expect(outcome.satisfies(scenario))
        #expect(outcome.leakedSecrets.isEmpty, "secrets in logs or errors: \(outcome.leakedSecrets.count)")
        #expect(outcome.logLines.contains { $0.hasPrefix("trace") }, "the log was captured at trace level")
    }

    @Test("Scenario ids are unique")
    func uniqueIDs() {
        #expect(Set(HostileScenario.all.map(\.id)).count == HostileScenario.all.count)
    }

    @Test("SECURITY.md lists every scenario and every regression test by id")
    func securityDocumentMatches() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let document = try String(contentsOf: root.appendingPathComponent("SECURITY.md"), encoding: .utf8)
        for scenario in HostileScenario.all {
            #expect(document.contains("`\(scenario.id)`"), "SECURITY.md does not list \(scenario.id)")
        }
        for id in SecurityRegressionTests.documentedIDs + HostileInputTests.documentedIDs {
            #expect(document.contains("`\(id)`"), "SECURITY.md does not list \(id)")
        }
    }
}
