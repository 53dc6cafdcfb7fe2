import AuthCore
import AuthEmulators
import AuthGoogle
import AuthProviders
import AuthTesting
import Foundation
import Testing

@Suite("Google")
struct GoogleProviderTests {
    private struct Harness {
        let emulator: ProviderEmulator
        let idp: TestIdentityProvider
        let storage: InMemoryTokenStorage
        let client: AuthClient
    }

    private func harness(
        hostedDomain: String? = nil,
        offline: Bool = true,
        configure: ((inout ProviderConfiguration) -> Void)? = nil
    ) throws -> Harness {
        let emulator = ProviderEmulator.google(clock: ManualClock(), hostedDomain: hostedDomain, offline: offline)
        var configuration = emulator.configuration
        configure?(&configuration)
        let provider = try ProviderRegistry.builtIn.provider(named: "google", configuration: configuration)
        let storage = InMemoryTokenStorage()
        let client = AuthClient(provider: provider, storage: storage, transport: emulator.transport, logger: RecordingLogger(), clock: emulator.clock)
        return Harness(emulator: emulator, idp: emulator.identityProvider!, storage: storage, client: client)
    }

    /// Signs in; returns the authorization request's query and the session.
    private func signIn(_ harness: Harness, options: SignInOptions = SignInOptions()) async throws -> ([String: String], Session) {
        let request = try await harness.client.prepareSignIn(options: options)
        let query = Self.query(request.url)
        let redirect = try await harness.emulator.userAgent.authorize(request)
        return (query, try await harness.client.completeSignIn(redirect: redirect))
    }

    /// Signs in expecting a refusal; returns the error.
    private func refusedSignIn(_ harness: Harness) async throws -> AuthError? {
        let request = try await harness.client.prepareSignIn()
        let redirect = try await harness.emulator.userAgent.authorize(request)
        return await #expect(throws: AuthError.self) { try await harness.client.completeSignIn(redirect: redirect) }
    }

