#if PostgresStorage
    import ArgumentParser
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
        /// The same provider as the app's native client is registered (Sign in with Apple: the app's bundle id as
        /// client id), for the native sign-in routes; `nil` for a provider without them.
        public let nativeProvider: (any AuthProvider)?

        /// A button for `provider`, named `name` in the routes.
        public init(name: String, provider: any AuthProvider, accounts: [TestIdentityProvider.TestAccount], nativeProvider: (any AuthProvider)? = nil) {
            self.name = name
            self.provider = provider
            self.accounts = accounts
            self.nativeProvider = nativeProvider
        }

        /// The native app's client of the provider `route` configured with `configuration`, or `nil`: Sign in with
        /// Apple's emulated iOS app (`TestIdentityProvider.appleBundleID`), whose ID tokens name the bundle id.
        public static func nativeProvider(route: String, configuration: ProviderConfiguration) throws -> (any AuthProvider)? {
            guard route == "apple" else { return nil }
            var native = configuration
            native["client_id"] = .string(TestIdentityProvider.appleBundleID)
            return try ProviderRegistry.builtIn.provider(named: route, configuration: native)
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
                    accounts: [],
                    nativeProvider: try nativeProvider(route: entry.route, configuration: configuration)
                )
            }
        }

        /// Generic OpenID Connect providers (`OpenIDProvider`, the registry's `oidc`), one per `ROUTE=FILE` argument:
        /// the route name and a configuration file (`issuer`, `client_id`, `client_secret`, `redirect_uri`,
        /// `post_logout_redirect_uri`, …) for a client registered at that issuer with this app's URIs —
        /// `WebSignInConfiguration`'s callback, post-logout, front-channel, back-channel and initiate-login URLs for
        /// the route. Scripts/e2e/oidc-rp-suite/logout_profiles.py signs in this way at the OpenID Foundation's test
        /// OP.
        public static func openIDProviders(_ arguments: [String]) throws -> [SampleProvider] {
            try arguments.map { argument in
                let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                    throw ValidationError("--oidc-provider takes ROUTE=FILE, not '\(argument)'.")
                }
                let configuration = try ProviderConfiguration(contentsOf: URL(fileURLWithPath: parts[1]))
                return SampleProvider(name: parts[0], provider: try ProviderRegistry.builtIn.provider(named: "oidc", configuration: configuration), accounts: [])
            }
        }

        /// The route names and native clients of the providers that have one, as the native routes take them.
        public static func nativeByName(_ providers: [SampleProvider]) -> [String: any AuthProvider] {
            Dictionary(uniqueKeysWithValues: providers.compactMap { entry in entry.nativeProvider.map { (entry.name, $0) } })
        }

        /// The route names and providers, as the web sign-in routes take them.
        public static func byName(_ providers: [SampleProvider]) -> [String: any AuthProvider] {
            Dictionary(uniqueKeysWithValues: providers.map { ($0.name, $0.provider) })
        }
    }
#endif
