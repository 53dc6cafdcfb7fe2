public import AuthCore
import Foundation

/// The checks every provider must pass, in one call a provider's tests make:
///
/// ```swift
/// @Test func conformance() async throws {
///     try await ProviderConformance.check(AcmeProvider.self, emulator: .acme())
/// }
/// ```
///
/// It signs in against the emulator and checks that the authorization request carried PKCE S256, a fresh `state`
/// and (for OpenID Connect) a `nonce`, that the ID token was validated, that a replayed redirect is refused with
/// `state_mismatch` and nothing more is stored, that refresh works where the provider supports it, that sign-out
/// clears storage, that no issued secret reached the log, and that a registry finds the provider by its id.
public enum ProviderConformance {
    /// A failed check, naming it.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// Which check failed.
        public let check: String
        /// What was observed.
        public let detail: String
        /// `check: detail`.
        public var description: String { "\(check): \(detail)" }
    }

    /// The checks that passed, in order.
    public struct Report: Sendable {
        /// The provider checked.
        public let providerID: ProviderID
        /// The names of the passed checks.
        public let passed: [String]
    }

    /// Runs every check for `Provider` against `emulator`.
    ///
    /// - Throws: `Failure` for the first check that fails.
    @discardableResult
    public static func check<Provider: AuthProvider>(_ type: Provider.Type, emulator: ProviderEmulator) async throws -> Report {
        var passed: [String] = []
        func expect(_ condition: Bool, _ check: String, _ detail: @autoclosure () -> String) throws {
            guard condition else { throw Failure(check: check, detail: detail()) }
            passed.append(check)
        }

        var registry = ProviderRegistry()
        registry.register(Provider.self)
        let provider = try registry.provider(named: Provider.id.rawValue.uppercased(), configuration: emulator.configuration)
        try expect(provider is Provider && provider.id == Provider.id, "registry round-trip", "the registry did not build \(Provider.self) for '\(Provider.id)'")
        try expect(provider.id == emulator.providerID, "emulator matches", "the emulator is for '\(emulator.providerID)', not '\(Provider.id)'")

        let transport = RecordingTransport(emulator.transport)
        let logger = RecordingLogger()
        let storage = InMemoryTokenStorage()
        let client = AuthClient(provider: provider, storage: storage, transport: transport, logger: logger, clock: emulator.clock)

        let first = try await client.prepareSignIn()
        let second = try await client.prepareSignIn()
        let query = Dictionary(FormEncoding.decode(first.url.query ?? ""), uniquingKeysWith: { a, _ in a })
        let other = Dictionary(FormEncoding.decode(second.url.query ?? ""), uniquingKeysWith: { a, _ in a })
        try expect(query["code_challenge_method"] == "S256" && (query["code_challenge"]?.count ?? 0) >= 43, "PKCE S256", "the authorization request has no S256 code challenge")
        try expect((query["state"]?.count ?? 0) >= 22 && query["state"] != other["state"], "fresh state", "state is missing, short or repeated")
        let openID = provider.client.requestsOpenID
        try expect(!openID || ((query["nonce"]?.count ?? 0) >= 22 && query["nonce"] != other["nonce"]), "fresh nonce", "nonce is missing, short or repeated")
        try expect(query["client_id"] == provider.client.clientID && query["response_type"] == "code", "code flow", "client_id or response_type is wrong")

        let redirect = try await emulator.userAgent.authorize(first)
        let session = try await client.completeSignIn(redirect: redirect)
        try expect(await !storage.isEmpty, "sign-in stores the credential", "nothing was stored after sign-in")
        let claims = await session.idTokenClaims
        try expect(!openID || claims?.audience.contains(provider.client.clientID) == true, "ID token validated", "no validated ID token for an openid sign-in")

        let replay: AuthError?
        do {
            _ = try await client.completeSignIn(redirect: redirect)
            replay = nil
        } catch let error as AuthError {
            replay = error
        }
        try expect(replay?.code == .stateMismatch, "replayed redirect refused", "a replayed redirect gave \(String(describing: replay?.code))")
        try expect(await storage.storedKeys().count == 1, "nothing stored on failure", "a refused redirect changed storage")
        try expect(replay?.providerID == Provider.id, "errors name the provider", "the error names \(String(describing: replay?.providerID))")

        if emulator.supportsRefresh, await session.credential.refreshToken != nil {
            let before = await session.credential.accessToken
            let after = try await session.refresh().accessToken
            try expect(after != before, "refresh", "refresh returned the same access token")
        }
        try await session.signOut()
        try expect(await storage.isEmpty, "sign-out clears storage", "credentials remained after sign-out")

        let secrets = await transport.exchanges.flatMap { exchange in
            [
                exchange.formParameters["code"], exchange.formParameters["code_verifier"], exchange.formParameters["refresh_token"],
                exchange.request.value(forHTTPHeaderField: "Authorization")
            ].compactMap { $0 }
        }
        let leaked = secrets.filter { secret in logger.lines.contains { $0.contains(secret) } }
        try expect(leaked.isEmpty, "no secrets logged", "\(leaked.count) secret value(s) appeared in the log")
        return Report(providerID: Provider.id, passed: passed)
    }
}
