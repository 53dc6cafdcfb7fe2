// swift-tools-version:6.2
import PackageDescription

// Benchmarks live in their own package so that apps depending on swift-auth-providers never resolve
// package-benchmark or the peer library (vapor/jwt-kit). Run: `cd Benchmarks && swift package benchmark`.
let package = Package(
    name: "AuthBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "swift-auth-providers", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
    ],
    targets: [
        .executableTarget(
            name: "AuthBenchmarks",
            dependencies: [
                .product(name: "AuthProviders", package: "swift-auth-providers"),
                .product(name: "AuthTesting", package: "swift-auth-providers"),
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
