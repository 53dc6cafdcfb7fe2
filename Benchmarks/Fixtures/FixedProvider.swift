import AuthProviders
import AuthTesting
import Foundation

/// A provider with fixed endpoints, so building authorization requests touches no network.
public struct FixedProvider: AuthProvider {
    public static let id: ProviderID = "fixed"
    public let client = ClientRegistration(clientID: "test-client", redirectURI: FixedProvider.redirectURI, scopes: ["openid", "email"])
    public static let redirectURI = URL(string: "com.example.app:/oauth/callback")!
    public init() {}
    public init(configuration: ProviderConfiguration) throws { self.init() }
    /// Built once, as a real provider's fixed endpoints are: the benchmark measures the engine, not `URL(string:)`.
    public let endpointSource = EndpointSource.fixed(ProviderMetadata(
        issuer: "https://idp.example.test",
        authorizationEndpoint: URL(string: "https://idp.example.test/authorize")!,
        tokenEndpoint: URL(string: "https://idp.example.test/token")!
    ))
    public func authorizationParameters(for request: SignInContext) -> [String: String] { ["ui_locales": "en"] }

    /// A redirect as the provider sends it back: code, state and RFC 9207 `iss`.
    public static func sampleRedirect() -> URL {
        // Encoded as the provider (and the engine's form encoding) writes it: the issuer's `:` and `/` escaped.
        URL(string: redirectURI.absoluteString + "?code=\(token())&state=\(token())&iss=https%3A%2F%2Fidp.example.test")!
    }

    /// 32 random bytes in base64url without padding (43 characters), as the engine's codes and states are.
    private static func token() -> String {
        Data((0..<32).map { _ in UInt8.random(in: .min ... .max) }).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}

/// A logger that drops everything and says so, as a production logger above debug level does for debug records
/// (the benchmarks measure the engine, not logging).
public struct SilentLogger: AuthLogger {
    public init() {}
    public func log(_ record: AuthLogRecord) {}
    public func isEnabled(_ level: AuthLogRecord.Level) -> Bool { false }
}

/// A client for `FixedProvider` whose pending requests expire between iterations, so each iteration measures
/// preparing a request in a steady state rather than a table of every request ever prepared growing without end.
public struct AuthorizationRequestFixture: Sendable {
    public let client: AuthClient
    let clock = ManualClock()

    public init() {
        client = AuthClient(provider: FixedProvider(), transport: InProcessTransport(), logger: SilentLogger(), clock: clock)
    }

    /// Prepares one request, then moves the clock past its lifetime.
    @inline(never)
    public func prepare() async throws -> AuthorizationRequest {
        let request = try await client.prepareSignIn()
        clock.advance(by: client.options.authorizationLifetime + 1)
        return request
    }
}
