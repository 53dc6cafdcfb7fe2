// swift-tools-version:6.2
import PackageDescription

// libFuzzer targets for the parsers that see attacker input. Kept out of the root package because these
// executables only link with `-sanitize=fuzzer`; build and run them with `Scripts/fuzz/run.sh [seconds]`.
let package = Package(
    name: "AuthFuzz",
    dependencies: [.package(name: "swift-auth-providers", path: "..")],
    targets: [
        .target(name: "CFuzzerDriver"),
        .executableTarget(
            name: "FuzzRedirect",
            dependencies: [
                "CFuzzerDriver",
                .product(name: "AuthCore", package: "swift-auth-providers"),
                .product(name: "_AuthHarness", package: "swift-auth-providers"),
            ]
        ),
        .executableTarget(
            name: "FuzzJWS",
            dependencies: [
                "CFuzzerDriver",
                .product(name: "AuthCore", package: "swift-auth-providers"),
                .product(name: "_AuthHarness", package: "swift-auth-providers"),
                .product(name: "AuthTesting", package: "swift-auth-providers"),
            ]
        ),
        .executableTarget(
            name: "FuzzTokenResponse",
            dependencies: [
                "CFuzzerDriver",
                .product(name: "AuthCore", package: "swift-auth-providers"),
                .product(name: "_AuthHarness", package: "swift-auth-providers"),
                .product(name: "AuthTesting", package: "swift-auth-providers"),
            ]
        ),
        .executableTarget(
            name: "FuzzKeyedArchive",
            dependencies: ["CFuzzerDriver", .product(name: "_AuthHarness", package: "swift-auth-providers")]
        ),
        .executableTarget(
            name: "FuzzChallenge",
            dependencies: ["CFuzzerDriver", .product(name: "_AuthHarness", package: "swift-auth-providers")]
        ),
        .executableTarget(
            name: "FuzzJSON",
            dependencies: [
                "CFuzzerDriver",
                .product(name: "AuthCore", package: "swift-auth-providers"),
                .product(name: "_AuthHarness", package: "swift-auth-providers"),
            ]
        ),
    ]
)
