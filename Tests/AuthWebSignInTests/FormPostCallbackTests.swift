import AuthCore
import AuthTesting
import Foundation
import Testing

@testable import AuthWebSignIn

@Suite("web sign-in core: callbacks by form POST (response_mode=form_post)")
struct FormPostCallbackTests {
    static let signInCookie = WebSignInConfiguration.signInCookieName
    static let sessionCookie = WebSignInConfiguration.sessionCookieName
    /// Apple's `user` parameter on a first sign-in.
    static let user = #"{"name":{"firstName":"Jo","lastName":"Appleseed"},"email":"jo@example.com"}"#

    @Test(
        "A form_post provider's answer POSTed to the callback signs in; its sign-in cookie is SameSite=None and Secure; the form's user reaches resolveIdentity and names the user"
    )
    func signsInByPost() async throws {
        // The identity provider's ID token has no name or email: the name comes from the posted `user`.
        let harness = try CoreHarness(claims: [:])
        var jar = CookieJar()
        let login = await harness.core.login(provider: "formpost")
        #expect(login.status == .found)
        let location = try #require(login.headerFields[.location])
        #expect(location.contains("response_mode=form_post"))
        let cookie = try #require(login.setCookie(Self.signInCookie))
        for flag in ["SameSite=None", "Secure", "HttpOnly", "Path=/"] { #expect(cookie.contains(flag), "\(flag)") }
        jar.update(from: login)

        let form = try await harness.approve(login) + "&user=" + FormEncoding.escape(Self.user)
        let done = try await harness.core.callback(provider: "formpost", request: CoreHarness.post("formpost", form: form, jar: jar))
        #expect(done.status == .seeOther && done.headerFields[.location] == "/")
        #expect(done.setCookie(Self.signInCookie)?.contains("Max-Age=0") == true, "the sign-in cookie is cleared")
        jar.update(from: done)
        let user = try #require(try await harness.core.signedInUser(for: WebRequest(method: .get, path: "/", headerFields: jar.header)))
        #expect(user.displayName == "Jo Appleseed" && user.subject == "user-1234" && user.providerName == "formpost")
        let keys = try await harness.store.tokenStorage.storedKeys()
        #expect(keys.count == 1)
        let credential = try #require(try await harness.store.tokenStorage.credential(for: keys[0]))
        #expect(credential.profile?["name"] == "Jo Appleseed")
    }

    @Test("A provider answering in the query keeps a SameSite=Lax sign-in cookie, and signs in by GET")
    func queryProviderStaysLax() async throws {
        let harness = try CoreHarness()
        var jar = CookieJar()
        let login = await harness.core.login(provider: "oidc")
        let cookie = try #require(login.setCookie(Self.signInCookie))
        #expect(cookie.contains("SameSite=Lax") && !cookie.contains("SameSite=None"))
        #expect(login.headerFields[.location]?.contains("response_mode") == false)
        jar.update(from: login)
        let done = try await harness.core.callback(provider: "oidc", request: CoreHarness.get("oidc", query: try await harness.approve(login), jar: jar))
        #expect(done.status == .seeOther)
        #expect(done.setCookie(Self.sessionCookie)?.contains("SameSite=Lax") == true)
    }

    @Test("Hostile: a POST callback without the sign-in cookie (a cross-site POST that did not carry it) is 400 sign_in_cookie_missing; nothing stored, no code redeemed")
    func postWithoutCookie() async throws {
        let harness = try CoreHarness()
        let login = await harness.core.login(provider: "formpost")
        let form = try await harness.approve(login)
        let refused = try await harness.core.callback(provider: "formpost", request: CoreHarness.post("formpost", form: form, jar: CookieJar()))
        #expect(refused.status == .badRequest)
        #expect(refused.text.contains("(sign_in_cookie_missing)"))
        #expect(refused.setCookie(Self.sessionCookie) == nil)
        #expect(try await harness.storedNothing())
        #expect(await harness.idp.tokenRequestsByGrant["authorization_code"] == nil)
    }

    @Test("Hostile: a form_post sign-in's answer sent in the URL (its code in a GET query) is 400 callback_method_mismatch; nothing stored, no code redeemed")
    func formPostAnswerByGet() async throws {
        let harness = try CoreHarness()
        var jar = CookieJar()
        let login = await harness.core.login(provider: "formpost")
        jar.update(from: login)
        let refused = try await harness.core.callback(provider: "formpost", request: CoreHarness.get("formpost", query: try await harness.approve(login), jar: jar))
        #expect(refused.status == .badRequest)
        #expect(refused.text.contains("(callback_method_mismatch)"))
        #expect(refused.setCookie(Self.signInCookie)?.contains("Max-Age=0") == true, "the sign-in is spent")
        #expect(try await harness.storedNothing())
        #expect(await harness.idp.tokenRequestsByGrant["authorization_code"] == nil)
    }

    @Test("Hostile: a query provider's answer POSTed (a form any site can post) is 400 callback_method_mismatch; nothing stored, no code redeemed")
    func queryAnswerByPost() async throws {
        let harness = try CoreHarness()
        var jar = CookieJar()
        let login = await harness.core.login(provider: "oidc")
        jar.update(from: login)
        let refused = try await harness.core.callback(provider: "oidc", request: CoreHarness.post("oidc", form: try await harness.approve(login), jar: jar))
        #expect(refused.status == .badRequest)
        #expect(refused.text.contains("(callback_method_mismatch)"))
        #expect(try await harness.storedNothing())
        #expect(await harness.idp.tokenRequestsByGrant["authorization_code"] == nil)
    }

    @Test("Hostile: a POST callback whose body is not a urlencoded form is 400 invalid_callback_form; nothing stored")
    func notAForm() async throws {
        let harness = try CoreHarness()
        var jar = CookieJar()
        let login = await harness.core.login(provider: "formpost")
        jar.update(from: login)
        let form = try await harness.approve(login)
        let refused = try await harness.core.callback(
            provider: "formpost", request: CoreHarness.post("formpost", form: form, jar: jar, contentType: "application/json")
        )
        #expect(refused.status == .badRequest)
        #expect(refused.text.contains("(invalid_callback_form)"))
        #expect(try await harness.storedNothing())
        #expect(await harness.idp.tokenRequestsByGrant["authorization_code"] == nil)
    }

    @Test("Hostile: another browser's form_post answer posted with this browser's cookie (login CSRF) is 400 state_mismatch; nothing stored")
    func forgedPost() async throws {
        let harness = try CoreHarness()
        var victim = CookieJar()
        victim.update(from: await harness.core.login(provider: "formpost"))
        let attackerLogin = await harness.core.login(provider: "formpost")
        let refused = try await harness.core.callback(
            provider: "formpost", request: CoreHarness.post("formpost", form: try await harness.approve(attackerLogin), jar: victim)
        )
        #expect(refused.status == .badRequest)
        #expect(refused.text.contains("(state_mismatch)"))
        #expect(try await harness.storedNothing())
        #expect(await harness.idp.tokenRequestsByGrant["authorization_code"] == nil)
    }

    @Test("The display name: the ID token's name; then the provider's profile: name, then login; then an email")
    func displayNames() {
        #expect(WebSignInCore.displayName(claims: nil, profile: ["login": "octocat", "name": "The Octocat"]) == "The Octocat")
        #expect(WebSignInCore.displayName(claims: nil, profile: ["login": "octocat", "email": "octo@example.com"]) == "octocat")
        #expect(WebSignInCore.displayName(claims: nil, profile: ["email": "octo@example.com"]) == "octo@example.com")
        #expect(WebSignInCore.displayName(claims: nil, profile: ["name": "", "login": "octocat"]) == "octocat")
        #expect(WebSignInCore.displayName(claims: nil, profile: nil) == nil)
    }
}
