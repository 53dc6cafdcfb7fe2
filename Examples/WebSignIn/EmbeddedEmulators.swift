#if PostgresStorage && WebSignIn
    import AuthCore
    import AuthProviders
    import AuthEmulators
    import AuthTesting
    import Foundation
    import Hummingbird
    import ServiceLifecycle
    import WebSignInSampleSupport

    extension SampleProvider {
        /// Every emulator served by this process on consecutive ports from `firstPort`, and the servers to run.
        static func embedded(firstPort: Int) async throws -> [(provider: SampleProvider, server: any Service)] {
            var served: [(provider: SampleProvider, server: any Service)] = []
            for (index, entry) in emulators.enumerated() {
                let port = firstPort + index
                let origin = URL(string: "http://127.0.0.1:\(port)")!
                guard let emulator = ProviderEmulator.served(entry.emulator, at: origin), let idp = emulator.identityProvider else {
                    throw AuthError(.invalidConfiguration, "No emulator named \(entry.emulator).")
                }
                // People sign in on the login page (govuk-service's configuration predates it and is switched here).
                await idp.showLoginPage()
                let provider = SampleProvider(
                    name: entry.route,
                    provider: try ProviderRegistry.builtIn.provider(named: emulator.providerID.rawValue, configuration: emulator.configuration),
                    accounts: idp.loginAccounts
                )
                let server = Application(
                    responder: EmulatorResponder(emulator: emulator, origin: origin),
                    configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "\(entry.emulator)-emulator")
                )
                served.append((provider, server))
            }
            return served
        }
    }

    /// The HTTP front of an in-process emulator: every request goes to the same handler its in-process transport calls.
    struct EmulatorResponder: HTTPResponder {
        typealias Context = BasicRequestContext
        let emulator: ProviderEmulator
        let origin: URL

        func respond(to request: Request, context: Context) async throws -> Response {
            guard let url = URL(string: origin.absoluteString + request.uri.description) else { return Response(status: .badRequest) }
            var head = HTTPRequest(method: request.method, url: url)
            head.headerFields = request.headers
            let body = try await request.body.collect(upTo: 1 << 20)
            let (data, response) = await emulator.handle(CapturedRequest(head, body: body.readableBytes > 0 ? Data(buffer: body) : nil))
            return Response(status: response.status, headers: response.headerFields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
        }
    }
#endif
