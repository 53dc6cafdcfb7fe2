import AuthCore
import Foundation

extension SchibstedAccountClient {
    /// The `User-Agent` of token and account API requests, in the vendor SDKs' shape (6.x
    /// `SchibstedAccountSDKiOS/<version> (<model>; <system> <version>)`, account-sdk-ios-web
    /// `URLSession+Extensions.swift`) with this module's own product name, so Schibsted can tell migrated apps apart.
    public static let sdkUserAgent: String = {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        #if os(iOS)
            let system = "iOS"
        #elseif os(macOS)
            let system = "macOS"
        #elseif os(Linux)
            let system = "Linux"
        #else
            let system = "unknown"
        #endif
        return "SchibstedCompat (swift-auth-providers; \(system) \(version.majorVersion).\(version.minorVersion).\(version.patchVersion))"
    }()
}

extension HTTPRequest {
    /// This request with the SDK's `User-Agent` (``SchibstedAccountClient/sdkUserAgent``), as the vendor SDKs send it on
    /// every account API request.
    mutating func setSchibstedUserAgent() {
        headerFields.set(SchibstedAccountClient.sdkUserAgent, forName: "User-Agent")
    }
}
