import AuthCore
import AuthTesting
import Foundation
import HTTPTypes
import Testing

@testable import AuthWebSignIn

/// OpenID Connect Core 1.0 §4, third-party-initiated login through the web module: `iss` must be the provider's,
/// `login_hint` goes on, `target_link_uri` only on the app's own origin.
@Suite("web sign-in core: third-party-initiated login checks iss and keeps target_link_uri on the app's origin")
struct ThirdPartyLoginTests {
    static let issuer = String(FormEncoding.encode([("", TestIdentityProvider.defaultIssuer.absoluteString)]).dropFirst())

    static func initiate(_ query: String) -> WebRequest {
        WebRequest(method: .get, path: "/auth/oidc/initiate-login", query: query, headerFields: [HTTPField.Name("Sec-Fetch-Dest")!: "document"])
    }

    @Test("iss, login_hint and an on-origin target_link_uri: a normal sign-in with the hint, landing on the target's path and query")
    func signsIn() async throws {
        let harness = try LogoutProfilesHarness()
        let target = String(FormEncoding.encode([("", "https://app.example.test/orders/42?tab=open")]).dropFirst())
        let started = await harness.core.initiateLogin(provider: "oidc", request: Self.initiate("iss=\(Self.issuer)&login_hint=alice%40example.com&target_link_uri=\(target)"))
        #expect(started.status == .found)
        let query = LogoutProfilesHarness.query(try #require(started.headerFields[.location]))
        #expect(query["login_hint"] == "alice@example.com")
        #expect(query["redirect_uri"] == "https://app.example.test/auth/oidc/callback")
        #expect(query["code_challenge"] != nil && query["state"] != nil && query["nonce"] != nil, "a normal sign-in")
        var jar = CookieJar()
        let done = try await harness.complete(started, provider: "oidc", jar: &jar)
        #expect(done.status == .seeOther)
        #expect(done.headerFields[.location] == "/orders/42?tab=open")
        #expect(await harness.store.sessionCount == 1)
    }

    @Test("Without target_link_uri the browser lands on afterSignIn; a POST form works alike")
    func defaults() async throws {
        let harness = try LogoutProfilesHarness()
        var jar = CookieJar()
        let started = await harness.core.initiateLogin(
            provider: "oidc",
            request: WebRequest(
                method: .post, path: "/auth/oidc/initiate-login", headerFields: [.contentType: "application/x-www-form-urlencoded"],
                body: Data("iss=\(Self.issuer)".utf8)))
        #expect(started.status == .found)
        let done = try await harness.complete(started, provider: "oidc", jar: &jar)
        #expect(done.headerFields[.location] == "/")
    }

    @Test(
        "A target_link_uri off the app's origin is refused (target_link_off_site), nothing started, no cookie",
        arguments: [
            "https://evil.example/phish", "http://app.example.test/", "https://app.example.test:8443/", "https://app.example.test.evil.example/",
            "https://app.example.test@evil.example/", "https://app.example.test//evil.example/x", "//evil.example/", "/relative",
            "javascript:alert(1)", "https://app.example.test\\@evil.example/", "https://evil.example/https://app.example.test/"
        ])
    func offSite(_ target: String) async throws {
        let harness = try LogoutProfilesHarness()
        let encoded = String(FormEncoding.encode([("", target)]).dropFirst())
        let response = await harness.core.initiateLogin(provider: "oidc", request: Self.initiate("iss=\(Self.issuer)&target_link_uri=\(encoded)"))
        #expect(response.status == .badRequest)
        #expect(LogoutProfilesHarness.code(response) == "target_link_off_site")
        #expect(response.headerFields[values: .setCookie].isEmpty, "no sign-in started")
        #expect(response.headerFields[.location] == nil)
    }

    @Test("A foreign or missing iss is refused (initiate_login_issuer_mismatch), nothing started", arguments: ["iss=https%3A%2F%2Fevil.example", ""])
    func foreignIssuer(_ query: String) async throws {
        let harness = try LogoutProfilesHarness()
        let response = await harness.core.initiateLogin(provider: "oidc", request: Self.initiate(query + "&target_link_uri=https%3A%2F%2Fapp.example.test%2F"))
        #expect(response.status == .badRequest)
        #expect(LogoutProfilesHarness.code(response) == "initiate_login_issuer_mismatch")
        #expect(response.headerFields[values: .setCookie].isEmpty)
    }

    @Test("From an embedded resource (an <img> of another site) it is cross_site_request, nothing started")
    func embedded() async throws {
        let harness = try LogoutProfilesHarness()
        let response = await harness.core.initiateLogin(
            provider: "oidc",
            request: WebRequest(
                method: .get, path: "/auth/oidc/initiate-login", query: "iss=\(Self.issuer)", headerFields: [HTTPField.Name("Sec-Fetch-Dest")!: "image"]))
        #expect(response.status == .forbidden)
        #expect(LogoutProfilesHarness.code(response) == "cross_site_request")
        #expect(response.headerFields[values: .setCookie].isEmpty)
    }
}
