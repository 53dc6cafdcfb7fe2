import AuthCore
import AuthTesting
import Foundation

/// The HTTP emulators' front desk of one `TestIdentityProvider`: the login page for valid authorization requests
/// (while ``showsLoginPage``), the emulator's own endpoints under `TestIdentityProvider/emulatorPathPrefix` (the
/// login and device forms' answers, the fault queue), the device verification page, and the queued faults.
final class EmulatorFrontDesk: TestIdentityProvider.FrontDesk {
    /// What the front desk is opened with, kept in `TestIdentityProvider/Configuration/frontDeskSettings` (see
    /// `Configuration/displayName`, `testAccounts` and `showsLoginPage`).
    struct Settings: TestIdentityProvider.FrontDeskSettings {
        var displayName = "Test identity provider"
        var testAccounts: [TestIdentityProvider.TestAccount] = []
        var showsLoginPage = false

        func openFrontDesk() -> any TestIdentityProvider.FrontDesk {
            EmulatorFrontDesk(showsLoginPage: showsLoginPage)
        }
    }

    private struct State {
        var showsLoginPage: Bool
        /// Authorization requests shown on the login page, by the page's `login_id` (each answered once).
        var pendingLogins: [String: TestIdentityProvider.AnswerableAuthorizationRequest] = [:]
        /// Faults queued through `POST /_emulator/faults`, each spent on the next response it applies to.
        var pendingFaults: [TestIdentityProvider.EmulatorFault] = []
    }

    // Only ever used isolated to the one provider it serves; the lock makes the class Sendable without trusting that.
    private let state: LockedValue<State>

    init(showsLoginPage: Bool) {
        state = LockedValue(State(showsLoginPage: showsLoginPage))
    }

    /// Whether valid authorization requests get the login page instead of an immediate redirect.
    var showsLoginPage: Bool {
        get { state.withLock { $0.showsLoginPage } }
        set { state.withLock { $0.showsLoginPage = newValue } }
    }

    /// Queues `fault` for the next response it applies to.
    func queue(_ fault: TestIdentityProvider.EmulatorFault) {
        state.withLock { $0.pendingFaults.append(fault) }
    }

    // MARK: The provider's questions

    func respond(to request: CapturedRequest, path: String, url: URL, provider: isolated TestIdentityProvider) async
        -> (Data, HTTPResponse)?
    {
        let method = request.httpMethod
        if path.hasPrefix(TestIdentityProvider.emulatorPathPrefix) {
            return emulatorEndpoint(path, method: method, request: request, url: url, provider: provider)
        }
        if let early = await applyRequestFault(url: url, provider: provider) { return early }
        let paths = provider.configuration.paths
        if method == "POST", path == paths.token, let shortened = await shortenAccessTokenLifetime(request, provider: provider) {
            return shortened
        }
        // A path of its own, so answering it before the provider's routes takes none of theirs.
        if method == "GET", path == paths.deviceVerification, paths.deviceAuthorization != nil {
            return deviceVerificationPage(url: url, provider: provider)
        }
        return nil
    }

    func respond(
        to authorization: TestIdentityProvider.AnswerableAuthorizationRequest,
        provider: isolated TestIdentityProvider
    ) -> (Data, HTTPResponse)? {
        showsLoginPage ? loginPage(for: authorization, provider: provider) : nil
    }

    /// The claims a queued ID token fault replaces, spending it (none when nothing is queued).
    func idTokenClaimOverrides(now: Date, provider: isolated TestIdentityProvider) -> [String: JSONValue] {
        let fault = state.withLock { state -> TestIdentityProvider.EmulatorFault? in
            guard let index = state.pendingFaults.firstIndex(where: { $0 == .expiredIDToken || $0 == .wrongNonce }) else { return nil }
            return state.pendingFaults.remove(at: index)
        }
        switch fault {
        case nil: return [:]
        case .expiredIDToken?: return ["exp": .number((now.timeIntervalSince1970 - 3600).rounded(.down))]
        default: return ["nonce": .string("n-" + SecureRandom.token(byteCount: 12))]
        }
    }

    // MARK: The emulator's own endpoints

