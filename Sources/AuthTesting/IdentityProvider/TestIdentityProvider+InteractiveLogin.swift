import AuthCore
import Foundation

extension TestIdentityProvider {
    /// Someone who can sign in on the login page of an HTTP emulator.
    public struct TestAccount: Sendable {
        /// What to type as the username (usually an e-mail address).
        public var username: String
        /// What to type as the password (test-only; it protects nothing).
        public var password: String
        /// Who the tokens are then issued for.
        public var user: User

        /// Creates an account.
        public init(username: String, password: String = TestIdentityProvider.testPassword, user: User) {
            self.username = username
            self.password = password
            self.user = user
        }
    }

    /// A failure an app developer asks the emulator for, to rehearse it: each is spent on the next response it
    /// applies to (`POST /_emulator/faults` with `next=<raw value>`, or ``queueFault(_:)``).
    public enum EmulatorFault: String, Sendable, CaseIterable {
        /// The next request (any endpoint but the emulator's own) is answered HTTP 500 `server_error`.
        case serverError = "server_error"
        /// The next request is answered after a 3-second delay.
        case slow
        /// The next ID token issued has already expired (`exp` an hour ago).
        case expiredIDToken = "expired_token"
        /// The next ID token issued carries another `nonce` than the one requested.
        case wrongNonce = "wrong_nonce"
    }

    /// Where the emulator's own endpoints live, under the endpoint base: the login form posts to `login`, faults
    /// are queued at `faults`.
    public static let emulatorPathPrefix = "/_emulator/"
    /// The password of every built-in test account. TEST ONLY.
    public static let testPassword = "emulator-password"

    /// Who can sign in on the login page: the configured accounts, or one for the configured user (username: its
    /// `email` claim, else `user`; password ``testPassword``).
    public nonisolated var loginAccounts: [TestAccount] {
        if !configuration.testAccounts.isEmpty { return configuration.testAccounts }
        let user = configuration.user
        return [TestAccount(username: user.claims["email"]?.stringValue ?? "user", user: user)]
    }

    /// The test account whose username and password the login or device form carries, if any.
    func account(signingInWith form: [String: String]) -> TestAccount? {
        loginAccounts.first { $0.username == form["username"] && $0.password == form["password"] }
    }

    /// Queues `fault` for the next response it applies to.
    public func queueFault(_ fault: EmulatorFault) {
        pendingFaults.append(fault)
    }

    // MARK: Login page

