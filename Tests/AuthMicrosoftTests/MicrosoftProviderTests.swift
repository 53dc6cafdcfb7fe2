import AuthCore
import AuthEmulators
import AuthMicrosoft
import AuthProviders
import AuthTesting
import Foundation
import Testing

@Suite("Microsoft")
struct MicrosoftProviderTests {
    private static let work = TestIdentityProvider.microsoftUserTenantID
    private static let personal = TestIdentityProvider.microsoftPersonalAccountsTenantID
    private static let other = "0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d"

    private struct Harness {
        let emulator: ProviderEmulator
        let idp: TestIdentityProvider
        let storage: InMemoryTokenStorage
        let client: AuthClient
    }

    private func harness(tenant: String = "common", userTenant: String = work, allowedTenants: [String]? = nil) throws -> Harness {
        let emulator = ProviderEmulator.microsoft(clock: ManualClock(), tenant: tenant, userTenant: userTenant, allowedTenants: allowedTenants)
        let provider = try ProviderRegistry.builtIn.provider(named: "microsoft", configuration: emulator.configuration)
        let storage = InMemoryTokenStorage()
        let client = AuthClient(provider: provider, storage: storage, transport: emulator.transport, logger: RecordingLogger(), clock: emulator.clock)
        return Harness(emulator: emulator, idp: emulator.identityProvider!, storage: storage, client: client)
    }

    private func signIn(_ harness: Harness) async throws -> Session {
        let request = try await harness.client.prepareSignIn()
        let redirect = try await harness.emulator.userAgent.authorize(request)
        return try await harness.client.completeSignIn(redirect: redirect)
    }

    private func refusedSignIn(_ harness: Harness) async throws -> AuthError? {
        let request = try await harness.client.prepareSignIn()
        let redirect = try await harness.emulator.userAgent.authorize(request)
        return await #expect(throws: AuthError.self) { try await harness.client.completeSignIn(redirect: redirect) }
    }

    /// A token of `tenant` whose `iss` names that tenant (signed by the emulator: Microsoft signs every tenant's
    /// tokens with the same keys).
    private func impersonate(_ harness: Harness, tenant: String) async {
        await harness.idp.update {
            $0.idTokenClaimOverrides["tid"] = .string(tenant)
            $0.idTokenClaimOverrides["iss"] = .string("https://login.microsoftonline.com/\(tenant)/v2.0")
        }
    }

    // MARK: Registry and configuration

    @Test("'microsoft' is a built-in provider with an emulator; the tenant chooses the v2.0 endpoints")
    func registeredByName() throws {
        #expect(ProviderRegistry.builtIn.providerIDs.contains("microsoft"))
        #expect(ProviderEmulator.emulatedProviderIDs.contains("microsoft"))
        let provider = try #require(try ProviderRegistry.builtIn.provider(named: "microsoft", configuration: ProviderEmulator.microsoft().configuration) as? MicrosoftProvider)
        #expect(provider.issuer.absoluteString == "https://login.microsoftonline.com/common/v2.0")
        #expect(provider.idTokenPolicy.issuerTemplate?.template == "https://login.microsoftonline.com/{tenantid}/v2.0")
        for tenant in ["organizations", "consumers"] {
            let configured = try MicrosoftProvider(configuration: ProviderConfiguration(["client_id": "c", "redirect_uri": "https://app.example/cb", "tenant": .string(tenant)]))
            #expect(configured.issuer.absoluteString == "https://login.microsoftonline.com/\(tenant)/v2.0")
            #expect(configured.idTokenPolicy.issuerTemplate != nil)
        }
        // One tenant by id: its exact issuer, no template.
        let single = try MicrosoftProvider(
            configuration: ProviderConfiguration(["client_id": "c", "redirect_uri": "https://app.example/cb", "tenant": .string(Self.work.uppercased())]))
        #expect(single.issuer.absoluteString == "https://login.microsoftonline.com/\(Self.work)/v2.0")
        #expect(single.idTokenPolicy == .standard)
    }

