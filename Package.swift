// swift-tools-version:6.2
import PackageDescription

/// Settings every target of ours shares: Swift 6 language mode (the tools-version default), strict
/// concurrency, and warnings as errors (ignored by SwiftPM when we are somebody's remote dependency).
let strictSettings: [SwiftSetting] = [
    .treatAllWarnings(as: .error),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault")
]

let package = Package(
    name: "swift-auth-providers",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        // The engine and its plug-in protocols.
        .library(name: "AuthCore", targets: ["AuthCore"]),
        // Credentials in files (a CLI, a Linux app, a server without a database) and a cross-process lock for any storage.
        .library(name: "AuthFileStorage", targets: ["AuthFileStorage"]),
        // The device authorization grant (RFC 8628), for a device without a browser: a TV, a command-line tool.
        .library(name: "AuthDeviceFlow", targets: ["AuthDeviceFlow"]),
        // Token exchange (RFC 8693) and OpenID Connect Native SSO for Mobile Apps: tokens for another audience, and an
        // app family's second app signed in without a browser.
        .library(name: "AuthTokenExchange", targets: ["AuthTokenExchange"]),
        // Dynamic client registration (RFC 7591 / 7592) and WebFinger issuer discovery.
        .library(name: "AuthDynamicRegistration", targets: ["AuthDynamicRegistration"]),
        // Providers: each imports AuthCore only, so a server that selects one by name links no URLSession or Apple code.
        .library(name: "AuthOIDC", targets: ["AuthOIDC"]),
        .library(name: "AuthGrab", targets: ["AuthGrab"]),
        .library(name: "AuthUber", targets: ["AuthUber"]),
        .library(name: "AuthSchibsted", targets: ["AuthSchibsted"]),
        .library(name: "AuthOneLogin", targets: ["AuthOneLogin"]),
        .library(name: "AuthGOVUK", targets: ["AuthGOVUK"]),
        .library(name: "AuthGoogle", targets: ["AuthGoogle"]),
        .library(name: "AuthMicrosoft", targets: ["AuthMicrosoft"]),
        .library(name: "AuthGitHub", targets: ["AuthGitHub"]),
        .library(name: "AuthSignInWithApple", targets: ["AuthSignInWithApple"]),
        .library(name: "AuthProviders", targets: ["AuthProviders"]),
        // Opt-in layers for apps migrating from a vendor SDK: the vendor's names over the provider, app defaults.
        .library(name: "GrabCompat", targets: ["GrabCompat"]),
        .library(name: "UberCompat", targets: ["UberCompat"]),
        .library(name: "SchibstedCompat", targets: ["SchibstedCompat"]),
        .library(name: "OneLoginCompat", targets: ["OneLoginCompat"]),
        .library(name: "GOVUKCompat", targets: ["GOVUKCompat"]),
        // Apps: hand-off to native apps, vendor-session adoption, persistent storage; Apple platform shells.
        .library(name: "AuthAppSupport", targets: ["AuthAppSupport"]),
        // Linux: credentials in the freedesktop Secret Service (GNOME Keyring, KWallet) through libsecret's secret-tool.
        .library(name: "AuthSecretService", targets: ["AuthSecretService"]),
        .library(name: "AuthApple", targets: ["AuthApple"]),
        // Transports, user agents, observability.
        .library(name: "AuthURLSession", targets: ["AuthURLSession"]),
        .library(name: "AuthAsyncHTTPClient", targets: ["AuthAsyncHTTPClient"]),
        .library(name: "AuthLoopback", targets: ["AuthLoopback"]),
        .library(name: "AuthObservability", targets: ["AuthObservability"]),
        // Servers.
        .library(name: "AuthWebSignIn", targets: ["AuthWebSignIn"]),
        .library(name: "AuthHummingbird", targets: ["AuthHummingbird"]),
        .library(name: "AuthVapor", targets: ["AuthVapor"]),
        .library(name: "AuthPostgres", targets: ["AuthPostgres"]),
        // Tests and emulators.
        .library(name: "AuthTesting", targets: ["AuthTesting"]),
        .library(name: "AuthEmulators", targets: ["AuthEmulators"]),
        // Not API: the package-level parsers and verifiers for this repository's fuzzers and benchmarks. A product
        // only because Fuzz/ and Benchmarks/ are packages of their own, which can depend on nothing else.
        .library(name: "_AuthHarness", targets: ["_AuthHarness"]),
        // Tools: the user's CLI (links no test code) and the emulators' server and demo. `check-auth-config` runs its
        // tool (the auth-config-check target) itself, and the samples are executable targets only (`swift run
        // oidc-example` from a clone): a package that depends on this one sees neither.
        .executable(name: "auth-cli", targets: ["AuthCLI"]),
        .executable(name: "auth-emulator", targets: ["AuthEmulatorTool"]),
        .plugin(name: "CheckAuthConfig", targets: ["CheckAuthConfig"]),
        .plugin(name: "ScaffoldProvider", targets: ["ScaffoldProvider"])
    ],
    // Opt-in: `.package(url: …, from: …, traits: ["Observability"])` brings AuthObservability's tracing and metrics.
    // `traits: ["AsyncHTTPClientTransport"]` brings AuthAsyncHTTPClient's transport (async-http-client).
    // `traits: ["HummingbirdSignIn"]` brings AuthHummingbird, `traits: ["VaporSignIn"]` AuthVapor,
    // `traits: ["PostgresStorage"]` AuthPostgres. The framework-neutral core they route to (AuthWebSignIn) needs no
    // trait: it depends on nothing optional.
    traits: [
        .trait(name: "Observability", description: "AuthObservability: tracing (swift-distributed-tracing) and metrics (swift-metrics)"),
        .trait(name: "AsyncHTTPClientTransport", description: "AuthAsyncHTTPClient: an HTTPTransport on async-http-client"),
        // One trait per web framework: a Vapor app never resolves Hummingbird, and the other way round. A server signs
        // in through AsyncHTTPClient, so each brings that transport too.
        .trait(
            name: "HummingbirdSignIn",
            description: "AuthHummingbird: \"Sign in with …\" routes for Hummingbird 2 web apps, sessions in memory",
            enabledTraits: ["AsyncHTTPClientTransport"]
        ),
        .trait(
            name: "VaporSignIn",
            description: "AuthVapor: \"Sign in with …\" routes for Vapor 4 web apps, sessions in memory",
            enabledTraits: ["AsyncHTTPClientTransport"]
        ),
        // PostgreSQL is a trait of its own: an app that keeps sessions in memory or in its own store never resolves
        // postgres-nio. It goes with either framework's trait (which brings the transport); it needs none itself.
        .trait(
            name: "PostgresStorage",
            description: "AuthPostgres: web sessions and credentials in PostgreSQL (postgres-nio), for HummingbirdSignIn or VaporSignIn"
        )
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // The transport seam's types (HTTPRequest / HTTPResponse), as Hummingbird 2 and AsyncHTTPClient speak them.
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // auth-cli and the sample executables only; SwiftPM does not build it for apps that use the libraries.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // AuthObservability only (tracing and metrics), behind the "Observability" trait: SwiftPM neither fetches nor
        // builds them for apps that do not enable it.
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        // AuthAsyncHTTPClient only, behind the "AsyncHTTPClientTransport" trait.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // AuthAsyncHTTPClient's mutual TLS (a client certificate, RFC 8705); async-http-client depends on it already.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // AuthHummingbird and the web sign-in sample only, behind the "HummingbirdSignIn" trait. Hummingbird's own default
        // traits (swift-configuration, full Foundation) are not needed.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        // AuthVapor and its sample only, behind the "VaporSignIn" trait.
        .package(url: "https://github.com/vapor/vapor", from: "4.122.3"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // Documentation only: `swift package generate-documentation`.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0")
    ],
    targets: [
        // MARK: The engine

        .target(
            name: "AuthCore",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types")
            ],
            swiftSettings: strictSettings
        ),
        // The storage implementations that need a file system, beside the protocol (as NIOPosix beside NIOCore).
        .target(
            name: "AuthFileStorage",
            dependencies: ["AuthCore", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strictSettings
        ),
        // A grant beside the code flow, on AuthCore's package seam for grants (`AuthClient+GrantModules.swift`): it ends
        // in the same identity gate, and adds nothing to AuthCore's public face.
        .target(name: "AuthDeviceFlow", dependencies: ["AuthCore"], swiftSettings: strictSettings),
        // Token exchange (RFC 8693) and Native SSO, on the same seam: nothing added to AuthCore's public face but the
        // identity context's `tokenExchange` grant.
        .target(name: "AuthTokenExchange", dependencies: ["AuthCore"], swiftSettings: strictSettings),
        // Dynamic client registration (RFC 7591 / 7592) and WebFinger: AuthCore only, nothing added to its public face.
        .target(name: "AuthDynamicRegistration", dependencies: ["AuthCore"], swiftSettings: strictSettings),

        // MARK: Providers (AuthCore only: Scripts/ci/check-boundaries.sh fails the test command otherwise)

        .target(name: "AuthOIDC", dependencies: ["AuthCore"], swiftSettings: strictSettings),
        .target(name: "AuthGrab", dependencies: ["AuthCore"], swiftSettings: strictSettings),
        .target(name: "AuthUber", dependencies: ["AuthCore"], swiftSettings: strictSettings),
        .target(name: "AuthSchibsted", dependencies: ["AuthCore"], swiftSettings: strictSettings),
        .target(name: "AuthOneLogin", dependencies: ["AuthCore"], swiftSettings: strictSettings),
        .target(name: "AuthGOVUK", dependencies: ["AuthCore"], swiftSettings: strictSettings),
        .target(name: "AuthGoogle", dependencies: ["AuthCore"], swiftSettings: strictSettings),
        .target(name: "AuthMicrosoft", dependencies: ["AuthCore"], swiftSettings: strictSettings),
        .target(name: "AuthGitHub", dependencies: ["AuthCore"], swiftSettings: strictSettings),
        .target(name: "AuthSignInWithApple", dependencies: ["AuthCore"], swiftSettings: strictSettings),
        .target(
            name: "AuthProviders",
            dependencies: [
                "AuthCore", "AuthOIDC", "AuthGOVUK", "AuthOneLogin", "AuthSchibsted", "AuthUber", "AuthGrab", "AuthGoogle", "AuthMicrosoft", "AuthGitHub", "AuthSignInWithApple"
            ],
            swiftSettings: strictSettings
        ),

        // MARK: Apps

        // Platform-neutral app machinery (tested on Linux); its Keychain shells compile where Security exists.
        .target(name: "AuthAppSupport", dependencies: ["AuthCore", "AuthFileStorage"], swiftSettings: strictSettings),
        // The Secret Service through `secret-tool` (a runtime tool, not a C library): it links nothing and depends on no
        // package, so it needs no trait; an app that does not depend on this product never builds it.
        .target(name: "AuthSecretService", dependencies: ["AuthCore", "AuthFileStorage"], swiftSettings: strictSettings),
        // Apple platforms: the platform files compile only where their frameworks exist (#if canImport); the
        // neutral decisions (callback matching) compile and are tested on Linux.
        .target(name: "AuthApple", dependencies: ["AuthCore", "AuthAppSupport"], swiftSettings: strictSettings),
        // The vendor look-alike APIs, opt-in. Their defaults (the Keychain, URLSession) live here, not in the providers.
        .target(
            name: "GrabCompat",
            dependencies: ["AuthGrab", "AuthCore", "AuthAppSupport", "AuthApple", "AuthURLSession"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "UberCompat",
            dependencies: ["AuthUber", "AuthCore", "AuthAppSupport", "AuthApple", "AuthURLSession"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "SchibstedCompat",
            dependencies: [
                "AuthSchibsted", "AuthCore", "AuthAppSupport", "AuthApple", "AuthURLSession",
                .product(name: "Crypto", package: "swift-crypto")
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "OneLoginCompat",
            dependencies: ["AuthOneLogin", "AuthCore", "AuthAppSupport", "AuthApple", "AuthURLSession"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "GOVUKCompat",
            dependencies: ["AuthGOVUK", "AuthCore", "AuthAppSupport", "AuthApple", "AuthURLSession"],
            swiftSettings: strictSettings
        ),

        // MARK: Transports and user agents

        // URLSession (FoundationNetworking on Linux) lives here, not in AuthCore: a server that sends through
        // AsyncHTTPClient links no libcurl.
        .target(
            name: "AuthURLSession",
            dependencies: [
                "AuthCore",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HTTPTypesFoundation", package: "swift-http-types")
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "AuthAsyncHTTPClient",
            dependencies: [
                "AuthCore",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["AsyncHTTPClientTransport"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClientTransport"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClientTransport"])),
                // TLSConfiguration for a mutual-TLS client identity (RFC 8705); already in the graph through async-http-client.
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["AsyncHTTPClientTransport"]))
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "AuthLoopback",
            dependencies: [
                "AuthCore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio")
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "AuthObservability",
            dependencies: [
                "AuthCore",
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Observability"])),
                .product(name: "CoreMetrics", package: "swift-metrics", condition: .when(traits: ["Observability"]))
            ],
            swiftSettings: strictSettings
        ),

        // MARK: Servers

        // The framework-neutral web sign-in core (no web framework, no database driver): what the Hummingbird
        // adapter, the Vapor adapter and any other framework's, route requests to. It needs no trait: it depends on
        // nothing that AuthCore does not (swift-crypto, swift-http-types), so it costs an app nothing to resolve.
        .target(
            name: "AuthWebSignIn",
            dependencies: [
                "AuthCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types")
            ],
            swiftSettings: strictSettings
        ),
        // Compiles to nothing without the "HummingbirdSignIn" trait: apps that do not enable it never resolve Hummingbird.
        // It depends on no database driver.
        .target(
            name: "AuthHummingbird",
            dependencies: [
                "AuthCore", "AuthWebSignIn",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["HummingbirdSignIn"]))
            ],
            swiftSettings: strictSettings
        ),
        // Compiles to nothing without the "VaporSignIn" trait: apps that do not enable it never resolve Vapor.
        .target(
            name: "AuthVapor",
            dependencies: [
                "AuthCore", "AuthWebSignIn",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Vapor", package: "vapor", condition: .when(traits: ["VaporSignIn"]))
            ],
            swiftSettings: strictSettings
        ),
        // Compiles to nothing without the "PostgresStorage" trait: only apps that keep sessions in PostgreSQL
        // resolve postgres-nio.
        .target(
            name: "AuthPostgres",
            dependencies: [
                "AuthCore", "AuthWebSignIn",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgresStorage"]))
            ],
            swiftSettings: strictSettings
        ),

        // MARK: Testing and emulators

        // Entry points into AuthCore's `package` parsers and verifiers for Fuzz/ and Benchmarks/, which are separate
        // packages (libFuzzer flags, package-benchmark) and so cannot see `package` declarations. The underscore says
        // what `_CryptoExtras` says: no stability promise, not for apps.
        .target(
            name: "_AuthHarness",
            dependencies: ["AuthCore", "AuthAppSupport", .product(name: "HTTPTypes", package: "swift-http-types")],
            swiftSettings: strictSettings
        ),
        .target(
            name: "AuthTesting",
            dependencies: [
                "AuthCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types")
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "AuthEmulators",
            dependencies: [
                "AuthCore", "AuthTesting", "AuthAppSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto")
            ],
            swiftSettings: strictSettings
        ),

        // MARK: Tools

        // What both command-line tools print (results, errors, sessions); no test code.
        .target(
            name: "CommandLineOutput",
            dependencies: ["AuthCore", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strictSettings
        ),
        // The user's tool: any provider, any issuer. Links no test code (the test command checks its symbols).
        .executableTarget(
            name: "AuthCLI",
            dependencies: [
                "AuthProviders", "AuthFileStorage", "AuthDeviceFlow", "AuthDynamicRegistration", "AuthLoopback", "AuthAsyncHTTPClient", "AuthURLSession", "AuthSecretService",
                "AuthTokenExchange", "CommandLineOutput",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ],
            swiftSettings: strictSettings
        ),
        // `auth-emulator emulate` and `auth-emulator demo`: the embedded emulators, in process or over HTTP.
        .executableTarget(
            name: "AuthEmulatorTool",
            dependencies: [
                "AuthProviders", "AuthDeviceFlow", "AuthEmulators", "AuthTesting", "CommandLineOutput",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio")
            ],
            swiftSettings: strictSettings
        ),
        .target(name: "AuthConfigCheck", dependencies: ["AuthCore", "AuthProviders"], swiftSettings: strictSettings),
        .executableTarget(
            name: "auth-config-check",
            dependencies: ["AuthConfigCheck", "AuthCore"],
            path: "Sources/AuthConfigCheckTool",
            swiftSettings: strictSettings
        ),
        .plugin(
            name: "CheckAuthConfig",
            capability: .command(
                intent: .custom(verb: "check-auth-config", description: "Check an app's Info.plist and provider configuration files.")
            ),
            dependencies: ["auth-config-check"],
            path: "Plugins/CheckAuthConfig"
        ),
        .plugin(
            name: "ScaffoldProvider",
            capability: .command(
                intent: .custom(verb: "scaffold-provider", description: "Create a new provider target, its tests and a sample."),
                permissions: [.writeToPackageDirectory(reason: "It creates Sources/Auth<Name>, Tests/Auth<Name>Tests, Examples/<Name>Example and adds them to Package.swift.")]
            ),
            path: "Plugins/ScaffoldProvider"
        ),

        // MARK: Examples

        // Executable targets, not products: `swift run grab-example` (the web sign-in samples: `swift run --traits
        // HummingbirdSignIn,PostgresStorage web-sign-in`) runs one from a clone, and a package that depends on this one
        // sees none of them. Each target is named as the command users run. `packageAccess: false`: a sample shows what
        // an app can write, so this package's `package` declarations are out of its reach, as they are out of an app's.

        .target(
            name: "ExampleSupport",
            dependencies: ["AuthProviders", "AuthLoopback", "AuthTesting", "AuthEmulators", "AuthAsyncHTTPClient", "AuthURLSession"],
            path: "Examples/ExampleSupport",
            packageAccess: false,
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "oidc-example",
            dependencies: ["AuthOIDC", "ExampleSupport"],
            path: "Examples/OIDCExample",
            packageAccess: false,
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "govuk-example",
            dependencies: ["AuthGOVUK", "GOVUKCompat", "AuthTesting", "AuthEmulators", "ExampleSupport"],
            path: "Examples/GOVUKExample",
            packageAccess: false,
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "grab-example",
            dependencies: ["AuthGrab", "GrabCompat", "AuthFileStorage", "ExampleSupport"],
            path: "Examples/GrabExample",
            packageAccess: false,
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "google-example",
            dependencies: ["AuthGoogle", "AuthEmulators", "AuthTesting", "ExampleSupport"],
            path: "Examples/GoogleExample",
            packageAccess: false,
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "microsoft-example",
            dependencies: ["AuthMicrosoft", "AuthEmulators", "AuthTesting", "ExampleSupport"],
            path: "Examples/MicrosoftExample",
            packageAccess: false,
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "apple-example",
            dependencies: ["AuthSignInWithApple", "AuthEmulators", "AuthTesting", "ExampleSupport"],
            path: "Examples/AppleExample",
            packageAccess: false,
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "github-example",
            dependencies: ["AuthGitHub", "AuthDeviceFlow", "AuthEmulators", "AuthTesting", "ExampleSupport"],
            path: "Examples/GitHubExample",
            packageAccess: false,
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "uber-example",
            dependencies: ["AuthUber", "UberCompat", "ExampleSupport"],
            path: "Examples/UberExample",
            packageAccess: false,
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "schibsted-example",
            dependencies: ["AuthSchibsted", "SchibstedCompat", "AuthAppSupport", "ExampleSupport"],
            path: "Examples/SchibstedExample",
            packageAccess: false,
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "onelogin-example",
            dependencies: ["AuthOneLogin", "OneLoginCompat", "ExampleSupport"],
            path: "Examples/OneLoginExample",
            packageAccess: false,
            swiftSettings: strictSettings
        ),
        // What the two web sign-in samples share: the page, the providers from the emulators' files, the settings.
        .target(
            name: "WebSignInSampleSupport",
            dependencies: [
                "AuthWebSignIn", "AuthPostgres", "AuthProviders", "AuthTesting", "AuthEmulators",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgresStorage"]))
            ],
            path: "Examples/WebSignInSupport",
            packageAccess: false,
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "web-sign-in-vapor",
            dependencies: [
                "AuthVapor", "AuthWebSignIn", "AuthPostgres", "AuthAsyncHTTPClient", "WebSignInSampleSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgresStorage"])),
                .product(name: "Vapor", package: "vapor", condition: .when(traits: ["VaporSignIn"]))
            ],
            path: "Examples/VaporWebSignIn",
            packageAccess: false,
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "web-sign-in",
            dependencies: [
                "AuthHummingbird", "AuthWebSignIn", "AuthPostgres", "AuthProviders", "AuthTesting", "AuthEmulators", "AuthAsyncHTTPClient",
                "WebSignInSampleSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["HummingbirdSignIn"])),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["HummingbirdSignIn"]))
            ],
            path: "Examples/WebSignIn",
            packageAccess: false,
            swiftSettings: strictSettings
        ),

        // MARK: Tests

        .testTarget(
            name: "AuthTokenExchangeTests",
            dependencies: ["AuthTokenExchange", "AuthCore", "AuthFileStorage", "AuthTesting"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AuthCoreTests",
            dependencies: [
                // The device grant's tests share this target's fixture: AuthDeviceFlow has no test target of its own.
                "AuthCore", "AuthFileStorage", "AuthDeviceFlow", "AuthTesting",
                // Test keys for private_key_jwt are generated here.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto")
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(name: "AuthOIDCTests", dependencies: ["AuthOIDC", "AuthTesting"], swiftSettings: strictSettings),
        .testTarget(name: "AuthGOVUKTests", dependencies: ["AuthGOVUK", "GOVUKCompat", "AuthProviders", "AuthTesting", "AuthEmulators"], swiftSettings: strictSettings),
        .testTarget(name: "AuthGoogleTests", dependencies: ["AuthGoogle", "AuthProviders", "AuthTesting", "AuthEmulators"], swiftSettings: strictSettings),
        .testTarget(name: "AuthMicrosoftTests", dependencies: ["AuthMicrosoft", "AuthProviders", "AuthTesting", "AuthEmulators"], swiftSettings: strictSettings),
        .testTarget(name: "AuthGitHubTests", dependencies: ["AuthGitHub", "AuthDeviceFlow", "AuthProviders", "AuthTesting", "AuthEmulators"], swiftSettings: strictSettings),
        .testTarget(
            name: "AuthSignInWithAppleTests", dependencies: ["AuthSignInWithApple", "AuthProviders", "AuthTesting", "AuthEmulators"], swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AuthGrabTests", dependencies: ["AuthGrab", "GrabCompat", "AuthAppSupport", "AuthProviders", "AuthTesting", "AuthEmulators"], swiftSettings: strictSettings),
        .testTarget(
            name: "AuthUberTests", dependencies: ["AuthUber", "UberCompat", "AuthAppSupport", "AuthProviders", "AuthTesting", "AuthEmulators"], swiftSettings: strictSettings),
        .testTarget(
            name: "AuthSchibstedTests",
            dependencies: ["AuthSchibsted", "SchibstedCompat", "AuthAppSupport", "AuthFileStorage", "AuthProviders", "AuthTesting", "AuthEmulators"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AuthOneLoginTests",
            dependencies: ["AuthOneLogin", "OneLoginCompat", "AuthAppSupport", "AuthProviders", "AuthTesting", "AuthEmulators"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MigrationGuideTests",
            dependencies: [
                "AuthCore", "AuthGOVUK", "AuthGrab", "AuthOneLogin", "AuthSchibsted", "AuthUber",
                "GOVUKCompat", "GrabCompat", "OneLoginCompat", "SchibstedCompat", "UberCompat", "AuthTesting", "AuthEmulators"
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(name: "AuthSecretServiceTests", dependencies: ["AuthSecretService", "AuthCore"], swiftSettings: strictSettings),
        .testTarget(name: "AuthAppSupportTests", dependencies: ["AuthAppSupport", "AuthCore", "AuthFileStorage", "AuthTesting", "AuthEmulators"], swiftSettings: strictSettings),
        .testTarget(name: "AuthFileStorageTests", dependencies: ["AuthFileStorage", "AuthCore", "AuthTesting"], swiftSettings: strictSettings),
        .testTarget(name: "AuthAppleTests", dependencies: ["AuthApple", "AuthCore", "AuthOIDC", "AuthTesting"], swiftSettings: strictSettings),
        .testTarget(name: "AuthURLSessionTests", dependencies: ["AuthURLSession", "AuthOIDC", "AuthTesting"], swiftSettings: strictSettings),
        .testTarget(
            name: "AuthAsyncHTTPClientTests",
            dependencies: [
                "AuthAsyncHTTPClient", "AuthTesting",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio")
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AuthLoopbackTests",
            dependencies: ["AuthLoopback", "AuthTesting", "AuthURLSession", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AuthObservabilityTests",
            dependencies: [
                "AuthObservability", "AuthOIDC", "AuthTesting",
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing", condition: .when(traits: ["Observability"])),
                .product(name: "MetricsTestKit", package: "swift-metrics", condition: .when(traits: ["Observability"]))
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AuthHummingbirdTests",
            dependencies: [
                // The PostgreSQL suite shares the web sign-in harness.
                "AuthHummingbird", "AuthWebSignIn", "AuthPostgres", "AuthOIDC", "AuthTesting",
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: .when(traits: ["HummingbirdSignIn"]))
            ],
            swiftSettings: strictSettings
        ),
        // The Vapor adapter's routes, middleware and body limit, in Vapor's own test client and over real HTTP.
        .testTarget(
            name: "AuthVaporTests",
            dependencies: [
                "AuthVapor", "AuthWebSignIn", "AuthOIDC", "AuthTesting",
                .product(name: "VaporTesting", package: "vapor", condition: .when(traits: ["VaporSignIn"]))
            ],
            swiftSettings: strictSettings
        ),
        // The neutral core driven with plain request values, as an adapter for any framework drives it.
        .testTarget(
            name: "AuthWebSignInTests",
            dependencies: ["AuthWebSignIn", "AuthCore", "AuthOIDC", "AuthSignInWithApple", "AuthTesting", "AuthEmulators"],
            swiftSettings: strictSettings
        ),
        .testTarget(name: "AuthDynamicRegistrationTests", dependencies: ["AuthDynamicRegistration", "AuthOIDC", "AuthTesting"], swiftSettings: strictSettings),
        .testTarget(name: "AuthTestingTests", dependencies: ["AuthTesting", "AuthEmulators"], swiftSettings: strictSettings),
        .testTarget(
            name: "AuthConfigCheckTests",
            dependencies: ["AuthConfigCheck", "AuthCore"],
            resources: [.copy("Fixtures")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["AuthCore", "AuthURLSession", "AuthOIDC", "AuthLoopback", "AuthTesting", "AuthAsyncHTTPClient"],
            swiftSettings: strictSettings
        )
    ]
)

// The Apple-only sources type-checked on Linux (Scripts/ci/apple-typecheck.sh, in the test command): with
// AUTH_APPLE_TYPECHECK=ios (or macos), modules named like Apple's frameworks (Shims/: declarations copied in shape from
// Apple's documentation, bodies that trap) join the graph on Linux only, so `#if canImport(UIKit)` (or AppKit) and
// friends compile the Apple platform files with Swift 6 strict concurrency, as on iOS (or macOS). Apps, Apple
// platforms and the normal build never see them; the script builds both shapes into a scratch path of their own
// (.build-apple-check), so the shims never linger beside a normal build.
let appleShape = Context.environment["AUTH_APPLE_TYPECHECK"]
if appleShape == "ios" || appleShape == "macos" {
    let windowing = appleShape == "ios" ? "UIKit" : "AppKit"
    package.targets += [
        .target(name: "Security", path: "Shims/Security"),
        .target(name: windowing, path: "Shims/\(windowing)"),
        .target(name: "AuthenticationServices", dependencies: [.target(name: windowing)], path: "Shims/AuthenticationServices"),
        .target(name: "SwiftUI", path: "Shims/SwiftUI")
    ]
    let shimsByTarget: [String: [String]] = [
        "AuthAppSupport": ["Security"],
        // URLSessionClientIdentity: mutual TLS through URLSession (a Keychain identity in a URLCredential).
        "AuthURLSession": ["Security"],
        "AuthApple": [windowing, "SwiftUI", "AuthenticationServices"],
        // The compatibility modules' UIKit parts (Uber's LoginButton) exist on iOS only.
        "GrabCompat": appleShape == "ios" ? ["UIKit"] : [],
        "UberCompat": appleShape == "ios" ? ["UIKit"] : []
    ]
    for target in package.targets {
        guard let shims = shimsByTarget[target.name] else { continue }
        target.dependencies += shims.map { .target(name: $0, condition: .when(platforms: [.linux])) }
    }
}
