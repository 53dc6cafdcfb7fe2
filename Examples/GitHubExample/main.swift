// Signs in to GitHub the way `gh auth login` does — the device flow: a one-time code to type at
// https://github.com/login/device on another device, polling until the user approves — against the embedded GitHub
// emulator (no network, no account), then prints who signed in. A person is played by a request to the emulator's
// verification page, as one would fill it in; the emulator asks the client to slow down once, as GitHub may.
// Then an account whose primary email GitHub has not verified is refused, and nothing is stored. The client really
// waits between polls; the emulator asks for 1 s instead of GitHub's 5 s, so the whole run takes about 10 s.
//
//     swift run github-example
//
// Exits 1 when the flow does not end as described here.
import AuthCore
import AuthDeviceFlow
import AuthEmulators
import AuthGitHub
import AuthTesting
import Foundation

/// Stops the sample with a message and exit status 1.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("github-example: \(message)\n".utf8))
    exit(1)
}

/// The intervals the polling loop waited: `onPoll` is synchronous, so a lock rather than an actor.
final class PollLog: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Duration] = []

    /// Records the wait before the next poll; returns how many waits there have been.
    func record(_ interval: Duration) -> Int {
        lock.lock()
        defer { lock.unlock() }
        recorded.append(interval)
        return recorded.count
    }

    var intervals: [Duration] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }
}

/// `pairs` as an `application/x-www-form-urlencoded` body. Everything but RFC 3986's unreserved characters is
/// percent-encoded: `URLComponents` would leave `+` as it is, which the server reads as a space.
func formBody(_ pairs: [(String, String)]) -> Data {
    let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    func encode(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text }
    return Data(pairs.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&").utf8)
}

/// A person at another computer: opens the verification page, types the code and signs in as `account`.
func approveOnVerificationPage(_ authorization: DeviceAuthorization, as account: TestIdentityProvider.TestAccount, through transport: any HTTPTransport) async throws {
    let (page, shown) = try await transport.send(HTTPRequest(method: .get, url: authorization.verificationURI), body: nil, limits: HTTPRequestLimits())
    guard shown.status.code == 200, String(decoding: page, as: UTF8.self).contains("Connect a device") else {
        fail("the verification page \(authorization.verificationURI.absoluteString) did not show the code form")
    }
    var answer = HTTPRequest(method: .post, url: URL(string: "https://github.com/_emulator/device")!)
    answer.headerFields[.contentType] = "application/x-www-form-urlencoded"
    let form = formBody([("user_code", authorization.userCode), ("username", account.username), ("password", account.password), ("action", "approve")])
    let (_, approved) = try await transport.send(answer, body: form, limits: HTTPRequestLimits())
    guard approved.status.code == 200 else { fail("the verification page refused the code (HTTP \(approved.status.code))") }
}

/// Signs in on the device as `account`; returns the session and the intervals waited between polls. The emulator
/// answers `slow_down` to the first `slowDowns` polls, and `authorization_pending` to one more before the person
/// approves.
func deviceSignIn(as account: TestIdentityProvider.TestAccount, storage: InMemoryTokenStorage, slowDowns: Int) async throws -> (Session, [Duration]) {
    let emulator = ProviderEmulator.github()
    guard let idp = emulator.identityProvider else { fail("the GitHub emulator has no identity provider") }
    let provider = try GitHubProvider(configuration: emulator.configuration)
    let client = AuthClient(provider: provider, storage: storage, transport: emulator.transport, clock: emulator.clock)
    // GitHub may answer a poll with slow_down (the client then waits 5 s longer); 1 s between polls keeps the sample short.
    await idp.update {
        $0.devicePollInterval = 1
        $0.deviceSlowDowns = slowDowns
    }
    let authorization = try await client.startDeviceAuthorization()
    print("! First copy your one-time code: \(authorization.userCode)")
    print("  Open \(authorization.verificationURI.absoluteString) on any device and enter it (expires \(authorization.expiresAt)).")
    let transport = emulator.transport
    let log = PollLog()
    let session = try await client.completeDeviceAuthorization(authorization) { status in
        print("  waiting for approval… poll \(status.polls + 1) in \(status.interval.components.seconds) s (\(Int(status.remaining)) s left)")
        // The person approves while the client waits for the poll after the pending one.
        if log.record(status.interval) == slowDowns + 2 {
            Task { try? await approveOnVerificationPage(authorization, as: account, through: transport) }
        }
    }
    return (session, log.intervals)
}

let accounts = TestIdentityProvider.github().loginAccounts
guard let octocat = accounts.first(where: { $0.username == "octocat" }),
    let unverified = accounts.first(where: { $0.username == "hubot-unverified" })
else { fail("the GitHub emulator's test accounts are missing") }

print("GitHub device flow against the embedded emulator (as gh auth login)")
let storage = InMemoryTokenStorage()
do {
    let (session, intervals) = try await deviceSignIn(as: octocat, storage: storage, slowDowns: 1)
    let credential = await session.credential
    print("✓ Logged in as \(credential.profile?["login"] ?? "?") (\(credential.profile?["name"] ?? "no name"))")
    print("  subject (GitHub's numeric user id): \(credential.subject ?? "?")")
    print("  primary verified email: \(credential.profile?["email"] ?? "?")")
    print("  token expires: \(credential.expiresAt.map { "\($0)" } ?? "never"); refresh token: \(credential.refreshToken == nil ? "none" : "yes")")
    print("  polling intervals: \(intervals.map { "\($0.components.seconds) s" }.joined(separator: ", ")) (slow_down added 5 s)")
    guard credential.subject == "583231", credential.profile?["login"] == "octocat", credential.profile?["email"] == "octocat@github.com",
        intervals == [.seconds(1), .seconds(6), .seconds(6)], await storage.storedKeys().count == 1
    else { fail("the sign-in did not end as described") }
} catch {
    fail("the device sign-in failed: \(error)")
}

print("\nAn account whose primary email GitHub has not verified")
let refusedStorage = InMemoryTokenStorage()
do {
    _ = try await deviceSignIn(as: unverified, storage: refusedStorage, slowDowns: 0)
    fail("the account without a verified email was signed in")
} catch let error as AuthError where error.code == .githubNoVerifiedEmail {
    guard await refusedStorage.storedKeys().isEmpty else { fail("a refused sign-in stored a credential") }
    print("✓ refused: \(error.code.rawValue) — \(error.message)")
} catch {
    fail("expected github_no_verified_email, got \(error)")
}
