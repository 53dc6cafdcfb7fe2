import AuthProviders
import Foundation

/// A provider with fixed endpoints, so building authorization requests touches no network.
public struct FixedProvider: AuthProvider {
    public static let id: ProviderID = "fixed"
    public let client = ClientRegistration(clientID: "test-client", redirectURI: FixedProvider.redirectURI, scopes: ["openid", "email"])
    public static let redirectURI = URL(string: "com.example.app:/oauth/callback")!
    public init() {}
    public init(configuration: ProviderConfiguration) throws { self.init() }
    public var endpointSource: EndpointSource {
        .fixed(ProviderMetadata(issuer: "https://idp.example.test",
                                authorizationEndpoint: URL(string: "https://idp.example.test/authorize")!,
                                tokenEndpoint: URL(string: "https://idp.example.test/token")!))
    }
    public func authorizationParameters(for request: SignInRequest) -> [String: String] { ["ui_locales": "en"] }

    /// A redirect as the provider sends it back: code, state and RFC 9207 `iss`.
    public static func sampleRedirect() -> URL {
        redirectURI.appendingQuery([("code", SecureRandom.token()), ("state", SecureRandom.token()), ("iss", "https://idp.example.test")])
    }
}

/// A logger that drops everything (the benchmarks measure the engine, not logging).
public struct SilentLogger: AuthLogger {
    public init() {}
    public func log(_ record: AuthLogRecord) {}
}
