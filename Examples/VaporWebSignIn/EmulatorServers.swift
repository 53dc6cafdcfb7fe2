#if PostgresStorage && VaporSignIn
    import AuthTesting
    import Foundation
    import HTTPTypes
    import Vapor
    import WebSignInSampleSupport

    /// The emulators served by this process when no `--emulators-dir` is given: a Vapor application each, on its own
    /// port, whose every request goes to the same handler the emulator's in-process transport calls.
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

        static func forward(_ request: Request, to served: ServedEmulator) async -> Response {
            guard let url = URL(string: served.origin.absoluteString + request.url.string), let method = HTTPRequest.Method(request.method.rawValue) else {
                return Response(status: .badRequest)
            }
            var head = HTTPRequest(method: method, url: url)
            for (name, value) in request.headers {
                if let fieldName = HTTPField.Name(name) { head.headerFields.append(HTTPField(name: fieldName, value: value)) }
            }
            let body = request.body.data.flatMap { $0.readableBytes > 0 ? Data($0.readableBytesView) : nil }
            let (data, response) = await served.emulator.handle(CapturedRequest(head, body: body))
            var headers = HTTPHeaders()
            for field in response.headerFields { headers.add(name: field.name.rawName, value: field.value) }
            return Response(status: HTTPResponseStatus(statusCode: response.status.code), headers: headers, body: Response.Body(data: data))
        }
    }
#endif
