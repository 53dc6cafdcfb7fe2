import AuthCore
import AuthTesting
import Foundation
import Testing

@Suite("No secret in any log")
struct LogCanaryTests {
    @Test("Logs of a sign-in, a refresh and failures contain no issued token, code or verifier")
    func noSecretsInLogs() async throws {
        let fixture = Fixture()
        let session = try await fixture.signIn()
        fixture.clock.advance(by: 3600)
        _ = try await session.validAccessToken()
        // A failure path too: a replayed redirect and a token error.
        let (_, redirect) = try await fixture.redirect()
        _ = try await fixture.client.completeSignIn(redirect: redirect)
        _ = await authError { _ = try await fixture.client.completeSignIn(redirect: redirect) }

        let verifiers = await fixture.transport.exchanges(pathSuffix: "/token").compactMap { $0.formParameters["code_verifier"] }
        let secrets = await fixture.idp.issuedSecrets + verifiers
        #expect(secrets.count >= 8)
        #expect(fixture.logger.records.count >= 10)
        // Trace level captured everything the engine said.
        #expect(fixture.logger.records.contains { $0.level == .trace })
        for secret in secrets {
            #expect(!fixture.logger.contains(secret), "a log line contains an issued secret")
        }
        let credential = await session.credential
        #expect("\(credential)".contains(credential.accessToken.reveal()) == false)
        #expect(String(reflecting: credential).contains(credential.accessToken.reveal()) == false)
    }

    @Test("Secret never prints its value")
    func secretRedaction() {
        let secret = Secret("canary-value-123")
        #expect("\(secret)" == "<redacted>")
        #expect(String(reflecting: secret) == "Secret(<redacted>)")
        var dumped = ""
        dump(secret, to: &dumped)
        #expect(!dumped.contains("canary"))
        #expect(secret.reveal() == "canary-value-123")
    }
}
