public import AuthCore
import AuthEmulators
import AuthLoopback
import AuthProviders
public import AuthTesting
import Foundation

#if AsyncHTTPClientTransport
    import AuthAsyncHTTPClient
#else
    import AuthURLSession
#endif

/// What a sample sends real requests through: AsyncHTTPClient when the package is built with the
/// `AsyncHTTPClientTransport` trait (no libcurl on Linux), URLSession otherwise. One per process, never
/// deallocated: AsyncHTTPClient's client must outlive every request, and a sample ends without tearing it down.
private let realTransport: any HTTPTransport = {
    #if AsyncHTTPClientTransport
        AsyncHTTPClientTransport()
    #else
        URLSessionTransport()
    #endif
}()

/// Runs a provider's sample: against its emulator by default, or against real settings with `--config FILE`,
/// printing each step — the route, the parameters sent, the claims validated — and never a secret.
public enum ExampleRunner {
    /// Provider-specific steps after sign-in (user info, profile, …), returning lines to print.
    public typealias Extra = @Sendable (Session) async throws -> [String]

    /// A further run against another emulator (a variant of the provider, or a user in another situation).
    public struct Scenario: Sendable {
        /// What the run shows, printed as a heading.
        public let title: String
        /// The emulator to sign in against.
        public let emulator: ProviderEmulator
        /// Steps after sign-in.
        public let extra: Extra?

        /// Creates a scenario.
        public init(title: String, emulator: ProviderEmulator, extra: Extra? = nil) {
            self.title = title
            self.emulator = emulator
            self.extra = extra
        }
    }

    /// Parses `--config FILE`, runs the sample (then, without `--config`, each of `scenarios`), and exits with 0 on
    /// success or 1 with a message on failure.
    public static func main(providerID: ProviderID, extra: Extra? = nil, scenarios: [Scenario] = []) async -> Never {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.contains("--help") || arguments.contains("-h") {
            print("usage: \(providerID)-example [--config FILE]\n  without --config: signs in against the in-process emulator")
            exit(0)
        }
        var configFile: String?
        if let index = arguments.firstIndex(of: "--config") {
            guard index + 1 < arguments.count else { fail("--config needs a file") }
            configFile = arguments[index + 1]
        }
        do {
            try await run(providerID: providerID, configFile: configFile, emulator: nil, extra: extra)
            if configFile == nil {
                for scenario in scenarios {
                    print("\n== \(scenario.title)")
                    try await run(providerID: providerID, configFile: nil, emulator: scenario.emulator, extra: scenario.extra)
                }
            }
            exit(0)
        } catch let error as AuthError {
            fail("\(error.message) [\(error.code)]")
        } catch {
            fail("\(error)")
        }
    }

