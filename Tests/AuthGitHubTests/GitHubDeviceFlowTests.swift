import AuthCore
import AuthDeviceFlow
import AuthEmulators
import AuthGitHub
import AuthTesting
import Foundation
import Testing

/// What each poll of a device sign-in does, and the intervals it waited (no real waiting).
private actor PollLog {
    private(set) var intervals: [Duration] = []
    private var step: (@Sendable (Int) async -> Void)?

    func setStep(_ step: @escaping @Sendable (Int) async -> Void) { self.step = step }

    func poll(_ interval: Duration) async {
        intervals.append(interval)
        await step?(intervals.count)
    }
}

@Suite("GitHub device flow")
struct GitHubDeviceFlowTests {
    private func harness(_ log: PollLog) throws -> GitHubProviderTests.Harness {
        try GitHubProviderTests.harness(pollingSleep: { interval in await log.poll(interval) })
    }

    @Test("As gh auth login: a XXXX-XXXX code for https://github.com/login/device, pending, slow_down adds 5 s, then the identity is stored")
    func approvedAfterSlowDown() async throws {
        let log = PollLog()
        let harness = try harness(log)
        await harness.idp.update { $0.deviceSlowDowns = 1 }
        let authorization = try await harness.client.startDeviceAuthorization()
        #expect(authorization.userCode.count == 9 && Array(authorization.userCode)[4] == "-")
        #expect(authorization.verificationURI.absoluteString == "https://github.com/login/device")
        #expect(authorization.verificationURIComplete == nil)
        #expect(authorization.interval == .seconds(5))
        #expect(authorization.expiresAt == harness.clock.now().addingTimeInterval(900))
        let sent = try #require(await harness.transport.exchanges(pathSuffix: "/login/device/code").first)
        #expect(sent.formParameters["client_id"] == TestIdentityProvider.githubClientID)
        #expect(sent.formParameters["scope"] == "read:user user:email")
        let idp = harness.idp
        let code = authorization.userCode
        // Poll 1: slow_down; poll 2: authorization_pending; the user approves before poll 3.
        await log.setStep { poll in if poll == 3 { await idp.approveDevice(userCode: code) } }
        let session = try await harness.client.completeDeviceAuthorization(authorization)
        #expect(await log.intervals == [.seconds(5), .seconds(10), .seconds(10)])
        // Each error came as GitHub sends it: HTTP 200 with an error member.
        let polls = await harness.transport.exchanges(pathSuffix: "/login/oauth/access_token")
        #expect(polls.map(\.status) == [200, 200, 200])
        #expect(polls.prefix(2).map { (try? JSONValue.parseObject($0.responseBody))?["error"]?.stringValue } == ["slow_down", "authorization_pending"])
        let credential = await session.credential
        #expect(credential.subject == "583231" && credential.profile?["email"] == "octocat@github.com")
        #expect(try await harness.storedCount() == 1)
    }

    @Test("Declined on the verification page: access_denied, nothing stored")
    func denied() async throws {
        let harness = try harness(PollLog())
        let authorization = try await harness.client.startDeviceAuthorization()
        await harness.idp.denyDevice(userCode: authorization.userCode)
        let error = await #expect(throws: AuthError.self) { _ = try await harness.client.completeDeviceAuthorization(authorization) }
        #expect(error?.code == .accessDenied && error?.oauthError == "access_denied")
        #expect(try await harness.storedCount() == 0)
    }

    @Test("Not approved within the code's 15 minutes: device_code_expired, nothing stored")
    func expired() async throws {
        let log = PollLog()
        let harness = try harness(log)
        let clock = harness.clock
        await log.setStep { _ in clock.advance(by: 600) }
        let authorization = try await harness.client.startDeviceAuthorization()
        let error = await #expect(throws: AuthError.self) { _ = try await harness.client.completeDeviceAuthorization(authorization) }
        #expect(error?.code == .deviceCodeExpired)
        #expect(try await harness.storedCount() == 0)
    }

    @Test("Served as auth-emulator serves it (GitHub Enterprise Server's shape): web_url and api_url on the origin, the API under /api/v3")
    func servedShape() async throws {
        let origin = URL(string: "http://127.0.0.1:8791")!
        let emulator = try #require(ProviderEmulator.served("github", at: origin))
        #expect(emulator.configuration["web_url"]?.stringValue == "http://127.0.0.1:8791")
        #expect(emulator.configuration["api_url"]?.stringValue == "http://127.0.0.1:8791/api/v3")
        let provider = try GitHubProvider(configuration: emulator.configuration)
        let idp = try #require(emulator.identityProvider)
        let transport = RecordingTransport(emulator.transport)
        var options = AuthClient.Options()
        options.pollingSleep = { _ in }
        let client = AuthClient(provider: provider, storage: InMemoryTokenStorage(), transport: transport, clock: emulator.clock, options: options)
        let authorization = try await client.startDeviceAuthorization()
        #expect(authorization.verificationURI.absoluteString == "http://127.0.0.1:8791/login/device")
        await idp.approveDevice(userCode: authorization.userCode)
        let session = try await client.completeDeviceAuthorization(authorization)
        #expect(await session.credential.subject == "583231")
        #expect(await transport.exchanges(pathSuffix: "/api/v3/user/emails").first?.status == 200)
    }

    @Test("A device approved by a user without a verified primary email: github_no_verified_email, nothing stored")
    func unverifiedEmail() async throws {
        let harness = try harness(PollLog())
        let authorization = try await harness.client.startDeviceAuthorization()
        await harness.idp.setUser(TestIdentityProvider.githubUnverifiedUser)
        await harness.idp.approveDevice(userCode: authorization.userCode)
        let error = await #expect(throws: AuthError.self) { _ = try await harness.client.completeDeviceAuthorization(authorization) }
        #expect(error?.code == .githubNoVerifiedEmail)
        #expect(try await harness.storedCount() == 0)
    }
}