    private func emulatorEndpoint(
        _ path: String,
        method: String,
        request: CapturedRequest,
        url: URL,
        provider: isolated TestIdentityProvider
    ) -> (Data, HTTPResponse) {
        let form = provider.formParameters(request)
        switch (String(path.dropFirst(TestIdentityProvider.emulatorPathPrefix.count)), method) {
        case ("login", "POST"):
            guard let loginID = form["login_id"], let pending = state.withLock({ $0.pendingLogins.removeValue(forKey: loginID) }) else {
                return provider.page("This sign-in has already been answered or has expired; start again from the app.", status: 400, url: url)
            }
            if form["action"] == "deny" {
                return provider.authorizationRedirect(pending, [("error", "access_denied"), ("error_description", "The user denied the request")])
            }
            guard let account = account(signingInWith: form, provider: provider) else {
                return loginPage(for: pending, loginID: loginID, error: "Wrong username or password.", provider: provider)
            }
            provider.setUser(account.user)
            return provider.approve(pending)
        case ("device", "POST") where provider.configuration.paths.deviceAuthorization != nil:
            return answerDeviceVerification(form, url: url, provider: provider)
        case ("faults", "POST"):
            guard let name = form["next"], let fault = TestIdentityProvider.EmulatorFault(rawValue: name) else {
                let known = TestIdentityProvider.EmulatorFault.allCases.map(\.rawValue).joined(separator: ", ")
                return provider.json(
                    ["error": "invalid_request", "error_description": .string("next must be one of: \(known)")], status: 400, url: url)
            }
            let queued = state.withLock { state in
                state.pendingFaults.append(fault)
                return state.pendingFaults
            }
            return provider.json(["queued": .array(queued.map { .string($0.rawValue) })], url: url)
        case ("api-check", "POST"):
            // What the provider's API answers each access token it issued to a test account (GitHub's `GET /user`):
            // a script that cannot see an app's tokens shows that its sign-out left none of them working.
            guard let account = provider.loginAccounts.first(where: { $0.username == form["username"] }) else {
                return provider.json(["error": "invalid_request", "error_description": "username must be one of the test accounts."], status: 400, url: url)
            }
            let statuses = provider.apiAnswers(toTokensOf: account.user.subject, path: form["path"] ?? "/user")
            return provider.json(["statuses": .array(statuses.map { .number(Double($0)) })], url: url)
        case ("requests", "GET"):
            // How many requests each endpoint received, and why pushed authorization requests and token exchanges were
            // refused (for end-to-end checks such as "one pushed request per sign-in").
            return provider.json(
                [
                    "counts": .object(provider.requestCounts.mapValues { .number(Double($0)) }),
                    "pushed_authorization_failures": .array(provider.pushedAuthorizationFailures.map(JSONValue.string)),
                    "token_exchange_failures": .array(provider.tokenExchangeFailures.map(JSONValue.string))
                ], url: url)
        case ("faults", "GET"):
            let queued = state.withLock { $0.pendingFaults }
            return provider.json(["queued": .array(queued.map { .string($0.rawValue) })], url: url)
        default:
            return provider.json(["error": "not_found"], status: 404, url: url)
        }
    }

    /// Spends a queued request-level fault: a 500 answer, or a delay before the normal one.
    private func applyRequestFault(url: URL, provider: isolated TestIdentityProvider) async -> (Data, HTTPResponse)? {
        let fault = state.withLock { state -> TestIdentityProvider.EmulatorFault? in
            guard let index = state.pendingFaults.firstIndex(where: { $0 == .serverError || $0 == .slow }) else { return nil }
            return state.pendingFaults.remove(at: index)
        }
        switch fault {
        case nil:
            return nil
        case .serverError?:
            return provider.json(["error": "server_error", "error_description": "A fault queued at the emulator."], status: 500, url: url)
        default:
            try? await Task.sleep(for: .seconds(3))
            return nil
        }
    }

    /// Spends a queued `short_lived_token` on a token request: the provider answers it as usual (this front desk, with
    /// the fault spent, lets it through) and a successful answer's `expires_in` becomes 1.
    private func shortenAccessTokenLifetime(_ request: CapturedRequest, provider: isolated TestIdentityProvider) async -> (Data, HTTPResponse)? {
        let spent = state.withLock { state -> Bool in
            guard let index = state.pendingFaults.firstIndex(of: .shortLivedAccessToken) else { return false }
            state.pendingFaults.remove(at: index)
            return true
        }
        guard spent else { return nil }
        let (data, response) = await provider.handle(request)
        guard response.status == .ok, var answer = try? JSONValue.parseObject(data), answer["access_token"] != nil else {
            return (data, response)
        }
        answer["expires_in"] = .number(1)
        guard let shortened = try? JSONValue.object(answer).jsonData() else { return (data, response) }
        return (shortened, response)
    }

    /// The test account whose username and password the login or device form carries, if any.
    func account(signingInWith form: [String: String], provider: isolated TestIdentityProvider) -> TestIdentityProvider.TestAccount? {
        provider.loginAccounts.first { $0.username == form["username"] && $0.password == form["password"] }
    }

    /// Keeps `pending` for the login form's answer, under `loginID`.
    func holdLogin(_ pending: TestIdentityProvider.AnswerableAuthorizationRequest, loginID: String) {
        state.withLock { $0.pendingLogins[loginID] = pending }
    }
}
