import AuthCore
import AuthDeviceFlow
import AuthTesting
import Foundation
import Testing

/// A standard provider whose `resolveIdentity(_:)` is the test's closure.
private struct IdentityResolvingProvider: AuthProvider {
    static let id: ProviderID = "resolving"
    let base: PlainOIDCProvider
    let resolve: @Sendable (IdentityContext) async throws -> ProviderIdentity?

    init(configuration: ProviderConfiguration) throws {
        throw AuthError(.invalidConfiguration, "Built in code only.")
    }

    init(scopes: [String], resolve: @escaping @Sendable (IdentityContext) async throws -> ProviderIdentity?) {
        base = PlainOIDCProvider(
            issuer: TestIdentityProvider.defaultIssuer,
            client: ClientRegistration(clientID: TestIdentityProvider.defaultClientID, redirectURI: TestIdentityProvider.defaultRedirectURI, scopes: scopes)
        )
        self.resolve = resolve
    }

    var client: ClientRegistration { base.client }
    var endpointSource: EndpointSource { base.endpointSource }
    func resolveIdentity(_ context: IdentityContext) async throws -> ProviderIdentity? { try await resolve(context) }
}

/// What the closure saw.
private actor Seen {
    private(set) var grants: [IdentityContext.Grant] = []
    private(set) var hadClaims: [Bool] = []
    func record(_ context: IdentityContext) {
        grants.append(context.grant)
        hadClaims.append(context.idTokenClaims != nil)
    }
}

@Suite("AuthProvider.resolveIdentity: the identity a provider gives beyond the ID token")
struct ProviderIdentityTests {
    private struct Harness {
        let idp: TestIdentityProvider
        let clock: ManualClock
        let storage = InMemoryTokenStorage()
        let client: AuthClient
        let agent: HeadlessUserAgent

        init(scopes: [String] = ["openid", "email", "offline_access"], resolve: @escaping @Sendable (IdentityContext) async throws -> ProviderIdentity?) {
            clock = ManualClock()
            idp = TestIdentityProvider(clock: clock)
            agent = HeadlessUserAgent(transport: idp.transport)
            client = AuthClient(
                provider: IdentityResolvingProvider(scopes: scopes, resolve: resolve), storage: storage, transport: idp.transport,
                logger: RecordingLogger(), clock: clock
            )
        }

        func storedCount() async -> Int { await storage.storedKeys().count }
    }

    @Test("The identity is stored as the credential's subject and profile; the closure reads the provider's API with the new token")
    func storedAsSubjectAndProfile() async throws {
        let seen = Seen()
        let userinfo = TestIdentityProvider.defaultIssuer.appendingPathComponent("userinfo")
        let harness = Harness { context in
            await seen.record(context)
            let body = try JSONValue.parseObject(try await context.get(userinfo, endpoint: "user_api"))
            return ProviderIdentity(subject: body["sub"]?.stringValue ?? "", profile: ["email": body["email"]?.stringValue ?? "", "team": "blue"])
        }
        let session = try await harness.client.signIn(with: harness.agent)
        let credential = await session.credential
        #expect(credential.subject == "user-1234")
        #expect(credential.profile == ["email": "alice@example.com", "team": "blue"])
        #expect(await seen.grants == [.authorizationCode])
        #expect(await seen.hadClaims == [true])
        #expect(await harness.storage.credential(for: credential.storageKey)?.profile?["team"] == "blue")
    }

    @Test("Without an ID token (no openid), the identity gives the subject")
    func subjectWithoutIDToken() async throws {
        let harness = Harness(scopes: ["email"]) { _ in ProviderIdentity(subject: "42", profile: ["login": "octo"]) }
        let session = try await harness.client.signIn(with: harness.agent)
        let credential = await session.credential
        #expect(credential.idToken == nil)
        #expect(credential.subject == "42" && credential.profile == ["login": "octo"])
    }

    @Test("The profile is kept across a refresh")
    func profileKeptAcrossRefresh() async throws {
        let harness = Harness { context in ProviderIdentity(subject: context.idTokenClaims?.subject ?? "", profile: ["name": "Alice"]) }
        let session = try await harness.client.signIn(with: harness.agent)
        let before = await session.credential
        let after = try await session.refresh()
        #expect(after.accessToken != before.accessToken)
        #expect(after.profile == ["name": "Alice"] && after.subject == "user-1234")
        #expect(await harness.storage.credential(for: after.storageKey)?.profile == ["name": "Alice"])
    }

    @Test("A throwing resolveIdentity fails the sign-in with its error; nothing is stored")
    func throwingStoresNothing() async throws {
        let harness = Harness { _ in throw AuthError("refused_by_provider", "Not this user.") }
        let error = await authError { _ = try await harness.client.signIn(with: harness.agent) }
        #expect(error?.code == "refused_by_provider")
        #expect(error?.providerID == "resolving")
        #expect(await harness.storedCount() == 0)
    }

    @Test("An identity naming another subject than the ID token: subject_mismatch, nothing stored")
    func subjectMismatch() async throws {
        let harness = Harness { _ in ProviderIdentity(subject: "someone-else") }
        let error = await authError { _ = try await harness.client.signIn(with: harness.agent) }
        #expect(error?.code == .subjectMismatch)
        #expect(await harness.storedCount() == 0)
    }

    @Test("An empty subject is refused (missing_claim); nothing stored")
    func emptySubject() async throws {
        let harness = Harness(scopes: ["email"]) { _ in ProviderIdentity(subject: "") }
        let error = await authError { _ = try await harness.client.signIn(with: harness.agent) }
        #expect(error?.code == .missingClaim)
        #expect(await harness.storedCount() == 0)
    }

    @Test("Device sign-ins ask too, with the device_code grant")
    func deviceSignIn() async throws {
        let seen = Seen()
        var options = AuthClient.Options()
        let approver = DeviceApprover()
        options.pollingSleep = { _ in await approver.approve() }
        let clock = ManualClock()
        let idp = TestIdentityProvider(clock: clock)
        let storage = InMemoryTokenStorage()
        let provider = IdentityResolvingProvider(scopes: ["openid", "email"]) { context in
            await seen.record(context)
            return ProviderIdentity(subject: context.idTokenClaims?.subject ?? "", profile: ["via": "device"])
        }
        let client = AuthClient(provider: provider, storage: storage, transport: idp.transport, clock: clock, options: options)
        let authorization = try await client.startDeviceAuthorization()
        await approver.set(idp, authorization.userCode)
        let session = try await client.completeDeviceAuthorization(authorization)
        #expect(await session.credential.profile == ["via": "device"])
        #expect(await seen.grants == [.deviceCode])
    }
}
