import AuthCore
import AuthDeviceFlow
import AuthTesting
import Foundation
import Testing

/// Records the polling intervals and runs a step at each poll, without waiting.
private final class PollScript: Sendable {
    private let state = LockedIntervals()
    let onSleep: @Sendable (Int) async throws -> Void

    init(onSleep: @escaping @Sendable (Int) async throws -> Void = { _ in }) { self.onSleep = onSleep }

    var sleep: @Sendable (Duration) async throws -> Void {
        { [state, onSleep] interval in
            let count = await state.append(interval)
            try await onSleep(count)
        }
    }

    func intervals() async -> [Duration] { await state.all }
}

private actor LockedIntervals {
    private(set) var all: [Duration] = []
    func append(_ interval: Duration) -> Int {
        all.append(interval)
        return all.count
    }
}

@Suite("the device authorization grant (RFC 8628) in the engine")
struct DeviceAuthorizationTests {
    private func fixture(_ script: PollScript) -> Fixture {
        var options = AuthClient.Options()
        options.pollingSleep = script.sleep
        return Fixture(options: options)
    }

    @Test("Start shows a user code and https verification URIs; the device code never prints")
    func start() async throws {
        let fixture = fixture(PollScript())
        let authorization = try await fixture.client.startDeviceAuthorization()
        #expect(authorization.userCode.count == 9 && authorization.userCode.dropFirst(4).first == "-")
        #expect(authorization.verificationURI == fixture.idp.endpoint("/device"))
        #expect(authorization.verificationURIComplete?.absoluteString.contains("user_code=") == true)
        #expect(authorization.interval == .seconds(5))
        let sent = try #require(await fixture.transport.exchanges(pathSuffix: "/device_authorization").first)
        #expect(sent.formParameters["client_id"] == TestIdentityProvider.defaultClientID)
        #expect(sent.formParameters["scope"] == "openid email offline_access")
        let deviceCode = try #require(String(decoding: sent.responseBody, as: UTF8.self).split(separator: "\"").drop { $0 != "device_code" }.dropFirst(2).first)
        #expect(!"\(authorization)".contains(deviceCode) && !String(reflecting: authorization).contains(deviceCode))
    }

    @Test("Pending, then approved: polls every interval, validates the ID token, stores the session")
    func approvedAfterPending() async throws {
        let holder = DeviceBox()
        let script = PollScript { poll in
            if poll == 3, let code = await holder.userCode { await holder.idp?.approveDevice(userCode: code) }
        }
        let fixture = fixture(script)
        await holder.set(idp: fixture.idp)
        let authorization = try await fixture.client.startDeviceAuthorization()
        await holder.set(userCode: authorization.userCode)
        let session = try await fixture.client.completeDeviceAuthorization(authorization)
        #expect(await session.idTokenClaims?.subject == "user-1234")
        #expect(await script.intervals() == [.seconds(5), .seconds(5), .seconds(5)])
        #expect(await fixture.idp.tokenRequestsByGrant["urn:ietf:params:oauth:grant-type:device_code"] == 3)
        #expect(try await fixture.storedCount() == 1)
        // The device code is spent: polling again with it fails.
        let error = await #expect(throws: AuthError.self) { _ = try await fixture.client.completeDeviceAuthorization(authorization) }
        #expect(error?.code == .invalidGrant)
    }

    @Test("slow_down adds 5 seconds to every later interval")
    func slowDown() async throws {
        let fixture = fixture(PollScript())
        await fixture.idp.update { $0.deviceSlowDowns = 2 }
        let authorization = try await fixture.client.startDeviceAuthorization()
        await fixture.idp.approveDevice(userCode: authorization.userCode)
        var options = AuthClient.Options()
        let script = PollScript()
        options.pollingSleep = script.sleep
        let client = AuthClient(
            provider: fixture.client.provider, storage: fixture.client.storage, transport: fixture.transport,
            logger: fixture.logger, clock: fixture.clock, options: options)
        _ = try await client.completeDeviceAuthorization(authorization)
        #expect(await script.intervals() == [.seconds(5), .seconds(10), .seconds(15)])
    }

    @Test("Declined on the verification page: access_denied, nothing stored")
    func denied() async throws {
        let fixture = fixture(PollScript())
        let authorization = try await fixture.client.startDeviceAuthorization()
        await fixture.idp.denyDevice(userCode: authorization.userCode)
        let error = await #expect(throws: AuthError.self) { _ = try await fixture.client.completeDeviceAuthorization(authorization) }
        #expect(error?.code == .accessDenied && error?.oauthError == "access_denied")
        #expect(try await fixture.storedCount() == 0)
    }

