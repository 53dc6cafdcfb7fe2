import AuthCore
import AuthTesting
import Foundation
import HTTPTypes
import Testing

@testable import AuthWebSignIn

/// OpenID Connect Front-Channel Logout 1.0 through the web module: `iss` and `sid` required and checked, the sessions
/// of that `sid` ended with their credentials, the page §2 describes.
@Suite("web sign-in core: front-channel logout checks iss and sid, ends the session's credentials and answers a framable, uncached page")
struct FrontChannelLogoutTests {
    static func request(_ query: String) -> WebRequest {
        // An iframe of the provider's page: cross-site, so no Lax session cookie comes.
        WebRequest(method: .get, path: "/auth/oidc/frontchannel-logout", query: query, headerFields: [HTTPField.Name("Sec-Fetch-Dest")!: "iframe"])
    }

    @Test("The provider's iss with the session's sid ends that session and its credential; the page is uncached and framable by the provider only")
    func endsSession() async throws {
        let harness = try LogoutProfilesHarness()
        var jar = CookieJar()
        try await harness.signIn("oidc", jar: &jar)
        let sid = try #require(try await harness.record(jar).providerSessionID)
        let issuer = TestIdentityProvider.defaultIssuer.absoluteString
        let query = "iss=\(FormEncoding.encode([("", issuer)]).dropFirst())&sid=\(sid)"
        let response = try await harness.core.frontChannelLogout(provider: "oidc", request: Self.request(query))
        #expect(response.status == .ok)
        #expect(response.headerFields[.cacheControl] == "no-cache, no-store")
        #expect(response.headerFields[HTTPField.Name("Pragma")!] == "no-cache")
        let policy = try #require(response.headerFields[.contentSecurityPolicy])
        let origin = "\(TestIdentityProvider.defaultIssuer.scheme!)://\(TestIdentityProvider.defaultIssuer.host!)"
        #expect(policy.contains("frame-ancestors \(origin)"), "the provider may frame it: \(policy)")
        #expect(!policy.contains("frame-ancestors 'none'"))
        #expect(response.headerFields[HTTPField.Name("X-Frame-Options")!] == nil)
        #expect(await harness.store.sessionCount == 0)
        #expect(try await harness.store.tokenStorage.storedKeys().isEmpty, "the credential ended with the session")
        #expect(try await harness.core.signedInUser(for: WebRequest(method: .get, path: "/", headerFields: jar.header)) == nil)
    }

    @Test(
        "A foreign iss is refused (front_channel_issuer_mismatch), a missing iss or sid too (front_channel_session_required); nothing ends",
        arguments: [
            ("iss=https%3A%2F%2Fevil.example&sid=SID", "front_channel_issuer_mismatch"),
            ("iss=https%3A%2F%2Fidp.example.test%2Fother&sid=SID", "front_channel_issuer_mismatch"),
            ("sid=SID", "front_channel_session_required"),
            ("iss=ISS", "front_channel_session_required"),
            ("", "front_channel_session_required")
        ])
    func refused(_ template: String, code: String) async throws {
        let harness = try LogoutProfilesHarness()
        var jar = CookieJar()
        try await harness.signIn("oidc", jar: &jar)
        let sid = try #require(try await harness.record(jar).providerSessionID)
        let issuer = String(FormEncoding.encode([("", TestIdentityProvider.defaultIssuer.absoluteString)]).dropFirst())
        let query = template.replacingOccurrences(of: "SID", with: sid).replacingOccurrences(of: "ISS", with: issuer)
        let response = try await harness.core.frontChannelLogout(provider: "oidc", request: Self.request(query))
        #expect(response.status == .badRequest)
        #expect(LogoutProfilesHarness.code(response) == code)
        #expect(await harness.store.sessionCount == 1, "nothing ended")
        #expect(try await harness.store.tokenStorage.storedKeys().count == 1)
        #expect(try await harness.core.signedInUser(for: WebRequest(method: .get, path: "/", headerFields: jar.header)) != nil)
    }

    @Test("Another sid ends nothing (200: the provider cannot know who holds one); a POST is 405")
    func otherSid() async throws {
        let harness = try LogoutProfilesHarness()
        var jar = CookieJar()
        try await harness.signIn("oidc", jar: &jar)
        let issuer = String(FormEncoding.encode([("", TestIdentityProvider.defaultIssuer.absoluteString)]).dropFirst())
        let response = try await harness.core.frontChannelLogout(provider: "oidc", request: Self.request("iss=\(issuer)&sid=someone-else"))
        #expect(response.status == .ok)
        #expect(await harness.store.sessionCount == 1)
        let post = try await harness.core.frontChannelLogout(
            provider: "oidc", request: WebRequest(method: .post, path: "/auth/oidc/frontchannel-logout", query: "iss=\(issuer)&sid=x"))
        #expect(post.status == .methodNotAllowed)
    }
}
