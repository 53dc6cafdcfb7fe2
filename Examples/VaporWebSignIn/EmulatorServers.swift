#if PostgresStorage && VaporSignIn
    import AuthTesting
    import AuthVapor
    import Foundation
    import HTTPTypes
    import Vapor
    import WebSignInSampleSupport

    /// The emulators served by this process when no `--emulators-dir` is given: a Vapor application each, on its own
    /// port, whose every request goes through the checks `auth-emulator` makes, then to the same handler the emulator's
    /// in-process transport calls.
    struct EmulatorServers {
        let applications: [Application]

        /// Starts one server per emulator.
        static func start(_ served: [ServedEmulator]) async throws -> EmulatorServers {
            var applications: [Application] = []
            do {
                for emulator in served {
                    let app = try await Application.make(Environment(name: "production", arguments: ["\(emulator.name)-emulator"]))
                    applications.append(app)
                    app.http.server.configuration.serverName = "\(emulator.name)-emulator"
                    for method in [HTTPMethod.GET, .POST] {
                        // `**` matches every path below the root; the emulators answer nothing at the root itself.
                        app.on(method, "**", body: .collect(maxSize: ByteCount(value: 1 << 20))) { request in
                            await Self.forward(request, to: emulator)
                        }
                    }
                    try await app.server.start(address: .hostname("127.0.0.1", port: emulator.port))
                }
            } catch {
                await EmulatorServers(applications: applications).stop()
                throw error
            }
            return EmulatorServers(applications: applications)
        }

        /// Stops every server.
        func stop() async {
            for app in applications {
                await app.server.shutdown()
                try? await app.asyncShutdown()
            }
        }

        /// `request` as the emulator's in-process transport would send it, through the same conversions the
        /// sign-in routes use (`WebRequest(_:)`, `Response(_:)` in AuthVapor).
        static func forward(_ request: Request, to served: ServedEmulator) async -> Response {
            let incoming = WebRequest(request)
            guard let url = URL(string: served.origin.absoluteString + request.url.string) else { return Response(status: .badRequest) }
            var head = HTTPRequest(method: incoming.method, url: url)
            head.headerFields = incoming.headerFields
            // Through the checks `auth-emulator` makes: its `Host`, cross-site requests to the emulator's own endpoints.
            let (data, response) = await served.handle(
                CapturedRequest(head, body: incoming.body.flatMap { $0.isEmpty ? nil : $0 }), host: request.headers.first(name: .host)
            )
            return Response(WebResponse(status: response.status, headerFields: response.headerFields, body: data))
        }
    }
#endif
