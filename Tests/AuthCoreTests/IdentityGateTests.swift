import AuthCore
import AuthDeviceFlow
import AuthTesting
import Foundation
import Testing

/// Whether the identity rule of ``IdentityRuleProvider`` refuses now (a refresh test turns it on after sign-in).
private final class RuleSwitch: Sendable {
    private let refusing: LockedBox
    init(refusing: Bool) { self.refusing = LockedBox(refusing) }
    var isRefusing: Bool { refusing.value }
    func refuse() { refusing.value = true }

    final class LockedBox: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Bool
        init(_ value: Bool) { stored = value }
        var value: Bool {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }
    }
}

/// The code a refusing rule throws, so each test asserts the rule's own error and not some other failure.
private let ruleRefused: AuthError.Code = "test_identity_refused"

/// Every way a user is signed in ends in the identity gate: a provider whose identity rule refuses is refused at each
/// entrance, with the rule's error and nothing stored; a refresh runs the same rule on its new ID token.
@Suite("The identity gate: one ending for every entrance, and refresh")
struct IdentityGateTests {
    private struct Harness {
        let idp: TestIdentityProvider
        let clock = ManualClock()
        let storage = InMemoryTokenStorage()
        let client: AuthClient
        let agent: HeadlessUserAgent
        let rule: RuleSwitch
        let logger = RecordingLogger()

        init(refusing: Bool, scopes: [String] = ["openid", "email", "offline_access"], options: AuthClient.Options = AuthClient.Options()) {
            idp = TestIdentityProvider(clock: clock)
            agent = HeadlessUserAgent(transport: idp.transport)
            let rule = RuleSwitch(refusing: refusing)
            self.rule = rule
            let base = PlainOIDCProvider(
                issuer: TestIdentityProvider.defaultIssuer,
                client: ClientRegistration(clientID: TestIdentityProvider.defaultClientID, redirectURI: TestIdentityProvider.defaultRedirectURI, scopes: scopes)
            )
            let provider = IdentityRuleProvider(base) { claims in
                guard rule.isRefusing else { return }
                throw AuthError(ruleRefused, "The rule refuses \(claims?.subject ?? "a user without an ID token").")
            }
            client = AuthClient(provider: provider, storage: storage, transport: idp.transport, logger: logger, clock: clock, options: options)
        }

        /// Nothing stored, and no sign-in completed (the gate logs `signin.completed` just before it publishes
        /// `signedIn`).
        func expectNothingAdmitted() async {
            #expect(await storage.isEmpty)
            #expect(!logger.lines.contains { $0.contains("signin.completed") })
            #expect(logger.lines.contains { $0.contains("signin.failed") && $0.contains(ruleRefused.rawValue) })
        }
    }

    @Test("Code flow: the rule refuses; its error, nothing stored, no signedIn event")
    func codeFlow() async throws {
        let harness = Harness(refusing: true)
        let error = await authError { _ = try await harness.client.signIn(with: harness.agent) }
        #expect(error?.code == ruleRefused)
        #expect(error?.providerID == IdentityRuleProvider.id)
        await harness.expectNothingAdmitted()
    }

    @Test("Resumed code flow (another instance's pending sign-in): the rule refuses; nothing stored")
    func resumedCodeFlow() async throws {
        let harness = Harness(refusing: true)
        let (request, pending) = try await harness.client.prepareResumableSignIn()
        let redirect = try await harness.agent.authorize(request)
        let error = await authError { _ = try await harness.client.completeSignIn(redirect: redirect, resuming: pending) }
        #expect(error?.code == ruleRefused)
        await harness.expectNothingAdmitted()
    }

    @Test("Device grant: the rule refuses the approved sign-in; nothing stored")
    func deviceGrant() async throws {
        var options = AuthClient.Options()
        let approver = DeviceApprover()
        options.pollingSleep = { _ in await approver.approve() }
        let harness = Harness(refusing: true, scopes: ["openid", "email"], options: options)
        let authorization = try await harness.client.startDeviceAuthorization()
        await approver.set(harness.idp, authorization.userCode)
        let error = await authError { _ = try await harness.client.completeDeviceAuthorization(authorization) }
        #expect(error?.code == ruleRefused)
        await harness.expectNothingAdmitted()
    }

    @Test("Imported tokens: valid tokens of a refused user are refused; nothing stored")
    func importedTokens() async throws {
        let open = Harness(refusing: false)
        let credential = try await open.client.signIn(with: open.agent).credential
        let idToken = try #require(credential.idToken)
        let tokens = TokenResponse(accessToken: credential.accessToken, refreshToken: credential.refreshToken, idToken: idToken)

        let harness = Harness(refusing: true)
        // The same identity provider signed them: the refusing client trusts its keys (one process, one emulator).
        let imported = AuthClient(
            provider: harness.client.provider, storage: harness.storage, transport: open.idp.transport, logger: RecordingLogger(), clock: open.clock
        )
        let error = await authError { _ = try await imported.importTokens(tokens) }
        #expect(error?.code == ruleRefused)
        #expect(await harness.storage.isEmpty)
    }

    @Test("Refresh: a new ID token the rule now refuses signs the user out (identity_rejected), and nothing of it is stored")
    func refreshRefusedByRule() async throws {
        let harness = Harness(refusing: false)
        let session = try await harness.client.signIn(with: harness.agent)
        let before = await session.credential
        var events = await session.events().makeAsyncIterator()
        harness.rule.refuse()
        let error = await authError { _ = try await session.refresh() }
        #expect(error?.code == ruleRefused)
        #expect(await events.next()?.kind == .signedOut(.identityRejected))
        #expect(await session.isSignedIn == false)
        #expect(await harness.storage.credential(for: before.storageKey) == nil)
        let afterward = await authError { _ = try await session.validAccessToken() }
        #expect(afterward?.code == .notSignedIn)
    }

    @Test("Refresh: a new ID token naming another subject is refused (subject_mismatch); the stored credential is left as it was, still signed in")
    func refreshOfAnotherSubjectKeepsCredential() async throws {
        let harness = Harness(refusing: false)
        let session = try await harness.client.signIn(with: harness.agent)
        let before = await session.credential
        await harness.idp.update { $0.idTokenClaimOverrides["sub"] = "someone-else" }
        let error = await authError { _ = try await session.refresh() }
        #expect(error?.code == .subjectMismatch)
        #expect(await session.isSignedIn)
        #expect(await harness.storage.credential(for: before.storageKey) == before)
    }

    @Test("Refresh: the rule sees every refreshed ID token, and a refresh it accepts is stored")
    func refreshAcceptedByRule() async throws {
        let harness = Harness(refusing: false)
        let session = try await harness.client.signIn(with: harness.agent)
        let refreshed = try await session.refresh()
        #expect(await harness.storage.credential(for: refreshed.storageKey) == refreshed)
    }
}
