import AuthCore
import AuthOIDC
import AuthTesting
import Foundation
import HTTPTypes
import Testing

@testable import AuthWebSignIn

/// The neutral core serving `oidc`, whose registration has a post-logout redirect URI (the app's
/// `/auth/oidc/signed-out`, registered with the provider), and `plain`, whose has none.
struct LogoutProfilesHarness {
    static let appURL = URL(string: "https://app.example.test")!
    let idp: TestIdentityProvider
    let store: InMemoryWebSessionStore
    let core: WebSignInCore
    let configuration: WebSignInConfiguration
    let clock = ManualClock()

    init() throws {
        let configuration = WebSignInConfiguration(publicURL: Self.appURL, afterSignOut: "/goodbye", signInCookieKey: Data(repeating: 7, count: 32))
        self.configuration = configuration
        let names = ["oidc", "plain"]
        idp = TestIdentityProvider(
            configuration: TestIdentityProvider.Configuration(
                clients: [
                    TestIdentityProvider.Client(
                        id: TestIdentityProvider.defaultClientID, redirectURIs: names.map { configuration.callbackURL(for: $0) },
                        postLogoutRedirectURIs: [configuration.postLogoutURL(for: "oidc")]
                    )
                ],
                user: TestIdentityProvider.User(subject: "user-1234", claims: ["email": "alice@example.com", "name": "Alice Example"])
            ),
            clock: clock
        )
        var providers: [String: any AuthProvider] = [:]
        for name in names {
            var registration = ClientRegistration(
                clientID: TestIdentityProvider.defaultClientID, redirectURI: configuration.callbackURL(for: name), scopes: ["openid", "email", "profile"])
            // The configured value is replaced by the app's own route, as `redirect_uri` by the callback.
            if name == "oidc" { registration.postLogoutRedirectURI = URL(string: "https://configured.example/ignored")! }
            providers[name] = OpenIDProvider(issuer: TestIdentityProvider.defaultIssuer, client: registration)
        }
        store = InMemoryWebSessionStore()
        core = try WebSignInCore(providers: providers, store: store, transport: idp.transport, configuration: configuration, clock: idp.clock)
    }

    /// Signs `jar`'s browser in with `provider`; returns the callback's answer.
    @discardableResult
    func signIn(_ provider: String, jar: inout CookieJar, login: WebRequest? = nil) async throws -> WebResponse {
        let started = await core.login(provider: provider, request: login ?? WebRequest(method: .get, path: "/auth/\(provider)/login", headerFields: jar.header))
        return try await complete(started, provider: provider, jar: &jar)
    }

    /// Follows a sign-in the app started (`started`, its redirect to the provider) to the callback's answer.
    func complete(_ started: WebResponse, provider: String, jar: inout CookieJar) async throws -> WebResponse {
        jar.update(from: started)
        let location = try #require(started.headerFields[.location])
        let (_, answer) = try await idp.transport.send(HTTPRequest(method: .get, url: URL(string: location)!), body: nil)
        let callback = try #require(answer.headerFields[.location].flatMap { URLComponents(string: $0) })
        let done = try await core.callback(
            provider: provider, request: WebRequest(method: .get, path: "/auth/\(provider)/callback", query: callback.percentEncodedQuery ?? "", headerFields: jar.header))
        jar.update(from: done)
        return done
    }

    /// The session record of `jar`'s browser.
    func record(_ jar: CookieJar) async throws -> WebSessionRecord {
        let id = try #require(jar.values[WebSignInConfiguration.sessionCookieName])
        return try #require(await store.session(key: WebSignInCore.digest(id), now: idp.clock.now()))
    }

    /// `POST /auth/logout` with the session's CSRF token.
    func logout(_ jar: inout CookieJar) async throws -> WebResponse {
        let token = try await record(jar).csrfToken
        var headers = jar.header
        headers[HTTPField.Name("X-CSRF-Token")!] = token
        let response = try await core.logout(WebRequest(method: .post, path: "/auth/logout", headerFields: headers))
        jar.update(from: response)
        return response
    }

    /// The query parameters of `location`.
    static func query(_ location: String) -> [String: String] {
        Dictionary(
            (URLComponents(string: location)?.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    /// The error code a refusal page shows (`(code)` at the end of its message).
    static func code(_ response: WebResponse) -> String? {
        let text = response.text
        guard let close = text.range(of: ")</p>"), let open = text[..<close.lowerBound].lastIndex(of: "(") else { return nil }
        return String(text[text.index(after: open)..<close.lowerBound])
    }
}
