// swift-tools-version:6.2
import PackageDescription

// Benchmarks live in their own package so that apps depending on swift-auth-providers never resolve
// package-benchmark or the peer library (vapor/jwt-kit). Run: `cd Benchmarks && swift package benchmark`.
let package = Package(
    name: "AuthBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        // The AsyncHTTPClient transport is behind a trait of the root package.
        .package(name: "swift-auth-providers", path: "..", traits: ["AsyncHTTPClientTransport", "HummingbirdSignIn", "PostgresStorage"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
    ],
    targets: [
        // What both the benchmarks and the instruction counts measure, built once.
        .target(
            name: "BenchmarkFixtures",
            dependencies: [
                .product(name: "AuthProviders", package: "swift-auth-providers"),
                .product(name: "AuthTesting", package: "swift-auth-providers"),
                .product(name: "_AuthHarness", package: "swift-auth-providers"),
                .product(name: "AuthOIDC", package: "swift-auth-providers"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            path: "Fixtures"
        ),
        // Runs one hot path N times under callgrind (Scripts/bench/instruction-counts.sh).
        .executableTarget(
            name: "instruction-counts",
            dependencies: [
                "BenchmarkFixtures",
                .product(name: "AuthProviders", package: "swift-auth-providers"),
                .product(name: "AuthTesting", package: "swift-auth-providers"),
                .product(name: "_AuthHarness", package: "swift-auth-providers"),
                .product(name: "AuthEmulators", package: "swift-auth-providers"),
            ],
            // Not directly under the package directory: package-benchmark runs every executable whose folder's
            // parent is named "Benchmarks" as a benchmark.
            path: "Tools/InstructionCounts"
        ),
        // The server of the side-by-side web throughput comparison with mod_auth_openidc (Scripts/bench/web-load.sh).
        .executableTarget(
            name: "web-load-server",
            dependencies: [
                "BenchmarkFixtures",
                .product(name: "AuthProviders", package: "swift-auth-providers"),
                .product(name: "AuthAsyncHTTPClient", package: "swift-auth-providers"),
                .product(name: "AuthHummingbird", package: "swift-auth-providers"),
                .product(name: "AuthPostgres", package: "swift-auth-providers"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            path: "Tools/WebLoadServer"
        ),
        .executableTarget(
            name: "AuthBenchmarks",
            dependencies: [
                "BenchmarkFixtures",
                .product(name: "AuthProviders", package: "swift-auth-providers"),
                .product(name: "AuthTesting", package: "swift-auth-providers"),
                .product(name: "_AuthHarness", package: "swift-auth-providers"),
                .product(name: "AuthAsyncHTTPClient", package: "swift-auth-providers"),
                .product(name: "AuthURLSession", package: "swift-auth-providers"),
                .product(name: "AuthHummingbird", package: "swift-auth-providers"),
                .product(name: "AuthPostgres", package: "swift-auth-providers"),
                .product(name: "AuthEmulators", package: "swift-auth-providers"),
                .product(name: "AuthOIDC", package: "swift-auth-providers"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            path: "Benchmarks/AuthBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
