import AuthCore
import AuthTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("No secret in any log")
struct LogCanaryTests {
    @Test(
        "Sign-in, refresh, user info, requests, introspection, revocation and failures log no secret",
        arguments: [nil, "client-secret-canary-7f3a"])
    func noSecretsInLogs(clientSecret: String?) async throws {
        let fixture = Fixture(clientSecret: clientSecret)
        let session = try await fixture.signIn()
        fixture.clock.advance(by: 3600)
        _ = try await session.validAccessToken()
        _ = try await session.userInfo()
        _ = try await session.introspect()
        await fixture.idp.revokeAccessTokens()
        var request = CapturedRequest(url: fixture.idp.endpoint("/api/resource"))
        request.httpMethod = "GET"
        _ = try await session.send(request)
        // Failure paths: a replayed redirect, a rejected refresh, then sign-out with revocation.
        let (_, redirect) = try await fixture.redirect()
        let second = try await fixture.client.completeSignIn(redirect: redirect)
        var errors: [AuthError] = []
        if let replay = await authError({ _ = try await fixture.client.completeSignIn(redirect: redirect) }) { errors.append(replay) }
        await fixture.idp.update { $0.tokenResponseReplacement = (400, Data(#"{"error":"invalid_grant"}"#.utf8), [:]) }
        if let rejected = await authError({ try await second.refresh() }) { errors.append(rejected) }
        await fixture.idp.update { $0.tokenResponseReplacement = nil }
        try await session.signOut()

        let exchanges = await fixture.transport.exchanges
        let verifiers = exchanges.compactMap { $0.formParameters["code_verifier"] }
        let headers = exchanges.compactMap { $0.request.value(forHTTPHeaderField: "Authorization") }
        var secrets = await fixture.idp.issuedSecrets + verifiers + headers
        secrets += headers.map { String($0.drop { $0 != " " }.dropFirst()) }  // the credential part alone
        if let clientSecret { secrets.append(clientSecret) }
        #expect(headers.contains { $0.hasPrefix("Bearer ") })
        #expect(clientSecret == nil || headers.contains { $0.hasPrefix("Basic ") })
        #expect(secrets.count >= 12)
        #expect(errors.count == 2)
        #expect(fixture.logger.records.contains { $0.level == .trace })

        let texts = fixture.logger.lines + errors.flatMap { [$0.description, $0.message, $0.localizedDescription] }
        for secret in secrets {
            #expect(!texts.contains { $0.contains(secret) }, "a log line or error contains a secret")
        }
        let credential = await session.credential
        #expect(!"\(credential)".contains(credential.accessToken.reveal()))
        #expect(!String(reflecting: credential).contains(credential.accessToken.reveal()))
    }

    @Test("Secret never prints its value")
    func secretRedaction() {
        let secret = Secret("canary-value-123")
        // `"\(secret)"` does not compile (Scripts/ci/secret-interpolation-check.sh); every other way to print it is redacted,
        // generic code's interpolation included.
        func interpolated<T>(_ value: T) -> String { "\(value)" }
        #expect(String(describing: secret) == "<redacted>" && secret.description == "<redacted>")
        #expect(interpolated(secret) == "<redacted>" && interpolated(Optional(secret)) == "Optional(Secret(<redacted>))")
        #expect(String(reflecting: secret) == "Secret(<redacted>)")
        var dumped = ""
        dump(secret, to: &dumped)
        #expect(!dumped.contains("canary"))
        #expect(secret.reveal() == "canary-value-123")
    }
}
