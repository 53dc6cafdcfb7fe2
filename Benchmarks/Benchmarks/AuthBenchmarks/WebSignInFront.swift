import AuthCore
import AuthHummingbird
import AuthPostgres
import AuthOIDC
import AuthTesting
import BenchmarkFixtures
import Foundation
import Hummingbird
import HummingbirdTesting
import PostgresNIO

/// The web sign-in sample's front for benchmarks: AuthHummingbird's routes over real HTTP (Hummingbird's live test
/// server on 127.0.0.1) in front of the in-process identity provider, which approves at once.
struct WebSignInFront: Sendable {
    static let publicURL = URL(string: "http://127.0.0.1:8080")!
    let idp: TestIdentityProvider
    let webSignIn: WebSignIn<BasicWebSignInRequestContext>

    init(store: any WebSessionStore) throws {
        // A store shared by instances needs the key that seals started sign-ins into the browser's cookie.
        let configuration = WebSignInConfiguration(
            publicURL: Self.publicURL, signInCookieKey: store.isSharedAcrossInstances ? Data(repeating: 7, count: 32) : nil
        )
        let callback = configuration.callbackURL(for: "oidc")
        idp = TestIdentityProvider(
            configuration: .init(clients: [.init(id: TestIdentityProvider.defaultClientID, redirectURIs: [callback])]),
            clock: SystemWallClock()
        )
        let provider = OpenIDProvider(
            issuer: TestIdentityProvider.defaultIssuer,
            client: ClientRegistration(clientID: TestIdentityProvider.defaultClientID, redirectURI: callback, scopes: ["openid", "email"])
        )
        webSignIn = try WebSignIn(
            providers: ["oidc": provider], store: store, transport: idp.transport, configuration: configuration,
            clock: idp.clock, logger: SilentLogger()
        )
    }

    func application() -> some ApplicationProtocol {
        let router = Router(context: BasicWebSignInRequestContext.self)
        // The same JSON twice: bare (no middleware: the floor), and behind the middleware for a signed-in browser.
        router.get("/bare") { _, _ in Self.json() }
        let signedIn = router.group().add(middleware: webSignIn.middleware)
        signedIn.get("/app/me") { _, context in context.signedInUser == nil ? Response(status: .unauthorized) : Self.json() }
        webSignIn.addRoutes(to: signedIn)
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    static let body = ByteBuffer(string: #"{"message":"hello","items":[1,2,3]}"#)

    static func json() -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: body))
    }

    /// One request to `path` with `cookie`; throws unless it answered 200.
    func get(_ path: String, cookie: String?, _ client: some TestClientProtocol) async throws {
        let response = try await client.execute(uri: path, method: .get, headers: cookie.map { [.cookie: $0] } ?? [:])
        guard response.status == .ok else { throw BenchmarkFailure("\(path) answered \(response.status)") }
    }

    /// One browser's sign-in: GET login over HTTP, the provider's redirect (in process), GET callback over HTTP with
    /// the sign-in cookie; returns when the app answered with the session cookie.
    @discardableResult
    func signIn(_ client: some TestClientProtocol) async throws -> String {
        let login = try await client.execute(uri: "/auth/oidc/login", method: .get)
        guard let location = login.headers[.location], let cookie = login.headers[.setCookie]?.split(separator: ";").first else {
            throw BenchmarkFailure("login did not redirect with a cookie (\(login.status))")
        }
        let (_, answer) = try await idp.transport.send(HTTPRequest(method: .get, url: URL(string: location)!), body: nil, limits: HTTPRequestLimits())
        guard let callback = answer.headerFields[.location].flatMap(URL.init(string:)) else { throw BenchmarkFailure("no code") }
        let done = try await client.execute(uri: callback.path + "?" + (callback.query ?? ""), method: .get, headers: [.cookie: String(cookie)])
        let session = done.headers[values: .setCookie].first { $0.hasPrefix(WebSignInConfiguration.sessionCookieName + "=") }
        guard done.status == .seeOther, let session = session?.split(separator: ";").first else {
            throw BenchmarkFailure("callback answered \(done.status)")
        }
        return String(session)
    }

    /// A PostgreSQL store from `AUTH_PG_*` (Scripts/services/postgres.sh), or `nil` when none is configured.
    static func postgresClient() -> PostgresClient? {
        let environment = ProcessInfo.processInfo.environment
        guard let port = environment["AUTH_PG_PORT"].flatMap(Int.init) else { return nil }
        return PostgresClient(configuration: .init(
            host: environment["AUTH_PG_HOST"] ?? "127.0.0.1", port: port, username: environment["AUTH_PG_USER"] ?? "auth",
            password: environment["AUTH_PG_PASSWORD"], database: environment["AUTH_PG_DATABASE"] ?? "auth", tls: .disable
        ))
    }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