    private static func query(_ url: URL) -> [String: String] {
        Dictionary((URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { first, _ in first }
    }

    // MARK: Registry and configuration

    @Test("'google' is a built-in provider with an emulator; client_id and redirect_uri are required")
    func registeredByName() throws {
        #expect(ProviderRegistry.builtIn.providerIDs.contains("google"))
        #expect(ProviderEmulator.emulatedProviderIDs.contains("google"))
        let provider = try ProviderRegistry.builtIn.provider(named: "google", configuration: ProviderEmulator.google().configuration)
        let google = try #require(provider as? GoogleProvider)
        #expect(google.issuer.absoluteString == "https://accounts.google.com")
        #expect(google.idTokenPolicy.alternativeIssuers == ["accounts.google.com"])
        for key in ["client_id", "redirect_uri"] {
            var values = ProviderEmulator.google().configuration
            values[key] = nil
            let error = #expect(throws: AuthError.self) { try GoogleProvider(configuration: values) }
            #expect(error?.code == .missingConfigurationKey)
            #expect(error?.configurationKey == key)
        }
        var bad = ProviderEmulator.google().configuration
        bad["hosted_domain"] = "alex@example.com"
        #expect(throws: AuthError.self) { try GoogleProvider(configuration: bad) }
    }

    // MARK: Issuer with and without https://

    @Test("Discovery at https://accounts.google.com; an ID token whose iss is https://accounts.google.com signs in")
    func signsInWithHTTPSIssuer() async throws {
        let harness = try harness()
        let (_, session) = try await signIn(harness)
        let credential = await session.credential
        #expect(credential.issuer == "https://accounts.google.com")
        #expect(credential.subject == "110169484474386276334")
        #expect(await harness.idp.requestCounts["/.well-known/openid-configuration"] == 1)
    }

    @Test("An ID token whose iss is accounts.google.com (no scheme) is accepted, at sign-in and on refresh")
    func schemelessIssuerAccepted() async throws {
        let harness = try harness()
        await harness.idp.update { $0.idTokenClaimOverrides["iss"] = "accounts.google.com" }
        let (_, session) = try await signIn(harness)
        #expect(await session.idTokenClaims?.issuer == "accounts.google.com")
        #expect(await session.credential.issuer == "https://accounts.google.com")
        _ = try await session.refresh()
        #expect(await harness.storage.isEmpty == false)
    }

    @Test(
        "An ID token whose iss is neither Google form is refused with invalid_issuer and nothing is stored",
        arguments: ["http://accounts.google.com", "https://accounts.google.com/", "accounts.google.com.evil.example", "https://evil.example"]
    )
    func foreignIssuerRefused(issuer: String) async throws {
        let harness = try harness()
        await harness.idp.update { $0.idTokenClaimOverrides["iss"] = .string(issuer) }
        let error = try await refusedSignIn(harness)
        #expect(error?.code == .invalidIssuer)
        #expect(await harness.storage.isEmpty)
    }

    // MARK: Hosted domain

    @Test("hosted_domain is sent as hd, and an ID token with that hd signs in")
    func hostedDomainSentAndAccepted() async throws {
        let harness = try harness(hostedDomain: "Example.com")
        let (query, session) = try await signIn(harness)
        #expect(query["hd"] == "example.com")
        #expect(await session.idTokenClaims?["hd"] == "example.com")
    }

    @Test("A Google token from another hd is refused with google_hosted_domain_mismatch and nothing is stored")
    func otherHostedDomainRefused() async throws {
        let harness = try harness(hostedDomain: "example.com")
        await harness.idp.update { $0.idTokenClaimOverrides["hd"] = "attacker.example" }
        let error = try await refusedSignIn(harness)
        #expect(error?.code == .googleHostedDomainMismatch)
        #expect(error?.providerID == "google")
        #expect(await harness.storage.isEmpty)
    }

    @Test(
        "Hostile: another domain's genuine tokens are refused by a hosted_domain client on every path — a backend's verifyIDToken and imported tokens — as by a sign-in; nothing stored"
    )
    func hostedDomainOnEveryPath() async throws {
        // A client without the restriction signs in a user of another Workspace domain: genuine Google tokens.
        let open = try harness()
        await open.idp.update { $0.idTokenClaimOverrides["hd"] = "attacker.example" }
        let credential = try await signIn(open).1.credential
        let idToken = try #require(credential.idToken)

        let restricted = try harness(hostedDomain: "example.com")
        let verified = await #expect(throws: AuthError.self) { _ = try await restricted.client.verifyIDToken(idToken) }
        #expect(verified?.code == .googleHostedDomainMismatch)
        let tokens = TokenResponse(accessToken: credential.accessToken, idToken: idToken)
        let imported = await #expect(throws: AuthError.self) { _ = try await restricted.client.importTokens(tokens) }
        #expect(imported?.code == .googleHostedDomainMismatch)
        #expect(await restricted.storage.isEmpty)
        // The same tokens pass where no domain is required.
        _ = try await open.client.verifyIDToken(idToken)
    }

    @Test("A token without hd (a consumer account) is refused when hosted_domain is set, even '*'", arguments: ["example.com", "*"])
    func missingHostedDomainRefused(domain: String) async throws {
        let harness = try harness(hostedDomain: domain)
        await harness.idp.update { $0.idTokenClaimRemovals = ["hd"] }
        let error = try await refusedSignIn(harness)
        #expect(error?.code == .googleHostedDomainMismatch)
        #expect(await harness.storage.isEmpty)
    }

    @Test("Without hosted_domain no hd is sent and any account signs in")
    func noHostedDomain() async throws {
        let harness = try harness()
        await harness.idp.update { $0.idTokenClaimRemovals = ["hd"] }
        let (query, _) = try await signIn(harness)
        #expect(query["hd"] == nil)
    }

    // MARK: Offline access

    @Test("offline sends access_type=offline and prompt=consent, joined to the app's prompt; a refresh token is issued and used")
    func offlineAccess() async throws {
        let harness = try harness(offline: true)
        let (query, session) = try await signIn(harness, options: SignInOptions(prompt: ["select_account"]))
        #expect(query["access_type"] == "offline")
        #expect(query["prompt"] == "select_account consent")
        #expect(await session.credential.refreshToken != nil)
        let before = await session.credential.accessToken
        #expect(try await session.refresh().accessToken != before)
        // A second sign-in still gets a refresh token: prompt=consent asks again.
        let (_, again) = try await signIn(harness)
        #expect(await again.credential.refreshToken != nil)
    }

    @Test("The emulator issues a refresh token for access_type=offline only on the first consent, unless prompt=consent")
    func refreshTokenOnlyOnFirstConsent() async throws {
        let harness = try harness(offline: false)
        let options = SignInOptions(additionalParameters: ["access_type": "offline"])
        let (plain, first) = try await signIn(harness, options: options)
        #expect(plain["access_type"] == "offline" && plain["prompt"] == nil)
        #expect(await first.credential.refreshToken != nil)
        let (_, second) = try await signIn(harness, options: options)
        #expect(await second.credential.refreshToken == nil)
        let (_, online) = try await signIn(harness)
        #expect(await online.credential.refreshToken == nil)
    }

    @Test("prompt=none is never combined with consent (Google refuses the pair, and so does the emulator)")
    func promptNone() async throws {
        let harness = try harness(offline: true)
        let request = try await harness.client.prepareSignIn(options: SignInOptions(prompt: ["none"]))
        #expect(Self.query(request.url)["prompt"] == "none")

        let refused = try self.harness(offline: false)
        let bad = try await refused.client.prepareSignIn(options: SignInOptions(prompt: ["none", "consent"]))
        let redirect = try await refused.emulator.userAgent.authorize(bad)
        let error = await #expect(throws: AuthError.self) { try await refused.client.completeSignIn(redirect: redirect) }
        #expect(error?.code == .authorizationFailed)
        #expect(error?.oauthError == "invalid_request")
        #expect(await refused.storage.isEmpty)
    }

    @Test("The emulator refuses an access_type Google does not know")
    func unknownAccessTypeRefused() async throws {
        let harness = try harness(offline: false)
        let request = try await harness.client.prepareSignIn(options: SignInOptions(additionalParameters: ["access_type": "forever"]))
        let redirect = try await harness.emulator.userAgent.authorize(request)
        let error = await #expect(throws: AuthError.self) { try await harness.client.completeSignIn(redirect: redirect) }
        #expect(error?.oauthError == "invalid_request")
        #expect(await harness.storage.isEmpty)
    }

    // MARK: Incremental scopes

    @Test("include_granted_scopes=true by default; a later sign-in asks for more scopes with additionalScopes or addingScopes")
    func incrementalScopes() async throws {
        let harness = try harness()
        let (first, _) = try await signIn(harness)
        #expect(first["include_granted_scopes"] == "true")
        #expect(first["scope"] == "openid email profile")
        let drive = "https://www.googleapis.com/auth/drive.readonly"
        let (later, session) = try await signIn(harness, options: SignInOptions(additionalScopes: [drive]))
        #expect(later["scope"] == "openid email profile \(drive)")
        #expect(later["include_granted_scopes"] == "true")
        #expect(await session.credential.scopes.contains(drive))

        let provider = try GoogleProvider(configuration: harness.emulator.configuration).addingScopes([drive, "email"])
        #expect(provider.client.scopes == ["openid", "email", "profile", drive])

        let off = try self.harness { $0["include_granted_scopes"] = false }
        let request = try await off.client.prepareSignIn()
        #expect(Self.query(request.url)["include_granted_scopes"] == nil)
    }
}
