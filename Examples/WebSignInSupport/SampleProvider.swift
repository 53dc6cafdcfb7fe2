#if PostgresStorage
    public import AuthCore
    import AuthProviders
    public import AuthEmulators
    public import AuthTesting
    public import Foundation

    /// One "Sign in with …" button: the provider, its name in the routes, and the test accounts its emulator accepts.
    public struct SampleProvider: Sendable {
        /// The name in the routes (`/auth/<name>/login`).
        public let name: String
        /// The provider the routes sign in with.
        public let provider: any AuthProvider
        /// The emulator's test accounts, when this process serves it (shown on the page).
        public let accounts: [TestIdentityProvider.TestAccount]

        /// A button for `provider`, named `name` in the routes.
        public init(name: String, provider: any AuthProvider, accounts: [TestIdentityProvider.TestAccount]) {
            self.name = name
            self.provider = provider
            self.accounts = accounts
        }

        /// Every emulator `auth-emulator emulate all` serves, by its name there and its route name (the provider's name in
        /// the registry): one button each, so a provider whose emulator joins the catalog joins the page. GOV.UK One Login
        /// signs in to a web service with the service flow (`govuk-service`); its app flow (`govuk`) is not a web one.
        public static let emulators: [(emulator: String, route: String)] = ProviderEmulator.servedEmulatorNames.compactMap { name in
            switch name {
            case "govuk": nil
            case "govuk-service": (name, "govuk")
            default: (name, name)
            }
        }

        /// The providers of the configuration files `auth-emulator emulate all --config-dir DIR` wrote.
        public static func fromDirectory(_ directory: URL) throws -> [SampleProvider] {
            try emulators.map { entry in
                let configuration = try ProviderConfiguration(contentsOf: directory.appendingPathComponent("\(entry.emulator).json"))
                return SampleProvider(
                    name: entry.route,
                    provider: try ProviderRegistry.builtIn.provider(named: entry.route, configuration: configuration),
                    accounts: []
                )
            }
        }

        /// The route names and providers, as the web sign-in routes take them.
        public static func byName(_ providers: [SampleProvider]) -> [String: any AuthProvider] {
            Dictionary(uniqueKeysWithValues: providers.map { ($0.name, $0.provider) })
        }
    }
#endif
