import AuthCore
import AuthEmulators
import AuthGOVUK
import AuthTesting
import Foundation
import GOVUKCompat
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What GOV.UK's secure token service (STS) gives an app after sign-in, as GOV.UK's own app uses it
/// (govuk-one-login/mobile-ios-one-login-app at b86c0bf): the user from the ID token (`IdTokenPayload.swift`), no
/// user-info endpoint, and tokens it treats as bearer values (`URLRequest+OneLogin.swift`).
@Suite("GOV.UK One Login: the user and the token type at GOV.UK's token service")
struct GOVUKTokenServiceUserTests {
    struct Harness {
        let idp: TestIdentityProvider
        let transport: RecordingTransport
        let storage: InMemoryTokenStorage
        let login: OneLoginSession
    }

    /// The `oneLogin(.integration, …)` preset against the STS emulator, which answers at the real STS's host in process.
    static func harness() throws -> Harness {
        let clock = ManualClock()
        let idp = TestIdentityProvider.govUK(clock: clock)
        let transport = RecordingTransport(idp.transport)
        let storage = InMemoryTokenStorage()
        let configuration = try GOVUKAppConfiguration.oneLogin(
            .integration, clientID: TestIdentityProvider.govUKClientID, redirectURI: TestIdentityProvider.govUKRedirectURI,
            tokenHeaders: { TestIdentityProvider.govUKAttestationHeaders })
        let login = OneLoginSession(configuration: configuration, storage: storage, transport: transport, clock: clock)
        return Harness(idp: idp, transport: transport, storage: storage, login: login)
    }

    @Test(
        "The STS has no user-info endpoint: the preset names none, the emulator answers /userinfo 404, and UserService reads the user from the verified ID token without a request")
    func userFromIDToken() async throws {
        let harness = try Self.harness()
        let configuration = try #require(harness.login.authClient.provider as? GOVUKProvider).configuration
        #expect(configuration.isTokenService && configuration.effectiveUserInfoEndpoint == nil)
        _ = try await harness.login.present(with: HeadlessUserAgent(transport: harness.idp.transport))
        let session = try #require(await harness.login.session)

        let user = try await UserService(session: session).fetchUserInfo()
        #expect(user == UserInfo(sub: "urn:fdc:gov.uk:2022:emulated-user", email: "citizen@example.gov.uk", emailVerified: true, phoneNumber: nil, phoneNumberVerified: false))
        #expect(await session.idTokenClaims?["persistent_id"]?.stringValue == "emulated-persistent-id")
        #expect(await harness.transport.exchanges(pathSuffix: "/userinfo").isEmpty)

        // The engine's own user-info call says why it cannot work: there is no endpoint (no request is made).
        let error = await #expect(throws: AuthError.self) { _ = try await session.userInfo() }
        #expect(error?.code == .endpointUnavailable)
        #expect(await harness.transport.exchanges(pathSuffix: "/userinfo").isEmpty)

        // The emulator does not serve what GOV.UK's STS does not publish.
        var request = CapturedRequest(url: harness.idp.endpoint("/userinfo"))
        request.httpMethod = "GET"
        let accessToken = await session.credential.accessToken
        request.setValue("Bearer \(accessToken.reveal())", forHTTPHeaderField: "Authorization")
        #expect(await harness.idp.handle(request).1.status.code == 404)
    }

    @Test("An STS ID token without email is missing_claim naming it, and the session is kept")
    func idTokenWithoutEmail() async throws {
        let harness = try Self.harness()
        await harness.idp.update { $0.idTokenClaimRemovals = ["email"] }
        _ = try await harness.login.present(with: HeadlessUserAgent(transport: harness.idp.transport))
        let session = try #require(await harness.login.session)
        let error = await #expect(throws: AuthError.self) { _ = try await UserService(session: session).fetchUserInfo() }
        #expect(error?.code == .missingClaim && error?.message.contains("'email'") == true)
        #expect(await harness.storage.storedKeys().count == 1)
    }

    @Test("A configuration that names a user-info endpoint still fetches from it, even at the STS's host")
    func explicitEndpointWins() throws {
        let configuration = try GOVUKAppConfiguration(
            authorizationEndpoint: URL(string: "https://token.integration.account.gov.uk/authorize")!,
            tokenEndpoint: URL(string: "https://token.integration.account.gov.uk/token")!,
            userInfoEndpoint: URL(string: "https://example.gov.uk/userinfo")!,
            clientID: "c", redirectURI: TestIdentityProvider.govUKRedirectURI)
        #expect(configuration.isTokenService && configuration.effectiveUserInfoEndpoint?.absoluteString == "https://example.gov.uk/userinfo")
        let service = try GOVUKAppConfiguration(
            authorizationEndpoint: URL(string: "https://oidc.integration.account.gov.uk/authorize")!,
            tokenEndpoint: URL(string: "https://oidc.integration.account.gov.uk/token")!,
            clientID: "c", redirectURI: TestIdentityProvider.govUKRedirectURI)
        #expect(!service.isTokenService && service.effectiveUserInfoEndpoint?.absoluteString == "https://oidc.integration.account.gov.uk/userinfo")
    }

    /// GOV.UK N3. GOV.UK's app sends its `DPoP` header only as part of the client attestation for `POST <sts>/token`
    /// (`AppIntegrityDPoPJWT.swift`: `htm` POST, `htu` the STS token endpoint; `FirebaseAppIntegrityService.swift`
    /// returns it with the two `OAuth-Client-Attestation` headers), never with its access token: the app hands the
    /// token back to the STS as the `subject_token` of a token exchange with no DPoP header
    /// (`URLRequest+OneLogin.swift` `serviceTokenExchange`), and its tests model the STS's answers as
    /// `"token_type": "bearer"` (`RefreshTokenExchangeManagerTests.swift`). So the STS's tokens are bearer values, in
    /// whatever case: they are accepted and stored as `Bearer`. A `DPoP` answer would bind the token to a key only the
    /// app's attestation service holds, which this client cannot prove possession of; it is refused
    /// `unsupported_token_type` with nothing stored (documented in the GOVUKCompat migration guide).
    @Test("Token type at the STS: 'bearer' in GOV.UK's app's case signs in and is stored Bearer; 'DPoP' is unsupported_token_type, nothing stored")
    func tokenTypeAtTheTokenService() async throws {
        let harness = try Self.harness()
        await harness.idp.update { $0.tokenResponseOverrides = ["token_type": "bearer"] }
        let tokens = try await harness.login.present(with: HeadlessUserAgent(transport: harness.idp.transport))
        #expect(tokens.tokenType == "Bearer")
        #expect(await harness.login.session?.credential.tokenType == "Bearer")

        let bound = try Self.harness()
        await bound.idp.update { $0.tokenResponseOverrides = ["token_type": "DPoP"] }
        let error = await #expect(throws: AuthError.self) { _ = try await bound.login.present(with: HeadlessUserAgent(transport: bound.idp.transport)) }
        #expect(error?.code == .unsupportedTokenType)
        #expect(await bound.storage.storedKeys().isEmpty)
        #expect(await bound.login.session == nil)
    }
}