    /// The login page for a valid authorization request: username, password, "Sign in" and "Deny".
    func loginPage(for pending: PendingAuthorization, loginID existing: String? = nil, error: String? = nil) -> (Data, HTTPResponse) {
        let loginID = existing ?? issue("login")
        pendingLogins[loginID] = pending
        let name = Self.html(configuration.displayName)
        let accounts = loginAccounts.map { "<li><code>\(Self.html($0.username))</code> / <code>\(Self.html($0.password))</code></li>" }
        let html = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Sign in – \(name) (emulator)</title>
            <style>
            body { font-family: system-ui, sans-serif; background: #f3f4f6; display: flex; justify-content: center; padding-top: 8vh; margin: 0; }
            main { background: #fff; padding: 2rem 2.5rem; border-radius: 12px; box-shadow: 0 2px 12px rgba(0,0,0,.12); width: 22rem; }
            h1 { font-size: 1.4rem; margin: 0 0 .25rem; } .sub { color: #555; margin: 0 0 1.25rem; }
            label { display: block; margin: .8rem 0 .3rem; font-weight: 600; }
            input[type=text], input[type=password] { width: 100%; padding: .6rem; border: 1px solid #bbb; border-radius: 6px; box-sizing: border-box; font-size: 1rem; }
            .buttons { display: flex; gap: .75rem; margin-top: 1.5rem; }
            button { flex: 1; padding: .7rem; border-radius: 6px; border: 0; font-size: 1rem; cursor: pointer; }
            #sign-in { background: #0b6bcb; color: #fff; } #deny { background: #e5e7eb; }
            .error { color: #b00020; margin: .5rem 0 0; } .hint { font-size: .85rem; color: #666; margin-top: 1.5rem; }
            </style>
            </head>
            <body>
            <main>
            <h1>Sign in to \(name)</h1>
            <p class="sub">An emulator for development. <code>\(Self.html(pending.clientID))</code> asks to sign you in.</p>
            \(error.map { "<p class=\"error\" role=\"alert\">\(Self.html($0))</p>" } ?? "")
            <form method="post" action="\(Self.html(endpoint(Self.emulatorPathPrefix + "login").absoluteString))">
            <input type="hidden" name="login_id" value="\(loginID)">
            <label for="username">Username</label>
            <input type="text" id="username" name="username" autocomplete="username" autofocus>
            <label for="password">Password</label>
            <input type="password" id="password" name="password" autocomplete="current-password">
            <div class="buttons">
            <button type="submit" id="sign-in" name="action" value="approve">Sign in</button>
            <button type="submit" id="deny" name="action" value="deny">Deny</button>
            </div>
            </form>
            <div class="hint">Test accounts:<ul>\(accounts.joined())</ul></div>
            </main>
            </body>
            </html>
            """
        return (Data(html.utf8), .make(status: error == nil ? 200 : 401, headers: [
            "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store",
            // The page runs no script, loads nothing and cannot be framed. No form-action: Chromium applies it to the
            // redirect that follows the form, which goes to the app.
            "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
        ]))
    }

    // MARK: The emulator's own endpoints

    func emulatorEndpoint(_ path: String, method: String, request: CapturedRequest, url: URL) -> (Data, HTTPResponse) {
        let form = formParameters(request)
        switch (String(path.dropFirst(Self.emulatorPathPrefix.count)), method) {
        case ("login", "POST"):
            guard let loginID = form["login_id"], let pending = pendingLogins.removeValue(forKey: loginID) else {
                return page("This sign-in has already been answered or has expired; start again from the app.", status: 400, url: url)
            }
            if form["action"] == "deny" {
                return authorizationRedirect(pending, [("error", "access_denied"), ("error_description", "The user denied the request")])
            }
            guard let account = account(signingInWith: form) else {
                return loginPage(for: pending, loginID: loginID, error: "Wrong username or password.")
            }
            setUser(account.user)
            return approve(pending)
        case ("device", "POST") where configuration.paths.deviceAuthorization != nil:
            return answerDeviceVerification(form, url: url)
        case ("faults", "POST"):
            guard let name = form["next"], let fault = EmulatorFault(rawValue: name) else {
                let known = EmulatorFault.allCases.map(\.rawValue).joined(separator: ", ")
                return json(["error": "invalid_request", "error_description": .string("next must be one of: \(known)")], status: 400, url: url)
            }
            pendingFaults.append(fault)
            return json(["queued": .array(pendingFaults.map { .string($0.rawValue) })], url: url)
        case ("faults", "GET"):
            return json(["queued": .array(pendingFaults.map { .string($0.rawValue) })], url: url)
        default:
            return json(["error": "not_found"], status: 404, url: url)
        }
    }

    /// Spends a queued request-level fault: a 500 answer, or a delay before the normal one.
    func applyRequestFault(url: URL) async -> (Data, HTTPResponse)? {
        guard let index = pendingFaults.firstIndex(where: { $0 == .serverError || $0 == .slow }) else { return nil }
        switch pendingFaults.remove(at: index) {
        case .serverError:
            return json(["error": "server_error", "error_description": "A fault queued at the emulator."], status: 500, url: url)
        default:
            try? await Task.sleep(for: .seconds(3))
            return nil
        }
    }

    /// The claims a queued ID token fault replaces, spending it (none when nothing is queued).
    func takeIDTokenFault(now: Date) -> [String: JSONValue] {
        guard let index = pendingFaults.firstIndex(where: { $0 == .expiredIDToken || $0 == .wrongNonce }) else { return [:] }
        switch pendingFaults.remove(at: index) {
        case .expiredIDToken: return ["exp": .number((now.timeIntervalSince1970 - 3600).rounded(.down))]
        default: return ["nonce": .string("n-" + SecureRandom.token(byteCount: 12))]
        }
    }

    /// `text` escaped for HTML text and attribute values.
    static func html(_ text: String) -> String {
        HTMLText.escape(text)
    }
}
