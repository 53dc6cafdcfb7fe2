import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory scaffold-provider --name Okta [--issuer URL]`
///
/// Creates `Sources/AuthOkta` (an OpenID Connect provider with one hook to customise), `Tests/AuthOktaTests`
/// (the provider conformance suite against an in-process emulator) and `Examples/OktaExample` (the executable target
/// `okta-example`, not a product, as every sample), and appends their targets to Package.swift. `swift build`,
/// `swift test` and `swift run okta-example` pass right after.
@main
struct ScaffoldProvider: CommandPlugin {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        guard let name = extractor.extractOption(named: "name").first else {
            throw Failure(description: "usage: swift package --allow-writing-to-package-directory scaffold-provider --name Okta [--issuer https://id.example.com]")
        }
        let issuer = extractor.extractOption(named: "issuer").first ?? "https://id.example.com"
        guard Self.isValidName(name) else {
            throw Failure(description: "'\(name)' is not a valid provider name: use an UpperCamelCase Swift identifier of letters and digits, such as Okta or KeycloakEU.")
        }
        guard URL(string: issuer)?.scheme != nil else {
            throw Failure(description: "--issuer must be an absolute URL, such as https://id.example.com.")
        }
        let root = context.package.directoryURL
        let module = "Auth\(name)"
        let example = "\(name.lowercased())-example"
        let existing = context.package.targets.map(\.name)
        for target in [module, "\(module)Tests", example] where existing.contains(target) {
            throw Failure(description: "A target named \(target) already exists; choose another name.")
        }
        let files: [(String, String)] = [
            ("Sources/\(module)/\(name)Provider.swift", Templates.provider(name: name, issuer: issuer)),
            ("Tests/\(module)Tests/\(name)ProviderTests.swift", Templates.tests(name: name)),
            ("Examples/\(name)Example/main.swift", Templates.example(name: name)),
        ]
        let manager = FileManager.default
        for (path, _) in files where manager.fileExists(atPath: root.appendingPathComponent(path).path) {
            throw Failure(description: "\(path) already exists; choose another name.")
        }
        for (path, contents) in files {
            let url = root.appendingPathComponent(path)
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try contents.write(to: url, atomically: true, encoding: .utf8)
            print("created \(path)")
        }
        let manifest = root.appendingPathComponent("Package.swift")
        let handle = try FileHandle(forWritingTo: manifest)
        handle.seekToEndOfFile()
        handle.write(Data(Templates.manifestAddition(name: name).utf8))
        try handle.close()
        print("updated Package.swift: \(module), \(module)Tests, \(example)")
        print("next: swift build && swift test --filter \(module)Tests && swift run \(example)")
    }

    static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, (2...40).contains(name.count),
            CharacterSet.uppercaseLetters.contains(first), first.isASCII
        else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && CharacterSet.alphanumerics.contains($0) }
    }
}

enum Templates {
    static func provider(name: String, issuer: String) -> String {
        let id = name.lowercased()
        return """
        public import AuthCore
        import AuthOIDC

        /// \(name): an OpenID Connect provider (issuer, for example, \(issuer)).
        ///
        /// Configuration keys: `issuer`, `client_id`, `redirect_uri`, `scope` — see ``OpenIDProvider``. Override only
        /// what \(name) does differently; every other hook keeps standard OpenID Connect behaviour.
        public struct \(name)Provider: AuthProvider {
            /// `\(id)`.
            public static let id: ProviderID = "\(id)"
            /// `\(name)`.
            public static let displayName = "\(name)"

            let oidc: OpenIDProvider

            /// Reads the configuration dictionary.
            public init(configuration: ProviderConfiguration) throws {
                oidc = try OpenIDProvider(configuration: configuration)
            }

            /// The client registration.
            public var client: ClientRegistration { oidc.client }
            /// Discovery at the issuer.
            public var endpointSource: EndpointSource { oidc.endpointSource }

            /// \(name)'s extra authorization parameters, if any.
            public func authorizationParameters(for request: SignInContext) -> [String: String] {
                oidc.authorizationParameters(for: request)
            }
        }

        """
    }

    static func tests(name: String) -> String {
        """
        import Auth\(name)
        import AuthCore
        import AuthTesting
        import Testing

        /// An in-process stand-in for \(name): AuthTesting's identity provider. Make it strict about \(name)'s
        /// quirks with `configuration.quirks` so these tests prove the provider sends them.
        func \(name.prefix(1).lowercased() + name.dropFirst())Emulator() -> ProviderEmulator {
            let clock = ManualClock()
            let idp = TestIdentityProvider(clock: clock)
            return ProviderEmulator(
                providerID: \(name)Provider.id,
                configuration: ProviderConfiguration([
                    "issuer": .string(TestIdentityProvider.defaultIssuer.absoluteString),
                    "client_id": .string(TestIdentityProvider.defaultClientID),
                    "redirect_uri": .string(TestIdentityProvider.defaultRedirectURI.absoluteString),
                    "scope": "openid email offline_access",
                ]),
                transport: idp.transport,
                userAgent: HeadlessUserAgent(transport: idp.transport),
                clock: clock,
                route: "web",
                supportsRefresh: true
            )
        }

        @Suite("\(name)Provider")
        struct \(name)ProviderTests {
            @Test("Passes the provider conformance suite")
            func conformance() async throws {
                try await ProviderConformance.check(\(name)Provider.self, emulator: \(name.prefix(1).lowercased() + name.dropFirst())Emulator())
            }
        }

        """
    }

    static func example(name: String) -> String {
        """
        // Signs in with \(name)Provider against an in-process identity provider and prints the subject.
        //
        //     swift run \(name.lowercased())-example
        import Auth\(name)
        import AuthCore
        import AuthTesting

        let idp = TestIdentityProvider()
        do {
            let provider = try \(name)Provider(configuration: ProviderConfiguration([
                "issuer": .string(TestIdentityProvider.defaultIssuer.absoluteString),
                "client_id": .string(TestIdentityProvider.defaultClientID),
                "redirect_uri": .string(TestIdentityProvider.defaultRedirectURI.absoluteString),
            ]))
            // The in-process identity provider stamps tokens with its own clock; the client must share it.
            let client = AuthClient(provider: provider, transport: idp.transport, logger: RecordingLogger(), clock: idp.clock)
            let session = try await client.signIn(with: HeadlessUserAgent(transport: idp.transport))
            print("signed in with \\(\(name)Provider.displayName) as \\(await session.subject ?? "-")")
        } catch {
            print("sign-in failed: \\(error)")
        }

        """
    }

    static func manifestAddition(name: String) -> String {
        let module = "Auth\(name)"
        return """

        // Added by `swift package scaffold-provider --name \(name)`.
        // The sample is an executable target only, as every sample: `swift run \(name.lowercased())-example` from a clone.
        // `packageAccess: false`: like an app, it can call public API only.
        package.products += [
            .library(name: "\(module)", targets: ["\(module)"]),
        ]
        package.targets += [
            .target(name: "\(module)", dependencies: ["AuthCore", "AuthOIDC"], swiftSettings: strictSettings),
            .testTarget(name: "\(module)Tests", dependencies: ["\(module)", "AuthCore", "AuthTesting"], swiftSettings: strictSettings),
            .executableTarget(
                name: "\(name.lowercased())-example", dependencies: ["\(module)", "AuthCore", "AuthTesting"], path: "Examples/\(name)Example",
                packageAccess: false, swiftSettings: strictSettings
            ),
        ]

        """
    }
}
