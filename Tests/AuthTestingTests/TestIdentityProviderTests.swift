import AuthCore
import AuthTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The identity provider is strict like a real server: these prove it rejects what a real one rejects,
/// so engine tests that pass against it mean something.
@Suite("TestIdentityProvider strictness")
struct TestIdentityProviderTests {
    private func authorize(_ idp: TestIdentityProvider, _ query: [(String, String)]) async -> HTTPResponse {
        var request = CapturedRequest(url: idp.endpoint("/authorize").appendingQuery(query))
        request.httpMethod = "GET"
        return await idp.handle(request).1
    }

    private func token(_ idp: TestIdentityProvider, _ form: [(String, String)]) async -> (JSONValue?, Int) {
        var request = CapturedRequest(url: idp.endpoint("/token"))
        request.httpMethod = "POST"
        request.httpBody = Data(FormEncoding.encode(form).utf8)
        let (data, response) = await idp.handle(request)
        return (try? JSONDecoder().decode(JSONValue.self, from: data), response.statusCode)
    }

    private let redirect = TestIdentityProvider.defaultRedirectURI.absoluteString

    @Test("Unregistered redirect URIs get an error page, never a redirect")
    func unregisteredRedirect() async {
        let idp = TestIdentityProvider()
        let response = await authorize(idp, [("client_id", "test-client"), ("redirect_uri", "https://attacker.example/cb"), ("response_type", "code")])
        #expect(response.statusCode == 400)
        #expect(response.value(forHTTPHeaderField: "Location") == nil)
    }

    @Test("PKCE is mandatory and verified; a code works once")
    func pkceAndCodeReuse() async throws {
        let idp = TestIdentityProvider()
        let noPKCE = await authorize(idp, [("client_id", "test-client"), ("redirect_uri", redirect), ("response_type", "code"), ("state", "s")])
        #expect(noPKCE.value(forHTTPHeaderField: "Location")?.contains("error=invalid_request") == true)

        let pkce = PKCE.generate()
        let ok = await authorize(
            idp,
            [
                ("client_id", "test-client"), ("redirect_uri", redirect), ("response_type", "code"), ("state", "s"),
                ("scope", "openid"), ("code_challenge", pkce.challenge), ("code_challenge_method", "S256")
            ])
        let location = try #require(ok.value(forHTTPHeaderField: "Location"))
        let code = try #require(URLComponents(string: location)?.queryItems?.first { $0.name == "code" }?.value)

        let wrongVerifier = await token(
            idp,
            [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirect), ("client_id", "test-client"), ("code_verifier", PKCE.generate().verifier.reveal())])
        #expect(wrongVerifier.1 == 400)
        #expect(wrongVerifier.0?["error"] == "invalid_grant")
        // The failed attempt consumed the code: a real server must not allow guessing.
        let retry = await token(
            idp, [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirect), ("client_id", "test-client"), ("code_verifier", pkce.verifier.reveal())])
        #expect(retry.0?["error"] == "invalid_grant")
    }

    @Test("Refresh tokens rotate; reusing one revokes the family")
    func refreshRotationAndReuse() async throws {
        let idp = TestIdentityProvider()
        let pkce = PKCE.generate()
        let response = await authorize(
            idp,
            [
                ("client_id", "test-client"), ("redirect_uri", redirect), ("response_type", "code"), ("state", "s"),
                ("scope", "openid offline_access"), ("code_challenge", pkce.challenge), ("code_challenge_method", "S256")
            ])
        let code = try #require(URLComponents(string: response.value(forHTTPHeaderField: "Location") ?? "")?.queryItems?.first { $0.name == "code" }?.value)
        let (tokens, status) = await token(
            idp, [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirect), ("client_id", "test-client"), ("code_verifier", pkce.verifier.reveal())])
        #expect(status == 200)
        let first = try #require(tokens?["refresh_token"]?.stringValue)

        let (rotated, _) = await token(idp, [("grant_type", "refresh_token"), ("refresh_token", first), ("client_id", "test-client")])
        let second = try #require(rotated?["refresh_token"]?.stringValue)
        #expect(second != first)

        let (reuse, reuseStatus) = await token(idp, [("grant_type", "refresh_token"), ("refresh_token", first), ("client_id", "test-client")])
        #expect(reuseStatus == 400)
        #expect(reuse?["error"] == "invalid_grant")
        #expect(await idp.refreshTokenReuseDetected)
        // The whole family is revoked, including the newest token.
        let (afterReuse, _) = await token(idp, [("grant_type", "refresh_token"), ("refresh_token", second), ("client_id", "test-client")])
        #expect(afterReuse?["error"] == "invalid_grant")
    }

    @Test("The recording transport records requests and statuses")
    func recordingTransport() async throws {
        let idp = TestIdentityProvider()
        let recorder = RecordingTransport(idp.transport)
        var request = CapturedRequest(url: idp.endpoint("/jwks"))
        request.httpMethod = "GET"
        _ = try await recorder.send(request)
        _ = try? await recorder.send(CapturedRequest(url: URL(string: "https://unknown.example/")!))
        let exchanges = await recorder.exchanges
        #expect(exchanges.map(\.status) == [200, nil])
    }
}
