// The server of the web throughput comparison (Scripts/bench/web-load.sh): AuthHummingbird's routes in front of the OIDC
// emulator over real HTTP, and two JSON routes that answer the same bytes — one bare, one behind the web sign-in
// middleware for a signed-in browser — so that wrk measures what the middleware costs every request.
//
//     web-load-server --port 8300 --emulator-config DIR/oidc.json [--postgres]
import AuthAsyncHTTPClient
import BenchmarkFixtures
import AuthCore
import AuthHummingbird
import AuthPostgres
import AuthProviders
import Foundation
import Hummingbird
import PostgresNIO
import ServiceLifecycle

@main
struct WebLoadServer {
    static func main() async throws {
        let arguments = Arguments(CommandLine.arguments.dropFirst())
        let port = Int(arguments["--port"] ?? "") ?? 8300
        guard let configurationFile = arguments["--emulator-config"] else {
            fail("usage: web-load-server --port PORT --emulator-config DIR/oidc.json [--postgres]")
        }
        let publicURL = URL(string: "http://127.0.0.1:\(port)")!
        let configuration = try ProviderConfiguration(contentsOf: URL(fileURLWithPath: configurationFile))
        let provider = try ProviderRegistry.builtIn.provider(named: "oidc", configuration: configuration)

        var services: [any Service] = []
        let store: any WebSessionStore
        var prepare: (@Sendable () async throws -> Void)?
        var signInCookieKey: Data?
        if arguments.has("--postgres") {
            let environment = ProcessInfo.processInfo.environment
            guard let pgPort = environment["AUTH_PG_PORT"].flatMap(Int.init) else { fail("--postgres needs AUTH_PG_* (Scripts/services/postgres.sh env)") }
            let client = PostgresClient(configuration: .init(
                host: environment["AUTH_PG_HOST"] ?? "127.0.0.1", port: pgPort, username: environment["AUTH_PG_USER"] ?? "auth",
                password: environment["AUTH_PG_PASSWORD"], database: environment["AUTH_PG_DATABASE"] ?? "auth", tls: .disable
            ))
            services.append(client)
            let key = Data((0..<32).map { _ in UInt8.random(in: 0...255) })
            signInCookieKey = key
            let postgresStore = try PostgresWebSessionStore(client: client, encryptionKey: key)
            store = postgresStore
            prepare = { try await postgresStore.prepare() }
        } else {
            store = InMemoryWebSessionStore()
        }
        let transport = AsyncHTTPClientTransport()
        let webSignIn = try WebSignIn<BasicWebSignInRequestContext>(
            providers: ["oidc": provider], store: store, transport: transport,
            configuration: WebSignInConfiguration(publicURL: publicURL, signInCookieKey: signInCookieKey),
            logger: SilentLogger()
        )
        let body = ByteBuffer(string: #"{"message":"hello","items":[1,2,3]}"#)
        let router = Router(context: BasicWebSignInRequestContext.self)
        // The bare route: no middleware at all, the floor every other figure is compared with.
        router.get("/bare") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: body))
        }
        // The same answer for a signed-in browser: the middleware reads the session cookie first.
        router.group("app").add(middleware: webSignIn.middleware).get("me") { _, context in
            guard context.signedInUser != nil else { return Response(status: .unauthorized) }
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: body))
        }
        // After a sign-in the browser lands here (WebSignInConfiguration.afterSignIn is "/").
        router.get("/") { _, context in context.signedInUser == nil ? "signed out" : "signed in" }
        // Sign-in routes see the middleware too (the callback ends an earlier session of the same browser).
        let auth = router.group().add(middleware: webSignIn.middleware)
        webSignIn.addRoutes(to: auth)

        var app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "web-load"),
            services: services,
            onServerRunning: { _ in print("web-load-server: listening on \(publicURL.absoluteString)") }
        )
        if let prepare { app.beforeServerStarts(perform: prepare) }
        do {
            try await app.runService()
        } catch {
            try? await transport.shutdown()
            throw error
        }
        try await transport.shutdown()
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(2)
    }
}

/// `--name value` pairs and bare flags.
struct Arguments {
    private let words: [String]
    init(_ words: ArraySlice<String>) { self.words = Array(words) }
    subscript(_ name: String) -> String? {
        words.firstIndex(of: name).flatMap { $0 + 1 < words.count ? words[$0 + 1] : nil }
    }
    func has(_ name: String) -> Bool { words.contains(name) }
}
