#if PostgresStorage && HummingbirdSignIn
    import AuthEmulators
    import AuthTesting
    import Foundation
    import Hummingbird
    import ServiceLifecycle
    import WebSignInSampleSupport

    extension SampleProvider {
        /// Every emulator served by this process on consecutive ports from `firstPort`, and the servers to run.
        static func embedded(firstPort: Int) async throws -> [(provider: SampleProvider, server: any Service)] {
            try await ServedEmulator.all(firstPort: firstPort).map { served in
                let server = Application(
                    responder: EmulatorResponder(served: served),
                    configuration: .init(address: .hostname("127.0.0.1", port: served.port), serverName: "\(served.name)-emulator")
                )
                return (served.provider, server)
            }
        }
    }

    /// The HTTP front of an in-process emulator: every request goes through the checks `auth-emulator` makes (its
    /// `Host`, cross-site requests to the emulator's own endpoints), then to the same handler its in-process transport
    /// calls.
    struct EmulatorResponder: HTTPResponder {
        typealias Context = BasicRequestContext
        let served: ServedEmulator

        func respond(to request: Request, context: Context) async throws -> Response {
            guard let url = URL(string: served.origin.absoluteString + request.uri.description) else { return Response(status: .badRequest) }
            var head = HTTPRequest(method: request.method, url: url)
            head.headerFields = request.headers
            let body = try await request.body.collect(upTo: 1 << 20)
            // swift-http-types keeps `Host` as the request's authority, apart from the header fields.
            let (data, response) = await served.handle(CapturedRequest(head, body: body.readableBytes > 0 ? Data(buffer: body) : nil), host: request.head.authority)
            return Response(status: response.status, headers: response.headerFields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
        }
    }
#endif
