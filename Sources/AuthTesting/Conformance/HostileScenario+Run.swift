public import AuthCore
public import Foundation

/// What happened when a `HostileScenario` ran.
public struct ScenarioOutcome: Sendable {
    /// The sign-in error, or `nil` when sign-in succeeded.
    public let error: AuthError?
    /// Credentials left in storage.
    public let storedCredentials: Int
    /// Token endpoint requests made.
    public let tokenRequests: Int
    /// User info requests made.
    public let userInfoRequests: Int
    /// Every log line captured at trace level.
    public let logLines: [String]
    /// Every secret the identity provider issued and the PKCE verifiers the client sent.
    public let secrets: [String]
    /// Requests that were sent to a URL that is not https (or http on a loopback IP literal): there must be none.
    public let insecureRequests: [URL]

    /// Whether the outcome is what `scenario` expects: the exact error with nothing stored and no user info
    /// request, or a successful sign-in.
    public func satisfies(_ scenario: HostileScenario) -> Bool {
        switch scenario.expectation {
        case .rejected(let code): error?.code == code && storedCredentials == 0 && userInfoRequests == 0 && insecureRequests.isEmpty
        case .accepted: error == nil && storedCredentials == 1 && insecureRequests.isEmpty
        }
    }

    /// Secrets that appear in a log line or in the error's description (there must be none).
    public var leakedSecrets: [String] {
        let texts = logLines + [error.map { "\($0) \($0.message)" } ?? ""]
        return secrets.filter { secret in texts.contains { $0.contains(secret) } }
    }
}

extension HostileScenario {
    /// Signs in with `makeProvider`'s provider against a `TestIdentityProvider` misbehaving as this scenario
    /// says, with a recording logger at trace level, and reports the outcome.
    ///
    /// - Parameter makeProvider: builds the provider under test for the identity provider's issuer, client id
    ///   (`TestIdentityProvider/defaultClientID`) and redirect URI (`TestIdentityProvider/defaultRedirectURI`).
    public func run(makeProvider: @Sendable (TestIdentityProvider) throws -> any AuthProvider) async throws -> ScenarioOutcome {
        if stage == .stepUp { return try await runStepUp(makeProvider: makeProvider) }
        let idp = TestIdentityProvider(configuration: .init(signingAlgorithm: algorithm))
        await idp.update(configure)
        let transport = RecordingTransport(idp.transport)
        let storage = InMemoryTokenStorage()
        let logger = RecordingLogger()
        let client = AuthClient(provider: try makeProvider(idp), storage: storage, transport: transport, logger: logger, clock: idp.clock)
        var error: AuthError?
        do {
            _ = try await client.signIn(with: HeadlessUserAgent(transport: idp.transport), options: options)
        } catch let caught as AuthError {
            error = caught
        }
        let verifiers = await transport.exchanges(pathSuffix: "/token").compactMap { $0.formParameters["code_verifier"] }
        return ScenarioOutcome(
            error: error,
            storedCredentials: await storage.storedKeys().count,
            tokenRequests: await transport.exchanges(pathSuffix: "/token").count,
            userInfoRequests: await transport.exchanges(pathSuffix: "/userinfo").count,
            logLines: logger.lines,
            secrets: await idp.issuedSecrets + verifiers,
            insecureRequests: await transport.exchanges.compactMap(\.request.url).filter { !$0.isSecureEndpoint }
        )
    }
}
