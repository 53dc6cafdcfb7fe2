// The web sign-in sample: a Hummingbird 2 app with a "Sign in with …" button per provider (AuthHummingbird's
// routes), pointed at the provider emulators over HTTP. Needs the HummingbirdSignIn and PostgresStorage traits; its
// Vapor twin is Examples/VaporWebSignIn (web-sign-in-vapor), and the page, providers and settings both show are in
// Examples/WebSignInSupport:
//
//     swift run --traits HummingbirdSignIn,PostgresStorage web-sign-in        # emulators in this process, sessions in memory
//     swift run --traits HummingbirdSignIn,PostgresStorage web-sign-in --emulators-dir DIR --postgres --instance B   # see Scripts/e2e/web-sign-in.sh
//     swift run --traits HummingbirdSignIn,PostgresStorage web-sign-in --oidc-provider suite=suite.json   # one OpenID Connect issuer (Scripts/e2e/oidc-rp-suite/logout_profiles.py)
#if PostgresStorage && HummingbirdSignIn
    import ArgumentParser
    import AuthAsyncHTTPClient
    import AuthCore
    import AuthHummingbird
    import AuthPostgres
    import AuthProviders
    import AuthEmulators
    import AuthTesting
    import Foundation
    import Hummingbird
    import Logging
    import PostgresNIO
    import ServiceLifecycle
    import WebSignInSampleSupport

    @main
    struct WebSignInApp: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "web-sign-in",
            abstract: "A web app with \"Sign in with …\" for every provider, against the provider emulators."
        )

        @Option(help: "The port on 127.0.0.1.")
        var port = 8080

        @Option(help: "The URL browsers reach the app at (callbacks are built from it); default http://127.0.0.1:<port>.")
        var publicURL: String?

        @Option(help: "Configuration files written by `auth-emulator emulate all --config-dir DIR`; without it the emulators run in this process.")
        var emulatorsDir: String?

        @Option(help: "The first port of the emulators this process serves (without --emulators-dir).")
        var emulatorPort = 8090

        @Flag(
            help:
                "Keep sessions and credentials in PostgreSQL (AUTH_PG_HOST, AUTH_PG_PORT, AUTH_PG_USER, AUTH_PG_PASSWORD, AUTH_PG_DATABASE; AUTH_WEB_ENCRYPTION_KEY: 32 bytes in base64, the same on every instance)."
        )
        var postgres = false

        @Option(
            help:
                "A generic OpenID Connect provider as ROUTE=FILE: the route name and its configuration file (issuer, client_id, client_secret, redirect_uri, post_logout_redirect_uri); repeatable. With it and no --emulators-dir, no emulator runs in this process."
        )
        var oidcProvider: [String] = []

        @Option(help: "This instance's name, shown on its pages.")
        var instance = "A"

        @Option(help: "How long a signed-in session lasts, in seconds (default: WebSignInConfiguration's, eight hours).")
        var sessionLifetime: Double?

        func run() async throws {
            let publicURL = try SampleSettings.url(publicURL ?? "http://127.0.0.1:\(port)")
            var services: [any Service] = []
            var emulators = try SampleProvider.openIDProviders(oidcProvider)
            if let emulatorsDir {
                emulators += try SampleProvider.fromDirectory(URL(fileURLWithPath: emulatorsDir))
            } else if oidcProvider.isEmpty {
                let served = try await SampleProvider.embedded(firstPort: emulatorPort)
                emulators += served.map { $0.provider }
                services += served.map { $0.server }
            }
            let store: any WebSessionStore
            var prepare: (@Sendable () async throws -> Void)?
            // Instances sharing PostgreSQL share the key that seals a started sign-in into the browser's cookie too, so
            // a sign-in started on one completes on another; in memory, one instance draws its own.
            var signInCookieKey: Data?
            if postgres {
                let client = try SampleSettings.postgresClient()
                services.append(client)
                signInCookieKey = try SampleSettings.encryptionKey()
                let postgresStore = try PostgresWebSessionStore(client: client, encryptionKey: try SampleSettings.encryptionKey())
                store = postgresStore
                prepare = { try await postgresStore.prepare() }
            } else {
                store = InMemoryWebSessionStore()
            }
            let transport = AsyncHTTPClientTransport()
            var configuration = WebSignInConfiguration(publicURL: publicURL, signInCookieKey: signInCookieKey)
            if let sessionLifetime { configuration.sessionLifetime = sessionLifetime }
            let webSignIn = try WebSignIn<BasicWebSignInRequestContext>(
                providers: SampleProvider.byName(emulators),
                store: store,
                transport: transport,
                configuration: configuration,
                nativeProviders: SampleProvider.nativeByName(emulators)
            )
            let router = Router(context: BasicWebSignInRequestContext.self)
            router.add(middleware: webSignIn.middleware)
            webSignIn.addRoutes(to: router)
            let pages = SamplePages(core: webSignIn.core, providers: emulators, instance: instance, server: "Hummingbird")
            router.get("/") { _, context in Response(pages.home(context.signedInUser)) }
            // An API route that uses the user's tokens, as an app's own routes do (SamplePages.me).
            router.get("/me") { _, context in Response(await pages.me(context.signedInUser)) }

            let providerCount = emulators.count
            var app = Application(
                router: router,
                configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "web-sign-in"),
                services: services,
                onServerRunning: { _ in
                    print(
                        "web-sign-in \(instance): listening on http://127.0.0.1:\(port) (public URL \(publicURL.absoluteString)), "
                            + "\(providerCount) providers, sessions \(postgres ? "in PostgreSQL" : "in memory")")
                }
            )
            if let prepare { app.beforeServerStarts(perform: prepare) }
            // The transport's HTTP client is shut down however the app ends (SIGINT, SIGTERM, an error).
            do {
                try await app.runService()
            } catch {
                try? await transport.shutdown()
                throw error
            }
            try await transport.shutdown()
        }
    }

#else
    @main
    struct WebSignInApp {
        static func main() {
            print("web-sign-in needs the HummingbirdSignIn and PostgresStorage traits: swift run --traits HummingbirdSignIn,PostgresStorage web-sign-in")
        }
    }
#endif