    @Test("Not approved in time: device_code_expired (from the server, and from the code's own lifetime), nothing stored")
    func expired() async throws {
        let clock = BoxClock()
        let script = PollScript { _ in await clock.fixture?.clock.advance(by: 700) }
        let fixture = fixture(script)
        await clock.set(fixture)
        let authorization = try await fixture.client.startDeviceAuthorization()
        let error = await #expect(throws: AuthError.self) { _ = try await fixture.client.completeDeviceAuthorization(authorization) }
        #expect(error?.code == .deviceCodeExpired)
        #expect(try await fixture.storedCount() == 0)
        let again = await #expect(throws: AuthError.self) { _ = try await fixture.client.completeDeviceAuthorization(authorization) }
        #expect(again?.code == .deviceCodeExpired)
    }

    @Test("Cancelling while waiting: user_cancelled, nothing stored")
    func cancelled() async throws {
        let fixture = fixture(PollScript { _ in throw CancellationError() })
        let authorization = try await fixture.client.startDeviceAuthorization()
        let error = await #expect(throws: AuthError.self) { _ = try await fixture.client.completeDeviceAuthorization(authorization) }
        #expect(error?.code == .userCancelled)
        #expect(try await fixture.storedCount() == 0)
    }

    @Test("The ID token is validated as in a code flow: another audience is refused, nothing stored")
    func idTokenValidated() async throws {
        let fixture = fixture(PollScript())
        await fixture.idp.update { $0.idTokenClaimOverrides = ["aud": "someone-else"] }
        let authorization = try await fixture.client.startDeviceAuthorization()
        await fixture.idp.approveDevice(userCode: authorization.userCode)
        let error = await #expect(throws: AuthError.self) { _ = try await fixture.client.completeDeviceAuthorization(authorization) }
        #expect(error?.code == .invalidAudience)
        #expect(try await fixture.storedCount() == 0)
    }

    @Test("Without an ID token (django-oauth-toolkit sends none) the subject comes from user info; a refresh's ID token must name it")
    func noIDToken() async throws {
        let fixture = fixture(PollScript())
        await fixture.idp.update { $0.tokenResponseRemovals = ["id_token"] }
        let authorization = try await fixture.client.startDeviceAuthorization()
        await fixture.idp.approveDevice(userCode: authorization.userCode)
        let session = try await fixture.client.completeDeviceAuthorization(authorization)
        #expect(await session.credential.subject == "user-1234")
        #expect(await session.idTokenClaims == nil)
        #expect(await fixture.transport.exchanges(pathSuffix: "/userinfo").count == 1)
        await fixture.idp.update { $0.tokenResponseRemovals = [] }
        _ = try await session.refresh()
        #expect(await session.idTokenClaims?.subject == "user-1234")
    }

    @Test("A cleartext verification URI is refused before anything is shown; a provider without the endpoint says so")
    func hostileStart() async throws {
        let fixture = fixture(PollScript())
        let base = fixture.idp.transport
        let hostile = InProcessTransport().adding(host: TestIdentityProvider.defaultIssuer.host!) { request in
            guard request.url?.path == "/device_authorization" else { return try await base.send(request) }
            let body = #"{"device_code":"dc","user_code":"ABCD-EFGH","verification_uri":"http://phish.example/device","expires_in":600}"#
            return (Data(body.utf8), .make(status: 200, headers: ["Content-Type": "application/json"]))
        }
        let client = AuthClient(provider: fixture.client.provider, transport: hostile, logger: RecordingLogger(), clock: fixture.clock)
        let error = await #expect(throws: AuthError.self) { _ = try await client.startDeviceAuthorization() }
        #expect(error?.code == .insecureEndpoint)

        var configuration = TestIdentityProvider.Configuration()
        configuration.paths.deviceAuthorization = nil
        let plain = TestIdentityProvider(configuration: configuration)
        let none = AuthClient(provider: fixture.client.provider, transport: plain.transport, logger: RecordingLogger(), clock: plain.clock)
        let missing = await #expect(throws: AuthError.self) { _ = try await none.startDeviceAuthorization() }
        #expect(missing?.code == .endpointUnavailable)
    }
}

private actor DeviceBox {
    var idp: TestIdentityProvider?
    var userCode: String?
    func set(idp: TestIdentityProvider) { self.idp = idp }
    func set(userCode: String) { self.userCode = userCode }
}

private actor BoxClock {
    var fixture: Fixture?
    func set(_ fixture: Fixture) { self.fixture = fixture }
}