    @Test("A tenant domain needs allowed_tenants (tokens name tenant ids); allowed_tenants must be tenant ids")
    func configurationErrors() throws {
        let base: [String: JSONValue] = ["client_id": "c", "redirect_uri": "https://app.example/cb"]
        var domain = ProviderConfiguration(base)
        domain["tenant"] = "contoso.onmicrosoft.com"
        let error = #expect(throws: AuthError.self) { try MicrosoftProvider(configuration: domain) }
        #expect(error?.configurationKey == "allowed_tenants")
        domain["allowed_tenants"] = .string(Self.work)
        #expect(try MicrosoftProvider(configuration: domain).idTokenPolicy.issuerTemplate != nil)

        var names = ProviderConfiguration(base)
        names["allowed_tenants"] = "contoso.com"
        #expect(throws: AuthError.self) { try MicrosoftProvider(configuration: names) }
        var missing = ProviderConfiguration(base)
        missing["client_id"] = nil
        #expect((#expect(throws: AuthError.self) { try MicrosoftProvider(configuration: missing) })?.code == .missingConfigurationKey)
    }

    // MARK: The templated issuer

    @Test("common: the discovery document's {tenantid} issuer is accepted and the token's iss names its own tid; refresh keeps working")
    func commonTenant() async throws {
        let harness = try harness()
        let document = try await harness.client.metadata()
        #expect(document.issuer == "https://login.microsoftonline.com/common/v2.0")
        let session = try await signIn(harness)
        let claims = await session.idTokenClaims
        #expect(claims?.issuer == "https://login.microsoftonline.com/\(Self.work)/v2.0")
        #expect(claims?["tid"]?.stringValue == Self.work)
        #expect(await session.credential.issuer == "https://login.microsoftonline.com/common/v2.0")
        let before = await session.credential.accessToken
        #expect(try await session.refresh().accessToken != before)
    }

    @Test("A Microsoft token whose iss does not match its tid is refused with invalid_issuer and nothing is stored")
    func issuerNotMatchingTenantRefused() async throws {
        let harness = try harness()
        await harness.idp.update { $0.idTokenClaimOverrides["tid"] = .string(Self.other) }
        let error = try await refusedSignIn(harness)
        #expect(error?.code == .invalidIssuer)
        #expect(await harness.storage.isEmpty)
    }

    @Test(
        "An iss of the template itself, of the configured 'common' issuer, or a tid that is not one path segment is refused",
        arguments: [
            ("https://login.microsoftonline.com/{tenantid}/v2.0", work),
            ("https://login.microsoftonline.com/common/v2.0", work),
            ("https://login.microsoftonline.com/a/b/v2.0", "a/b")
        ]
    )
    func malformedIssuerRefused(issuer: String, tid: String) async throws {
        let harness = try harness()
        await harness.idp.update {
            $0.idTokenClaimOverrides["iss"] = .string(issuer)
            $0.idTokenClaimOverrides["tid"] = .string(tid)
        }
        let error = try await refusedSignIn(harness)
        #expect(error?.code == .invalidIssuer)
        #expect(await harness.storage.isEmpty)
    }

    @Test("A token without tid is refused at the multi-tenant endpoints (its iss cannot be checked)")
    func missingTenantRefused() async throws {
        let harness = try harness()
        await harness.idp.update { $0.idTokenClaimRemovals = ["tid"] }
        let error = try await refusedSignIn(harness)
        #expect(error?.code == .invalidIssuer)
        #expect(await harness.storage.isEmpty)
    }

    // MARK: Tenants

    @Test("allowed_tenants: a token from a tenant on the list signs in")
    func allowedTenantSignsIn() async throws {
        let harness = try harness(allowedTenants: [Self.other, Self.work.uppercased()])
        _ = try await signIn(harness)
        #expect(await harness.storage.isEmpty == false)
    }

    @Test("A Microsoft token from a tenant outside the allow-list is refused with microsoft_tenant_not_allowed and nothing is stored")
    func tenantOutsideAllowListRefused() async throws {
        let harness = try harness(allowedTenants: [Self.other])
        let error = try await refusedSignIn(harness)
        #expect(error?.code == .microsoftTenantNotAllowed)
        #expect(error?.providerID == "microsoft")
        #expect(await harness.storage.isEmpty)
    }

