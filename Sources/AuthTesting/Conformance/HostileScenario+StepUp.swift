import AuthCore
import Foundation

extension HostileScenario {
    /// A resource's step-up challenge (RFC 9470) or the step-up sign-in it starts goes wrong: the client must refuse
    /// with the scenario's code, start no second step-up, and leave the stored credential as it was.
    static let stepUp: [HostileScenario] = [
        .init(
            id: "rfc9470-step-up-challenge-loop", summary: "the resource challenges again after the step-up it asked for",
            reference: "RFC 9470 §4, §7", stage: .stepUp, expectation: .rejected(.stepUpLoop), resourcePath: highAssurance
        ) {
            $0.stepUpChallenge = #"Bearer error="insufficient_user_authentication", acr_values="urn:example:loa:2""#
        },
        .init(
            id: "rfc9470-step-up-acr-not-met", summary: "the step-up sign-in's ID token has an acr outside acr_values",
            reference: "RFC 9470 §4, OIDC Core §5.5.1.1", stage: .stepUp, expectation: .rejected(.stepUpNotSatisfied), resourcePath: highAssurance
        ) {
            $0.idTokenClaimOverrides["acr"] = "urn:example:loa:1"
        },
        .init(
            id: "rfc9470-step-up-auth-time-too-old", summary: "the step-up sign-in's auth_time is older than the challenge's max_age",
            reference: "RFC 9470 §4, OIDC Core §3.1.2.1", stage: .stepUp, expectation: .rejected(.stepUpNotSatisfied), resourcePath: recent
        ) {
            $0.idTokenClaimOverrides["auth_time"] = .number(ManualClock.defaultEpoch - 3600)
        },
        .init(
            id: "rfc9470-step-up-another-user", summary: "the step-up sign-in authenticates another user",
            reference: "RFC 9470 §4, OIDC Core §3.1.2.1 (id_token_hint)", stage: .stepUp, expectation: .rejected(.subjectMismatch),
            resourcePath: highAssurance
        ) {
            $0.idTokenClaimOverrides["sub"] = "someone-else"
        },
        .init(
            id: "rfc9470-malformed-max-age", summary: "a step-up challenge whose max_age is not a number",
            reference: "RFC 9470 §3", stage: .stepUp, expectation: .rejected(.invalidStepUpChallenge), resourcePath: highAssurance
        ) {
            $0.stepUpChallenge = #"Bearer error="insufficient_user_authentication", max_age="soon""#
        },
        .init(
            id: "rfc9470-malformed-challenge-syntax", summary: "a step-up challenge with an unterminated quoted string",
            reference: "RFC 9110 §11.6.1, RFC 9470 §3", stage: .stepUp, expectation: .rejected(.invalidStepUpChallenge), resourcePath: highAssurance
        ) {
            $0.stepUpChallenge = #"Bearer error="insufficient_user_authentication", acr_values="urn:example:loa:2"#
        },
        .init(
            id: "rfc9470-malformed-empty-acr-values", summary: "a step-up challenge with an empty acr_values",
            reference: "RFC 9470 §3", stage: .stepUp, expectation: .rejected(.invalidStepUpChallenge), resourcePath: highAssurance
        ) {
            $0.stepUpChallenge = #"Bearer error="insufficient_user_authentication", acr_values="""#
        },
        .init(
            id: "rfc9470-honest-step-up", summary: "an honest challenge and step-up: the retried request succeeds",
            reference: "RFC 9470 §3-§4", stage: .stepUp, expectation: .accepted, resourcePath: highAssurance
        ) { _ in }
    ]

    private static let highAssurance = "/api/high-assurance"
    private static let recent = "/api/recent-authentication"

    /// Signs in honestly, ten minutes pass, the provider starts misbehaving, and the app sends one request to
    /// ``resourcePath`` with `Session/send(_:body:steppingUpWith:redirectURI:)`.
    func runStepUp(makeProvider: @Sendable (TestIdentityProvider) throws -> any AuthProvider) async throws -> ScenarioOutcome {
        var configuration = TestIdentityProvider.Configuration(signingAlgorithm: algorithm)
        configuration.stepUp = TestIdentityProvider.StepUpSettings()
        let clock = ManualClock()
        let idp = TestIdentityProvider(configuration: configuration, clock: clock)
        let transport = RecordingTransport(idp.transport)
        let storage = InMemoryTokenStorage()
        let logger = RecordingLogger()
        let client = AuthClient(provider: try makeProvider(idp), storage: storage, transport: transport, logger: logger, clock: clock)
        let agent = HeadlessUserAgent(transport: idp.transport)
        let session = try await client.signIn(with: agent, options: options)
        let original = await session.credential
        clock.advance(by: 600)
        await idp.update(configure)
        var error: AuthError?
        do {
            let (_, response) = try await session.send(HTTPRequest(method: .get, url: idp.endpoint(resourcePath ?? "/api/high-assurance")), steppingUpWith: agent)
            if response.status != .ok { error = AuthError(.httpError, "The resource answered \(response.status.code) after the step-up.") }
        } catch let caught as AuthError {
            error = caught
        }
        // A completed step-up's credential (validated, the same user) is the session's and stays stored even when the
        // resource then challenges again; anything else that changed came from a refused answer.
        let adopted = await session.credential
        var refused = 0
        var stepped = 0
        for key in await storage.storedKeys() {
            let stored = await storage.credential(for: key)
            if stored != original && stored != adopted { refused += 1 }
            if stored == adopted && adopted != original { stepped += 1 }
        }
        let verifiers = await transport.exchanges(pathSuffix: "/token").compactMap { $0.formParameters["code_verifier"] }
        return ScenarioOutcome(
            error: error,
            storedCredentials: expectation == .accepted ? stepped : refused,
            tokenRequests: await transport.exchanges(pathSuffix: "/token").count,
            userInfoRequests: await transport.exchanges(pathSuffix: "/userinfo").count,
            logLines: logger.lines,
            secrets: await idp.issuedSecrets + verifiers,
            insecureRequests: await transport.exchanges.compactMap(\.request.url).filter { !$0.isSecureEndpoint }
        )
    }
}
