import AuthCore
import AuthTesting
import Foundation
import Testing

@testable import AuthWebSignIn

/// Sign in with Apple posts the user's name once, on the first authorization: it is kept for the user of the provider,
/// not for the browser session it came with.
@Suite("web sign-in core: a name the provider says once greets the user in every later session")
struct RememberedNameTests {
    static let user = #"{"name":{"firstName":"Jo","lastName":"Appleseed"},"email":"jo@example.com"}"#

    static func formPostSignIn(_ harness: CoreHarness, user: String?) async throws -> CookieJar {
        var jar = CookieJar()
        let login = await harness.core.login(provider: "formpost")
        jar.update(from: login)
        let form = try await harness.approve(login) + (user.map { "&user=" + FormEncoding.escape($0) } ?? "")
        let done = try await harness.core.callback(provider: "formpost", request: CoreHarness.post("formpost", form: form, jar: jar))
        #expect(done.status == .seeOther)
        jar.update(from: done)
        return jar
    }

    @Test("The name posted with the first sign-in greets the user in a second browser and after a sign-out, where no name is posted")
    func nameKeptPerUser() async throws {
        let harness = try CoreHarness(claims: [:])  // the ID token names nobody, as Apple's
        let first = try await Self.formPostSignIn(harness, user: Self.user)
        let firstUser = try #require(try await harness.core.signedInUser(for: WebRequest(method: .get, path: "/", headerFields: first.header)))
        #expect(firstUser.displayName == "Jo Appleseed")

        let second = try await Self.formPostSignIn(harness, user: nil)  // another browser: Apple posts no name again
        let secondUser = try #require(try await harness.core.signedInUser(for: WebRequest(method: .get, path: "/", headerFields: second.header)))
        #expect(secondUser.displayName == "Jo Appleseed")
        #expect(secondUser.subject == firstUser.subject)

        // Sign out in the first browser, then sign in there again.
        let session = try JSONValue.parseObject(try await harness.core.sessionJSON(WebRequest(method: .get, path: "/", headerFields: first.header)).body)
        var headers = first.header
        headers[.contentType] = "application/x-www-form-urlencoded"
        let csrf = try #require(session["csrf_token"]?.stringValue)
        _ = try await harness.core.logout(WebRequest(method: .post, path: "/auth/logout", headerFields: headers, body: Data("csrf_token=\(csrf)".utf8)))
        let again = try await Self.formPostSignIn(harness, user: nil)
        let againUser = try #require(try await harness.core.signedInUser(for: WebRequest(method: .get, path: "/", headerFields: again.header)))
        #expect(againUser.displayName == "Jo Appleseed")
    }
}