    static func run(providerID: ProviderID, configFile: String?, emulator chosen: ProviderEmulator?, extra: Extra?) async throws {
        let registry = ProviderRegistry.builtIn
        let emulator = configFile == nil ? chosen ?? ProviderEmulator.make(for: providerID) : nil
        let configuration: ProviderConfiguration
        if let configFile {
            configuration = try ProviderConfiguration(contentsOf: URL(fileURLWithPath: configFile))
        } else if let emulator {
            configuration = emulator.configuration
        } else {
            throw AuthError(.invalidConfiguration, "'\(providerID)' has no emulator; pass --config FILE.")
        }
        let provider = try registry.provider(named: providerID.rawValue, configuration: configuration)
        step("provider", "\(providerID) (\(type(of: provider))), settings from \(configFile ?? "the in-process emulator")")

        let logger = RecordingLogger()
        let client = AuthClient(
            provider: provider,
            transport: emulator?.transport ?? realTransport,
            logger: logger,
            clock: emulator?.clock ?? SystemWallClock()
        )
        let metadata = try await client.metadata()
        step("endpoints", "authorize \(metadata.authorizationEndpoint.absoluteString)")
        step("", "token     \(metadata.tokenEndpoint.absoluteString)")

        let userAgent: any UserAgent
        if let emulator {
            userAgent = emulator.userAgent
        } else if let host = provider.client.redirectURI.host, ["127.0.0.1", "::1", "[::1]"].contains(host) {
            // A loopback redirect (RFC 8252): the system browser returns to a listener on this machine.
            userAgent = try await LoopbackUserAgent.start(redirectURI: provider.client.redirectURI)
        } else {
            userAgent = PasteRedirectUserAgent()
        }
        let request = try await client.prepareSignIn(options: SignInOptions(redirectURI: (userAgent as? LoopbackUserAgent)?.redirectURI))
        step("route", "\(emulator?.route ?? "web")\(request.prefersEphemeralSession ? ", ephemeral browser session" : "")")
        let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let fresh: Set<String> = ["state", "nonce", "code_challenge"]
        for item in query {
            step(item.name == query.first?.name ? "parameters" : "", "\(item.name) = \(fresh.contains(item.name) ? "<fresh random value>" : item.value ?? "")")
        }

        let redirect = try await userAgent.authorize(request)
        step("redirect", "state consumed once, issuer checked")
        let session = try await client.completeSignIn(redirect: redirect)
        let credential = await session.credential
        if let claims = await session.idTokenClaims {
            step("validated", "ID token signature, iss, aud, exp, iat, nonce\(claims["at_hash"] == nil ? "" : ", at_hash")")
            step("subject", claims.subject)
            for (name, value) in claims.all.sorted(by: { $0.key < $1.key })
            where !["iss", "sub", "aud", "exp", "iat", "nonce", "at_hash", "auth_time"].contains(name) {
                step("claim", "\(name) = \(render(value))")
            }
        } else {
            step("validated", "token response (this provider issues no ID token)")
        }
        step("expires", credential.expiresAt.map { ISO8601DateFormatter().string(from: $0) } ?? "unknown")
        if let extra {
            for line in try await extra(session) { step("", line) }
        }
        if credential.refreshToken != nil, emulator?.supportsRefresh ?? true {
            let refreshed = try await session.refresh()
            step("refreshed", "new access token stored; expires \(refreshed.expiresAt.map { ISO8601DateFormatter().string(from: $0) } ?? "unknown")")
        }
        let report = try await session.signOut(revokingTokens: true)
        step("signed out", "local data cleared\(report.revokedRefreshToken ? ", refresh token revoked" : "")")
        let leaked = logger.lines.contains { $0.contains(credential.accessToken.reveal()) }
        step("logs", leaked ? "LEAKED A TOKEN" : "\(logger.records.count) events, no secrets")
    }

    static func step(_ label: String, _ detail: String) {
        print(label.padding(toLength: 12, withPad: " ", startingAt: 0) + detail)
    }

    static func render(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .bool(let flag): String(flag)
        case .number(let number): Int64(exactly: number).map(String.init) ?? String(number)
        default: (try? String(decoding: jsonEncoder.encode(value), as: UTF8.self)) ?? "?"
        }
    }

    /// Sorted keys and unescaped slashes: the same claims print the same way on every run, URLs as they are.
    static var jsonEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("error: \(message)\n".utf8))
        exit(1)
    }
}

/// For real settings whose redirect the terminal cannot receive (a custom scheme or a universal link): prints the
/// authorization URL and reads the URL the browser was redirected to from standard input.
struct PasteRedirectUserAgent: UserAgent {
    func authorize(_ request: AuthorizationRequest) async throws -> URL {
        print("Open this URL, sign in, then paste the URL you were redirected to:\n\(request.url.absoluteString)")
        guard let line = readLine(), let url = URL(string: line.trimmingCharacters(in: .whitespaces)) else {
            throw AuthError(.userCancelled, "No redirect URL was pasted.")
        }
        return url
    }
}
