import AuthCore
import AuthOIDC
import AuthTesting
import AuthWebSignIn
import Foundation
import Testing

/// A provider that asks for `response_mode=form_post`, as Sign in with Apple does, and reads Apple's `user` form
/// parameter (`{"name": {"firstName": …, "lastName": …}}`) into the profile, as a provider's `resolveIdentity` does.
struct FormPostProvider: AuthProvider {
    static let id: ProviderID = "formpost"
    static let displayName = "Form Post"
    let issuer: URL
    let client: ClientRegistration
    var endpointSource: EndpointSource { .discovery(issuer: issuer) }

    init(issuer: URL, client: ClientRegistration) {
        self.issuer = issuer
        self.client = client
    }

    init(configuration: ProviderConfiguration) throws {
        throw AuthError(.invalidConfiguration, "Built in code only.")
    }

    func authorizationParameters(for request: SignInContext) -> [String: String] { ["response_mode": "form_post"] }

    func resolveIdentity(_ context: IdentityContext) async throws -> ProviderIdentity? {
        guard let claims = context.idTokenClaims else { return nil }
        guard let user = context.authorizationResponse["user"], let object = try? JSONValue.parseObject(Data(user.utf8)),
            let name = object["name"]?.objectValue
        else { return ProviderIdentity(subject: claims.subject) }
        let full = [name["firstName"]?.stringValue, name["lastName"]?.stringValue].compactMap { $0 }.joined(separator: " ")
        return ProviderIdentity(subject: claims.subject, profile: ["name": full])
    }
}

/// The neutral core in front of the in-process identity provider, driven with plain request values as an adapter
/// for any framework drives it, and a browser's cookies.
struct CoreHarness {
    static let appURL = URL(string: "https://app.example.test")!
    static let cookieKey = Data(repeating: 9, count: 32)
    let idp: TestIdentityProvider
    let store: InMemoryWebSessionStore
    let core: WebSignInCore

    /// An app serving `oidc` (answers in the query) and `formpost` (answers by form POST) from one identity provider
    /// whose user has `claims`.
    init(
        claims: [String: JSONValue] = ["email": "alice@example.com", "name": "Alice Example"],
        clock: any WallClock = SystemWallClock(),
        tokenStorage: any TokenStorage = InMemoryTokenStorage(),
        maximumSessionsPerSubject: Int = 20
    ) throws {
        var configuration = WebSignInConfiguration(publicURL: Self.appURL, signInCookieKey: Self.cookieKey)
        configuration.maximumSessionsPerSubject = maximumSessionsPerSubject
        let callbacks = ["oidc", "formpost"].map { configuration.callbackURL(for: $0) }
        idp = TestIdentityProvider(
            configuration: TestIdentityProvider.Configuration(
                clients: [TestIdentityProvider.Client(id: TestIdentityProvider.defaultClientID, redirectURIs: callbacks)],
                user: TestIdentityProvider.User(subject: "user-1234", claims: claims)
            ),
            clock: clock
        )
        func registration(_ name: String) -> ClientRegistration {
            ClientRegistration(clientID: TestIdentityProvider.defaultClientID, redirectURI: configuration.callbackURL(for: name), scopes: ["openid", "email", "profile"])
        }
        store = InMemoryWebSessionStore(tokenStorage: tokenStorage)
        core = try WebSignInCore(
            providers: [
                "oidc": OpenIDProvider(issuer: TestIdentityProvider.defaultIssuer, client: registration("oidc")),
                "formpost": FormPostProvider(issuer: TestIdentityProvider.defaultIssuer, client: registration("formpost"))
            ],
            store: store, transport: idp.transport, configuration: configuration, clock: idp.clock
        )
    }

    /// What the browser does between the app's login redirect and the callback: the provider approves at once.
    /// Returns the answer's parameters (for a form_post provider, the form it would post).
    func approve(_ login: WebResponse) async throws -> String {
        let location = try #require(login.headerFields[.location])
        let (_, response) = try await idp.transport.send(HTTPRequest(method: .get, url: URL(string: location)!), body: nil)
        let callback = try #require(response.headerFields[.location].flatMap { URLComponents(string: $0) })
        return callback.percentEncodedQuery ?? ""
    }

    /// The callback as a `POST` with `form` as its body.
    static func post(_ provider: String, form: String, jar: CookieJar, contentType: String = "application/x-www-form-urlencoded") -> WebRequest {
        var headers = jar.header
        headers[.contentType] = contentType
        return WebRequest(method: .post, path: "/auth/\(provider)/callback", headerFields: headers, body: Data(form.utf8))
    }

    /// The callback as a `GET` with `query`.
    static func get(_ provider: String, query: String, jar: CookieJar) -> WebRequest {
        WebRequest(method: .get, path: "/auth/\(provider)/callback", query: query, headerFields: jar.header)
    }

    /// Nothing was stored: no credential, no session.
    func storedNothing() async throws -> Bool {
        let keys = try await store.tokenStorage.storedKeys()
        let sessions = await store.sessionCount
        return keys.isEmpty && sessions == 0
    }
}

/// A browser's cookies for the app.
struct CookieJar {
    private(set) var values: [String: String] = [:]

    /// Applies the response's `Set-Cookie` fields (`Max-Age=0` removes).
    mutating func update(from response: WebResponse) {
        for header in response.headerFields[values: .setCookie] {
            let pair = header.split(separator: ";", maxSplits: 1)[0].split(separator: "=", maxSplits: 1)
            let value = pair.count > 1 ? String(pair[1]) : ""
            values[String(pair[0])] = header.contains("Max-Age=0") || value.isEmpty ? nil : value
        }
    }

    var header: HTTPFields {
        values.isEmpty ? [:] : [.cookie: values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")]
    }
}

extension WebResponse {
    var text: String { String(decoding: body, as: UTF8.self) }

    /// The `Set-Cookie` field of `name`.
    func setCookie(_ name: String) -> String? {
        headerFields[values: .setCookie].first { $0.hasPrefix(name + "=") }
    }
}
