import AuthCore
import AuthTesting
import Foundation
import HTTPTypes
import Testing

@testable import AuthWebSignIn

/// OpenID Connect RP-Initiated Logout 1.0 through the web module: the session's own `id_token_hint`, the app's
/// post-logout route and a fresh `state`, checked once on the way back.
@Suite("web sign-in core: RP-initiated logout sends id_token_hint, post_logout_redirect_uri and state, and checks the state once")
struct RPInitiatedLogoutTests {
    static let signOutCookie = WebSignInConfiguration.signOutCookieName

    @Test("Sign-out sends the session's own ID token, the app's post-logout route and a fresh state; the provider's return lands there and completes once")
    func roundTrip() async throws {
        let harness = try LogoutProfilesHarness()
        var jar = CookieJar()
        try await harness.signIn("oidc", jar: &jar)
        let account = try await harness.record(jar).account
        let idToken = try #require(try await harness.store.tokenStorage.credential(for: account)?.idToken?.reveal())
        let logout = try await harness.logout(&jar)
        #expect(logout.status == .seeOther)
        let location = try #require(logout.headerFields[.location])
        let query = LogoutProfilesHarness.query(location)
        #expect(location.hasPrefix(TestIdentityProvider.defaultIssuer.absoluteString))
        #expect(query["id_token_hint"] == idToken, "the session's own ID token")
        #expect(query["client_id"] == TestIdentityProvider.defaultClientID)
        #expect(query["post_logout_redirect_uri"] == "https://app.example.test/auth/oidc/signed-out", "the app's route, not the configured value")
        let state = try #require(query["state"])
        #expect(state.count >= 32)
        #expect(jar.values[Self.signOutCookie] != nil, "the state is sealed into the browser's sign-out cookie")
        #expect(try await harness.store.tokenStorage.storedKeys().isEmpty, "the credential went with the session")

        // The provider (RP-Initiated Logout §3) redirects to the registered URI with the state.
        let (_, answer) = try await harness.idp.transport.send(HTTPRequest(method: .get, url: URL(string: location)!), body: nil)
        let back = try #require(answer.headerFields[.location])
        #expect(back == "https://app.example.test/auth/oidc/signed-out?state=\(state)")
        let returned = WebRequest(method: .get, path: "/auth/oidc/signed-out", query: "state=\(state)", headerFields: jar.header)
        let done = try await harness.core.signedOut(provider: "oidc", request: returned)
        #expect(done.status == .seeOther)
        #expect(done.headerFields[.location] == "/goodbye")
        #expect(done.setCookie(Self.signOutCookie)?.contains("Max-Age=0") == true, "the sign-out cookie is cleared")

        // Replayed, with the cookie the browser had before: refused, once means once.
        let replay = try await harness.core.signedOut(provider: "oidc", request: returned)
        #expect(replay.status == .badRequest)
        #expect(LogoutProfilesHarness.code(replay) == "sign_out_state_mismatch")
        #expect(replay.headerFields[values: .setCookie].isEmpty)
    }

    @Test("A return with a foreign state is refused (sign_out_state_mismatch) and changes nothing: the browser's own return still completes")
    func foreignState() async throws {
        let harness = try LogoutProfilesHarness()
        var jar = CookieJar()
        try await harness.signIn("oidc", jar: &jar)
        let logout = try await harness.logout(&jar)
        let location = try #require(logout.headerFields[.location])
        let state = try #require(LogoutProfilesHarness.query(location)["state"])
        // Another browser signs in: a foreign return must not touch its session either.
        var other = CookieJar()
        try await harness.signIn("oidc", jar: &other)
        for forged in ["state=" + String(repeating: "A", count: state.count), "state=", "", "state=\(state)&state=x"] {
            let refused = try await harness.core.signedOut(
                provider: "oidc", request: WebRequest(method: .get, path: "/auth/oidc/signed-out", query: forged, headerFields: jar.header))
            #expect(refused.status == .badRequest)
            #expect(LogoutProfilesHarness.code(refused) == "sign_out_state_mismatch", "\(forged)")
            #expect(refused.headerFields[values: .setCookie].isEmpty, "the sign-out cookie stays for the real return")
        }
        // The right state from another provider's route, or without the cookie (another browser), is refused too.
        let wrongRoute = try await harness.core.signedOut(
            provider: "plain", request: WebRequest(method: .get, path: "/auth/plain/signed-out", query: "state=\(state)", headerFields: jar.header))
        #expect(LogoutProfilesHarness.code(wrongRoute) == "sign_out_state_mismatch")
        let noCookie = try await harness.core.signedOut(
            provider: "oidc", request: WebRequest(method: .get, path: "/auth/oidc/signed-out", query: "state=\(state)", headerFields: other.header))
        #expect(LogoutProfilesHarness.code(noCookie) == "sign_out_state_mismatch")
        #expect(await harness.store.sessionCount == 1, "the other browser's session is untouched")
        #expect(try await harness.store.tokenStorage.storedKeys().count == 1)
        let done = try await harness.core.signedOut(
            provider: "oidc", request: WebRequest(method: .get, path: "/auth/oidc/signed-out", query: "state=\(state)", headerFields: jar.header))
        #expect(done.status == .seeOther)
    }

    @Test("An expired sign-out's return is refused: sign_out_state_mismatch")
    func expired() async throws {
        let harness = try LogoutProfilesHarness()
        var jar = CookieJar()
        try await harness.signIn("oidc", jar: &jar)
        let logout = try await harness.logout(&jar)
        let location = try #require(logout.headerFields[.location])
        let state = try #require(LogoutProfilesHarness.query(location)["state"])
        harness.clock.advance(by: SignOutCookie.lifetime + 1)
        let late = try await harness.core.signedOut(
            provider: "oidc", request: WebRequest(method: .get, path: "/auth/oidc/signed-out", query: "state=\(state)", headerFields: jar.header))
        #expect(LogoutProfilesHarness.code(late) == "sign_out_state_mismatch")
    }

    @Test("A provider registration without a post-logout redirect URI: id_token_hint and client_id only, no state, no sign-out cookie")
    func withoutPostLogoutURI() async throws {
        let harness = try LogoutProfilesHarness()
        var jar = CookieJar()
        try await harness.signIn("plain", jar: &jar)
        let logout = try await harness.logout(&jar)
        let location = try #require(logout.headerFields[.location])
        let query = LogoutProfilesHarness.query(location)
        #expect(query["id_token_hint"] != nil)
        #expect(query["post_logout_redirect_uri"] == nil && query["state"] == nil)
        #expect(logout.setCookie(Self.signOutCookie) == nil)
    }
}
