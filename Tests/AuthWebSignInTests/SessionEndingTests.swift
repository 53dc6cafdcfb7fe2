import AuthCore
import AuthTesting
import Foundation
import HTTPTypes
import Testing

@testable import AuthWebSignIn

/// Sessions that must end: one whose credential is gone, and a browser's earlier session when a form_post sign-in
/// (a cross-site POST without the session cookie) replaces it.
@Suite("web sign-in core: a session without its credential, and the session a form_post sign-in replaces, end")
struct SessionEndingTests {
    static let sessionCookie = WebSignInConfiguration.sessionCookieName

    /// Signs `jar`'s browser in with `provider` (login with the browser's cookies, as a same-site navigation sends them).
    static func signIn(_ harness: CoreHarness, provider: String, jar: inout CookieJar, callbackCookies: CookieJar? = nil) async throws -> WebResponse {
        let login = await harness.core.login(provider: provider, request: WebRequest(method: .get, path: "/auth/\(provider)/login", headerFields: jar.header))
        jar.update(from: login)
        let answer = try await harness.approve(login)
        var sent = callbackCookies ?? jar
        if callbackCookies != nil { sent.update(from: login) }
        let done = try await harness.core.callback(
            provider: provider,
            request: provider == "formpost" ? CoreHarness.post(provider, form: answer, jar: sent) : CoreHarness.get(provider, query: answer, jar: sent)
        )
        jar.update(from: done)
        return done
    }

    @Test("A session whose credential is gone (what invalid_grant or a logout does) reads as signed out, and its record is removed")
    func tokenlessSession() async throws {
        let harness = try CoreHarness()
        var jar = CookieJar()
        #expect(try await Self.signIn(harness, provider: "oidc", jar: &jar).status == .seeOther)
        let request = WebRequest(method: .get, path: "/", headerFields: jar.header)
        #expect(try await harness.core.signedInUser(for: request) != nil)
        for key in try await harness.store.tokenStorage.storedKeys() { try await harness.store.tokenStorage.removeCredential(for: key) }
        #expect(try await harness.core.signedInUser(for: request) == nil)
        #expect(await harness.store.sessionCount == 0, "the session record went with it")
        let json = try JSONValue.parseObject(try await harness.core.sessionJSON(request).body)
        #expect(json["signed_in"] == false)
    }

    @Test("A form_post sign-in whose cross-site callback carries no session cookie still ends the browser's earlier session and its credential")
    func formPostEndsEarlierSession() async throws {
        let harness = try CoreHarness()
        var jar = CookieJar()
        #expect(try await Self.signIn(harness, provider: "oidc", jar: &jar).status == .seeOther)
        let first = try #require(jar.values[Self.sessionCookie])
        let firstKeys = try await harness.store.tokenStorage.storedKeys()
        #expect(firstKeys.count == 1)
        // Apple's answer is a cross-site POST: the browser sends the SameSite=None sign-in cookie only.
        let done = try await Self.signIn(harness, provider: "formpost", jar: &jar, callbackCookies: CookieJar())
        #expect(done.status == .seeOther)
        let second = try #require(jar.values[Self.sessionCookie])
        #expect(second != first)
        let old = WebRequest(method: .get, path: "/", headerFields: [.cookie: "\(Self.sessionCookie)=\(first)"])
        #expect(try await harness.core.signedInUser(for: old) == nil, "the earlier session ended")
        #expect(await harness.store.sessionCount == 1)
        let keys = try await harness.store.tokenStorage.storedKeys()
        #expect(keys.count == 1 && !keys.contains(firstKeys[0]), "the earlier session's credential is gone")
    }
}
