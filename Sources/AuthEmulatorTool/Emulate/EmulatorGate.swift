import AuthCore
import AuthEmulators
import AuthTesting
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking  // the emulator tool posts logout tokens; it is a test tool, not a server library
#endif

/// What an emulator served over HTTP checks before its identity provider sees a request, and the test-control
/// endpoint that needs the network.
///
/// The emulator listens on 127.0.0.1, but any web page the developer opens can make their browser send requests
/// there. Two checks keep such a page out: the `Host` header must name the emulator (a DNS-rebinding page's host
/// never does), and a state-changing request to the emulator's own endpoints (`/_emulator/…`: faults, back-channel
/// logout) must not come from another site (`Origin`, `Sec-Fetch-Site`).
struct EmulatorGate: Sendable {
    /// The emulator's issuer origin (`http://127.0.0.1:<port>`, or the `--issuer-host` given).
    let origin: URL
    /// The port it listens on.
    let port: Int
    /// Where the client registered its back-channel logout endpoint, if it did.
    let backChannelLogoutURI: URL?
    /// The client id logout tokens (and Apple's notifications) are addressed to.
    let clientID: String
    /// Where the app registered its Sign in with Apple server-to-server notification endpoint, if it did.
    var notificationURI: URL?

    /// The refusal of a request that fails a check, or `nil` (the checks every HTTP front of an emulator makes:
    /// `EmulatorRequestGate`, in AuthEmulators, which the web sign-in samples use too).
    func refusal(of request: CapturedRequest) -> (Data, HTTPResponse)? {
        EmulatorRequestGate(origin: origin, port: port).refusal(of: request)
    }

    /// `POST /_emulator/backchannel-logout` with `username`: the provider ends that user's session and tells the
    /// client, as a provider does when the user signs out there — a logout token (OpenID Connect Back-Channel Logout
    /// 1.0) POSTed to the registered back-channel logout URI. Answers with the client's status.
    func backChannelLogout(_ request: CapturedRequest, idp: TestIdentityProvider) async -> (Data, HTTPResponse)? {
        guard request.url?.path.hasSuffix(TestIdentityProvider.emulatorPathPrefix + "backchannel-logout") == true, request.httpMethod == "POST" else {
            return nil
        }
        guard let uri = backChannelLogoutURI else {
            return Self.json(
                ["error": "invalid_request", "error_description": "No back-channel logout URI is registered (auth-emulator emulate --backchannel-logout-uri)."], status: 400)
        }
        let form = Dictionary(FormEncoding.decode(String(decoding: request.body ?? Data(), as: UTF8.self)), uniquingKeysWith: { first, _ in first })
        guard let account = idp.loginAccounts.first(where: { $0.username == form["username"] }) else {
            return Self.json(["error": "invalid_request", "error_description": "username must be one of the test accounts."], status: 400)
        }
        let token = await idp.logoutToken(subject: account.user.subject, clientID: clientID)
        var post = URLRequest(url: uri)
        post.httpMethod = "POST"
        post.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        post.httpBody = Data(FormEncoding.encode([("logout_token", token)]).utf8)
        do {
            let (_, response) = try await URLSession.shared.data(for: post)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            return Self.json(["sent_to": .string(uri.absoluteString), "status": .number(Double(status))], status: 200)
        } catch {
            return Self.json(["error": "temporarily_unavailable", "error_description": .string("The client's back-channel logout URI did not answer.")], status: 502)
        }
    }

    static func json(_ object: [String: JSONValue], status: Int) -> (Data, HTTPResponse) {
        ((try? JSONValue.object(object).jsonData()) ?? Data(), .make(status: status, headers: ["Content-Type": "application/json"]))
    }
}
