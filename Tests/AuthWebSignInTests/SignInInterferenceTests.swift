import AuthCore
import AuthTesting
import Foundation
import HTTPTypes
import Testing

@testable import AuthWebSignIn

/// Requests nobody reads the answer of (`HEAD`), and requests another site can make the browser send, against a
/// sign-in in progress: none of them starts, spends or cancels one.
@Suite("web sign-in core: HEAD and other sites' requests neither start, spend nor cancel a sign-in")
struct SignInInterferenceTests {
    static let signInCookie = WebSignInConfiguration.signInCookieName
    static let sessionCookie = WebSignInConfiguration.sessionCookieName

    @Test("HEAD on login is 405 with no sign-in cookie; HEAD on the callback is 405, spends no code and keeps the sign-in cookie, and the GET that follows signs in")
    func headRunsNothing() async throws {
        let harness = try CoreHarness()
        let head = await harness.core.login(provider: "oidc", request: WebRequest(method: .head, path: "/auth/oidc/login"))
        #expect(head.status == .methodNotAllowed && head.headerFields[.allow] == "GET")
        #expect(head.headerFields[values: .setCookie].isEmpty)

        var jar = CookieJar()
        let login = await harness.core.login(provider: "oidc", request: WebRequest(method: .get, path: "/auth/oidc/login"))
        jar.update(from: login)
        let query = try await harness.approve(login)
        var headCallback = CoreHarness.get("oidc", query: query, jar: jar)
        headCallback.method = .head
        let refused = try await harness.core.callback(provider: "oidc", request: headCallback)
        #expect(refused.status == .methodNotAllowed)
        #expect(refused.headerFields[values: .setCookie].isEmpty)
        #expect(try await harness.storedNothing())
        let done = try await harness.core.callback(provider: "oidc", request: CoreHarness.get("oidc", query: query, jar: jar))
        #expect(done.status == .seeOther, "the code was not spent by the HEAD")
    }

    @Test("Hostile: another site's junk-state callback (or one without state) is 400 state_mismatch and leaves the sign-in cookie, so the victim's real callback still signs in")
    func junkStateCancelsNothing() async throws {
        for provider in ["oidc", "formpost"] {
            let harness = try CoreHarness()
            var jar = CookieJar()
            let login = await harness.core.login(provider: provider)
            jar.update(from: login)
            let junk = try await harness.core.callback(provider: provider, request: CoreHarness.get(provider, query: "state=attacker&code=x", jar: jar))
            #expect(junk.status == .badRequest && junk.text.contains("(state_mismatch)"), "\(provider)")
            #expect(junk.headerFields[values: .setCookie].isEmpty, "\(provider): the sign-in cookie stays")
            let junkPost = try await harness.core.callback(provider: provider, request: CoreHarness.post(provider, form: "state=attacker&code=x", jar: jar))
            #expect(junkPost.text.contains("(state_mismatch)") && junkPost.headerFields[values: .setCookie].isEmpty, "\(provider)")
            let stateless = try await harness.core.callback(provider: provider, request: CoreHarness.get(provider, query: "error=access_denied", jar: jar))
            #expect(stateless.text.contains("(missing_state)") && stateless.headerFields[values: .setCookie].isEmpty, "\(provider)")
            #expect(try await harness.storedNothing())
            let answer = try await harness.approve(login)
            let done = try await harness.core.callback(
                provider: provider,
                request: provider == "formpost" ? CoreHarness.post(provider, form: answer, jar: jar) : CoreHarness.get(provider, query: answer, jar: jar)
            )
            #expect(done.status == .seeOther, "\(provider): the victim's own sign-in completes")
            #expect(done.setCookie(Self.signInCookie)?.contains("Max-Age=0") == true, "\(provider): cleared once used")
        }
    }

    @Test("Hostile: a login another site's page embeds (Sec-Fetch-Dest image or iframe) is 403 cross_site_request and sets no cookie; a top-level navigation starts the sign-in")
    func embeddedLoginRefused() async throws {
        let harness = try CoreHarness()
        let destination = HTTPField.Name("Sec-Fetch-Dest")!
        for embedded in ["image", "iframe", "empty"] {
            let refused = await harness.core.login(
                provider: "formpost", request: WebRequest(method: .get, path: "/auth/formpost/login", headerFields: [destination: embedded])
            )
            #expect(refused.status == .forbidden && refused.text.contains("(cross_site_request)"), "\(embedded)")
            #expect(refused.headerFields[values: .setCookie].isEmpty, "\(embedded)")
        }
        let navigation = await harness.core.login(
            provider: "formpost", request: WebRequest(method: .get, path: "/auth/formpost/login", headerFields: [destination: "document"])
        )
        #expect(navigation.status == .found && navigation.setCookie(Self.signInCookie) != nil)
    }
}
