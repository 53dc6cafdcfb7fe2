// swift-tools-version:6.2
import PackageDescription

// A third party's provider, in its own package: it depends on swift-auth-providers and changes nothing in it.
let package = Package(
    name: "AcmeAuth",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "AcmeAuth", targets: ["AcmeAuth"]),
        .executable(name: "acme-sign-in", targets: ["AcmeSignIn"])
    ],
    dependencies: [.package(name: "swift-auth-providers", path: "../..")],
    targets: [
        .target(
            name: "AcmeAuth",
            dependencies: [
                .product(name: "AuthCore", package: "swift-auth-providers"),
                .product(name: "AuthOIDC", package: "swift-auth-providers")
            ]
        ),
        // A sign-in through a transport of its own, against the in-process identity provider; links no libcurl.
        .executableTarget(
            name: "AcmeSignIn",
            dependencies: ["AcmeAuth", .product(name: "AuthCore", package: "swift-auth-providers"), .product(name: "AuthTesting", package: "swift-auth-providers")]
        ),
        .testTarget(
            name: "AcmeAuthTests",
            dependencies: ["AcmeAuth", .product(name: "AuthTesting", package: "swift-auth-providers")]
        )
    ]
)
