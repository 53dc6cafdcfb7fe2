// Signs in to GitHub the way `gh auth login` does — the device flow: a one-time code to type at
// https://github.com/login/device on another device, polling until the user approves — against the embedded GitHub
// emulator (no network, no account), then prints who signed in. A person is played by a request to the emulator's
// verification page, as one would fill it in; the emulator asks the client to slow down once, as GitHub may.
// Then an account whose primary email GitHub has not verified is refused, and nothing is stored.
//
//     swift run github-example
//
// Exits 1 when the flow does not end as described here.
import AuthCore
import AuthEmulators
import AuthGitHub
import AuthTesting
import Foundation

/// Stops the sample with a message and exit status 1.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("github-example: \(message)\n".utf8))
    exit(1)
}

/// What the polling loop did: the intervals asked for, and what to do at each poll (no real waiting: the emulator's
/// clock is the client's).
actor Polls {
    private(set) var intervals: [Duration] = []
    private var action: (@Sendable (Int) async -> Void)?

    func onPoll(_ action: @escaping @Sendable (Int) async -> Void) { self.action = action }

    func poll(_ interval: Duration) async {
        intervals.append(interval)
        await action?(intervals.count)
    }
}

/// A person at another computer: opens the verification page, types the code and signs in as `account`.
func approveOnVerificationPage(_ authorization: DeviceAuthorization, as account: TestIdentityProvider.TestAccount, through transport: any HTTPTransport) async throws {
    let (page, shown) = try await transport.send(HTTPRequest(method: .get, url: authorization.verificationURI))
    guard shown.status.code == 200, String(decoding: page, as: UTF8.self).contains("Connect a device") else {
        fail("the verification page \(authorization.verificationURI.absoluteString) did not show the code form")
    }
    var answer = HTTPRequest(method: .post, url: URL(string: "https://github.com/_emulator/device")!)
    answer.headerFields[.contentType] = "application/x-www-form-urlencoded"
    let form = FormEncoding.encode([("user_code", authorization.userCode), ("username", account.username), ("password", account.password), ("action", "approve")])
    let (_, approved) = try await transport.send(answer, body: Data(form.utf8))
    guard approved.status.code == 200 else { fail("the verification page refused the code (HTTP \(approved.status.code))") }
}

/// Signs in on the device as `account`; returns the session and the polling intervals.
func deviceSignIn(as account: TestIdentityProvider.TestAccount, storage: InMemoryTokenStorage) async throws -> (Session, [Duration]) {
    let clock = ManualClock()
    let emulator = ProviderEmulator.github(clock: clock)
    guard let idp = emulator.identityProvider else { fail("the GitHub emulator has no identity provider") }
    let provider = try GitHubProvider(configuration: emulator.configuration)
    let polls = Polls()
    var options = AuthClient.Options()
    options.pollingSleep = { interval in
        clock.advance(by: TimeInterval(interval.components.seconds))
        await polls.poll(interval)
    }
    let client = AuthClient(provider: provider, storage: storage, transport: emulator.transport, clock: clock, options: options)
    // GitHub may answer a poll with slow_down; the emulator does so once here.
    await idp.update { $0.deviceSlowDowns = 1 }
    let authorization = try await client.startDeviceAuthorization()
    print("! First copy your one-time code: \(authorization.userCode)")
    print("  Open \(authorization.verificationURI.absoluteString) on any device and enter it (expires \(authorization.expiresAt)).")
    let transport = emulator.transport
    // The person approves while the client waits for its third poll.
    await polls.onPoll { poll in
        if poll == 3 { try? await approveOnVerificationPage(authorization, as: account, through: transport) }
    }
    let session = try await client.completeDeviceAuthorization(authorization) { status in
        print("  waiting for approval… poll \(status.polls + 1) in \(status.interval.components.seconds) s (\(Int(status.remaining)) s left)")
    }
    return (session, await polls.intervals)
}

let accounts = TestIdentityProvider.github().loginAccounts
guard let octocat = accounts.first(where: { $0.username == "octocat" }),
    let unverified = accounts.first(where: { $0.username == "hubot-unverified" })
else { fail("the GitHub emulator's test accounts are missing") }

print("GitHub device flow against the embedded emulator (as gh auth login)")
let storage = InMemoryTokenStorage()
do {
    let (session, intervals) = try await deviceSignIn(as: octocat, storage: storage)
    let credential = await session.credential
    print("✓ Logged in as \(credential.profile?["login"] ?? "?") (\(credential.profile?["name"] ?? "no name"))")
    print("  subject (GitHub's numeric user id): \(credential.subject ?? "?")")
    print("  primary verified email: \(credential.profile?["email"] ?? "?")")
    print("  token expires: \(credential.expiresAt.map { "\($0)" } ?? "never"); refresh token: \(credential.refreshToken == nil ? "none" : "yes")")
    print("  polling intervals: \(intervals.map { "\($0.components.seconds) s" }.joined(separator: ", ")) (slow_down added 5 s)")
    guard credential.subject == "583231", credential.profile?["login"] == "octocat", credential.profile?["email"] == "octocat@github.com",
        intervals == [.seconds(5), .seconds(10), .seconds(10)], await storage.storedKeys().count == 1
    else { fail("the sign-in did not end as described") }
} catch {
    fail("the device sign-in failed: \(error)")
}

print("\nAn account whose primary email GitHub has not verified")
let refusedStorage = InMemoryTokenStorage()
do {
    _ = try await deviceSignIn(as: unverified, storage: refusedStorage)
    fail("the account without a verified email was signed in")
} catch let error as AuthError where error.code == .githubNoVerifiedEmail {
    guard await refusedStorage.storedKeys().isEmpty else { fail("a refused sign-in stored a credential") }
    print("✓ refused: \(error.code.rawValue) — \(error.message)")
} catch {
    fail("expected github_no_verified_email, got \(error)")
}
