#if PostgresStorage
    import AuthEmulators
    public import AuthCore
    import AuthProviders
    public import AuthTesting
    public import Foundation

    /// An emulator this process serves over HTTP for a sample, and its button; each sample puts its own framework's
    /// server in front of ``emulator`` (every request to `ProviderEmulator.handle(_:)`).
    public struct ServedEmulator: Sendable {
        /// The button: the provider configured for the emulator at ``origin``.
        public let provider: SampleProvider
        /// The emulator, to answer every request that reaches ``port``.
        public let emulator: ProviderEmulator
        /// `http://127.0.0.1:<port>`.
        public let origin: URL
        /// The port to listen on.
        public let port: Int
        /// The emulator's name in `auth-emulator emulate` (`grab`, `govuk-service`, …).
        public let name: String

        /// Answers `request` as `auth-emulator emulate` does: first the checks every HTTP front of an emulator makes
        /// (`EmulatorRequestGate`: a `Host` that is not this emulator's is 421, a cross-site request to its own
        /// endpoints 403), then the emulator. `host` is the request's `Host` as the server read it.
        public func handle(_ request: CapturedRequest, host: String?) async -> (Data, HTTPResponse) {
            if let refused = EmulatorRequestGate(origin: origin, port: port).refusal(of: request, host: host) { return refused }
            return await emulator.handle(request)
        }

        /// Every emulator the samples show, on consecutive ports from `firstPort`, its login page on (people sign in on
        /// it; govuk-service's configuration predates it and is switched here).
        public static func all(firstPort: Int) async throws -> [ServedEmulator] {
            var served: [ServedEmulator] = []
            for (index, entry) in SampleProvider.emulators.enumerated() {
                let port = firstPort + index
                let origin = URL(string: "http://127.0.0.1:\(port)")!
                guard let emulator = ProviderEmulator.served(entry.emulator, at: origin), let idp = emulator.identityProvider else {
                    throw AuthError(.invalidConfiguration, "No emulator named \(entry.emulator).")
                }
                await idp.showLoginPage()
                let provider = SampleProvider(
                    name: entry.route,
                    provider: try ProviderRegistry.builtIn.provider(named: emulator.providerID.rawValue, configuration: emulator.configuration),
                    accounts: idp.loginAccounts,
                    nativeProvider: try SampleProvider.nativeProvider(route: entry.route, configuration: emulator.configuration)
                )
                served.append(ServedEmulator(provider: provider, emulator: emulator, origin: origin, port: port, name: entry.emulator))
            }
            return served
        }
    }
#endif
