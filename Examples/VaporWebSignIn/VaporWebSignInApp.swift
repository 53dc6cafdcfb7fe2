// The web sign-in sample on Vapor 4: the same page, buttons and routes as the Hummingbird sample (Examples/WebSignIn),
// through AuthVapor's `VaporWebSignIn`, pointed at the provider emulators over HTTP. Needs the VaporSignIn and
// PostgresStorage traits:
//
//     swift run --traits VaporSignIn,PostgresStorage web-sign-in-vapor   # emulators in this process, sessions in memory
//     swift run --traits VaporSignIn,PostgresStorage web-sign-in-vapor --emulators-dir DIR --postgres --instance B   # Scripts/e2e/web-sign-in.sh vapor
//     swift run --traits VaporSignIn,PostgresStorage web-sign-in-vapor --oidc-provider suite=suite.json   # one OpenID Connect issuer (Scripts/e2e/oidc-rp-suite/logout_profiles.py)
#if PostgresStorage && VaporSignIn
    import ArgumentParser
    import AuthAsyncHTTPClient
    import AuthCore
    import AuthPostgres
    import AuthVapor
    import Foundation
    import PostgresNIO
    import Vapor
    import WebSignInSampleSupport

    @main
    struct VaporWebSignInApp: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "web-sign-in-vapor",
            abstract: "A Vapor web app with \"Sign in with …\" for every provider, against the provider emulators."
        )

        @ArgumentParser.Option(help: "The port on 127.0.0.1.")
        var port = 8080

        @ArgumentParser.Option(help: "The URL browsers reach the app at (callbacks are built from it); default http://127.0.0.1:<port>.")
        var publicURL: String?

        @ArgumentParser.Option(help: "Configuration files written by `auth-emulator emulate all --config-dir DIR`; without it the emulators run in this process.")
        var emulatorsDir: String?

        @ArgumentParser.Option(help: "The first port of the emulators this process serves (without --emulators-dir).")
        var emulatorPort = 8090

        @ArgumentParser.Flag(
            help:
                "Keep sessions and credentials in PostgreSQL (AUTH_PG_HOST, AUTH_PG_PORT, AUTH_PG_USER, AUTH_PG_PASSWORD, AUTH_PG_DATABASE; AUTH_WEB_ENCRYPTION_KEY: 32 bytes in base64, the same on every instance)."
        )
        var postgres = false

        @ArgumentParser.Option(
            help:
                "A generic OpenID Connect provider as ROUTE=FILE: the route name and its configuration file (issuer, client_id, client_secret, redirect_uri, post_logout_redirect_uri); repeatable. With it and no --emulators-dir, no emulator runs in this process."
        )
        var oidcProvider: [String] = []

        @ArgumentParser.Option(help: "This instance's name, shown on its pages.")
        var instance = "A"

        @ArgumentParser.Option(help: "How long a signed-in session lasts, in seconds (default: WebSignInConfiguration's, eight hours).")
        var sessionLifetime: Double?

        func run() async throws {
            let publicURL = try SampleSettings.url(publicURL ?? "http://127.0.0.1:\(port)")
            var providers = try SampleProvider.openIDProviders(oidcProvider)
            var served: [ServedEmulator] = []
            if let emulatorsDir {
                providers += try SampleProvider.fromDirectory(URL(fileURLWithPath: emulatorsDir))
            } else if oidcProvider.isEmpty {
                served = try await ServedEmulator.all(firstPort: emulatorPort)
                providers += served.map(\.provider)
            }
            let store: any WebSessionStore
            var postgresClient: PostgresClient?
            // Instances sharing PostgreSQL share the key that seals a started sign-in into the browser's cookie too, so
            // a sign-in started on one completes on another; in memory, one instance draws its own.
            var signInCookieKey: Data?
            if postgres {
                let client = try SampleSettings.postgresClient()
                postgresClient = client
                signInCookieKey = try SampleSettings.encryptionKey()
                store = try PostgresWebSessionStore(client: client, encryptionKey: try SampleSettings.encryptionKey())
            } else {
                store = InMemoryWebSessionStore()
            }
            var configuration = WebSignInConfiguration(publicURL: publicURL, signInCookieKey: signInCookieKey)
            if let sessionLifetime { configuration.sessionLifetime = sessionLifetime }
            let transport = AsyncHTTPClientTransport()
            let webSignIn = VaporWebSignIn(
                core: try WebSignInCore(
                    providers: SampleProvider.byName(providers), store: store, transport: transport, configuration: configuration,
                    nativeProviders: SampleProvider.nativeByName(providers)
                )
            )

            // Vapor reads its own command line; this sample's flags are ArgumentParser's, so Vapor is told only `serve`.
            let app = try await Application.make(Environment(name: "production", arguments: ["web-sign-in-vapor", "serve"]))
            app.http.server.configuration.hostname = "127.0.0.1"
            app.http.server.configuration.port = port
            app.http.server.configuration.serverName = "web-sign-in-vapor"
            app.middleware.use(webSignIn.middleware)
            try app.register(collection: webSignIn)
            let pages = SamplePages(core: webSignIn.core, providers: providers, instance: instance, server: "Vapor")
            app.get { request in Response(pages.home(request.signedInUser)) }
            // An API route that uses the user's tokens, as an app's own routes do (SamplePages.me).
            app.get("me") { request in Response(await pages.me(request.signedInUser)) }

            // PostgresNIO's client runs as long as the app does; the store's table is created before the first request.
            let postgresRun = postgresClient.map { client in Task { await client.run() } }
            // Started last, inside the `do`: a Vapor application must be shut down before it is released, whatever failed.
            var emulatorServers: EmulatorServers?
            do {
                if !served.isEmpty { emulatorServers = try await EmulatorServers.start(served) }
                if let postgresStore = store as? PostgresWebSessionStore { try await postgresStore.prepare() }
                print(
                    "web-sign-in-vapor \(instance): listening on http://127.0.0.1:\(port) (public URL \(publicURL.absoluteString)), "
                        + "\(providers.count) providers, sessions \(postgres ? "in PostgreSQL" : "in memory")")
                try await app.execute()
            } catch {
                await Self.shutDown(app: app, emulators: emulatorServers, transport: transport, postgres: postgresRun)
                throw error
            }
            await Self.shutDown(app: app, emulators: emulatorServers, transport: transport, postgres: postgresRun)
        }

        /// Stops Vapor, the emulators' servers, the providers' HTTP client and the PostgreSQL client, however the app
        /// ended.
        static func shutDown(app: Application, emulators: EmulatorServers?, transport: AsyncHTTPClientTransport, postgres: Task<Void, Never>?) async {
            try? await app.asyncShutdown()
            await emulators?.stop()
            try? await transport.shutdown()
            postgres?.cancel()
            await postgres?.value
        }
    }

#else
    @main
    struct VaporWebSignInApp {
        static func main() {
            print("web-sign-in-vapor needs the VaporSignIn and PostgresStorage traits: swift run --traits VaporSignIn,PostgresStorage web-sign-in-vapor")
        }
    }
#endif