    @Test("Hostile: a token from a tenant outside allowed_tenants is refused on every path — a backend's verifyIDToken and imported tokens — as by a sign-in; nothing stored")
    func tenantRulesOnEveryPath() async throws {
        let open = try harness()
        let credential = try await signIn(open).credential
        let idToken = try #require(credential.idToken)

        let restricted = try harness(allowedTenants: [Self.other])
        let verified = await #expect(throws: AuthError.self) { _ = try await restricted.client.verifyIDToken(idToken) }
        #expect(verified?.code == .microsoftTenantNotAllowed)
        let imported = await #expect(throws: AuthError.self) {
            _ = try await restricted.client.importTokens(TokenResponse(accessToken: credential.accessToken, idToken: idToken))
        }
        #expect(imported?.code == .microsoftTenantNotAllowed)
        #expect(await restricted.storage.isEmpty)
        _ = try await open.client.verifyIDToken(idToken)
    }

    @Test("Refresh: a refreshed ID token of another tenant (same sub, its own iss) is refused as another issuer; the session and the stored credential are kept")
    func refreshOfAnotherTenantKeepsSession() async throws {
        let harness = try harness()
        let session = try await signIn(harness)
        let before = await session.credential
        // A token of another tenant, signed with Microsoft's keys (the same for every tenant): a provider's mistake or
        // an attack about this one answer, never a reason to sign the user out.
        await impersonate(harness, tenant: Self.other)
        let error = await #expect(throws: AuthError.self) { try await session.refresh() }
        #expect(error?.code == .subjectMismatch)
        #expect(await session.isSignedIn)
        #expect(await harness.storage.credential(for: before.storageKey) == before)
        #expect(try await session.validAccessToken() == before.accessToken)
    }

    @Test("Refresh runs the tenant rule: once allowed_tenants no longer names the user's tenant, a refresh signs the user out; nothing of it is stored")
    func refreshRunsTenantRule() async throws {
        let harness = try harness()
        _ = try await signIn(harness)
        // The app restarts with a narrower allow-list; the stored session is the same user of the same tenant.
        var configuration = harness.emulator.configuration
        configuration["allowed_tenants"] = .string(Self.other)
        let narrowed = AuthClient(
            provider: try ProviderRegistry.builtIn.provider(named: "microsoft", configuration: configuration), storage: harness.storage,
            transport: harness.emulator.transport, logger: RecordingLogger(), clock: harness.emulator.clock)
        let session = try #require(try await narrowed.restoreSession())
        var events = await session.events().makeAsyncIterator()
        let error = await #expect(throws: AuthError.self) { try await session.refresh() }
        #expect(error?.code == .microsoftTenantNotAllowed)
        #expect(await events.next()?.kind == .signedOut(.identityRejected))
        #expect(await session.isSignedIn == false)
        #expect(await harness.storage.isEmpty)
    }

    @Test("organizations: a work account signs in; a personal account is refused by the service and, if a token came, by the client")
    func organizations() async throws {
        _ = try await signIn(try harness(tenant: "organizations"))

        let service = try harness(tenant: "organizations", userTenant: Self.personal)
        let refusal = try await refusedSignIn(service)
        #expect(refusal?.code == .authorizationFailed)
        #expect(await service.storage.isEmpty)

        let client = try harness(tenant: "organizations")
        await impersonate(client, tenant: Self.personal)
        let error = try await refusedSignIn(client)
        #expect(error?.code == .microsoftTenantNotAllowed)
        #expect(await client.storage.isEmpty)
    }

    @Test("consumers: a personal account signs in (the document names the personal tenant's issuer); a work account is refused")
    func consumers() async throws {
        let personal = try harness(tenant: "consumers", userTenant: Self.personal)
        let session = try await signIn(personal)
        #expect(await session.idTokenClaims?["tid"]?.stringValue == Self.personal)

        let service = try harness(tenant: "consumers")
        #expect(try await refusedSignIn(service)?.code == .authorizationFailed)

        let client = try harness(tenant: "consumers", userTenant: Self.personal)
        await impersonate(client, tenant: Self.work)
        let error = try await refusedSignIn(client)
        #expect(error?.code == .microsoftTenantNotAllowed)
        #expect(await client.storage.isEmpty)
    }

    @Test("One tenant by id: its own users sign in with the exact issuer; a token of another tenant is refused")
    func singleTenant() async throws {
        _ = try await signIn(try harness(tenant: Self.work))

        let hostile = try harness(tenant: Self.work)
        await impersonate(hostile, tenant: Self.other)
        let error = try await refusedSignIn(hostile)
        #expect(error?.code == .invalidIssuer)
        #expect(await hostile.storage.isEmpty)
    }

    @Test("The emulator refuses a prompt value Microsoft does not accept")
    func unknownPromptRefused() async throws {
        let harness = try harness()
        let request = try await harness.client.prepareSignIn(options: SignInOptions(prompt: ["create_everything"]))
        let redirect = try await harness.emulator.userAgent.authorize(request)
        let error = await #expect(throws: AuthError.self) { try await harness.client.completeSignIn(redirect: redirect) }
        #expect(error?.oauthError == "invalid_request")
        #expect(await harness.storage.isEmpty)
    }
}
