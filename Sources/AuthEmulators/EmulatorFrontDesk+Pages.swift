import AuthCore
import AuthTesting
import Foundation

// The pages people see: the login page of an authorization request, and the device flow's verification page.
extension EmulatorFrontDesk {
    /// The login page for a valid authorization request: username, password, "Sign in" and "Deny".
    func loginPage(
        for pending: TestIdentityProvider.AnswerableAuthorizationRequest,
        loginID existing: String? = nil,
        error: String? = nil,
        provider: isolated TestIdentityProvider
    ) -> (Data, HTTPResponse) {
        let loginID = existing ?? provider.issue("login")
        holdLogin(pending, loginID: loginID)
        let name = Self.html(provider.configuration.displayName)
        let accounts = provider.loginAccounts.map { "<li><code>\(Self.html($0.username))</code> / <code>\(Self.html($0.password))</code></li>" }
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
            <form method="post" action="\(Self.html(provider.endpoint(TestIdentityProvider.emulatorPathPrefix + "login").absoluteString))">
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
        return (
            Data(html.utf8),
            .make(
                status: error == nil ? 200 : 401,
                headers: [
                    "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store",
                    // The page runs no script, loads nothing and cannot be framed. No form-action: Chromium applies it to the
                    // redirect that follows the form, which goes to the app.
                    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"
                ])
        )
    }

    /// `GET /device`: the verification page (the user code, prefilled from `verification_uri_complete`, and the
    /// account's username and password), answered by `POST /_emulator/device`.
    func deviceVerificationPage(
        url: URL,
        error: String? = nil,
        status: Int = 200,
        provider: isolated TestIdentityProvider
    ) -> (Data, HTTPResponse) {
        let prefilled = provider.queryParameters(url)["user_code"] ?? ""
        let name = Self.html(provider.configuration.displayName)
        let html = """
            <!doctype html>
            <html lang="en">
            <head><meta charset="utf-8"><title>Connect a device – \(name) (emulator)</title>
            <style>body { font-family: system-ui, sans-serif; margin: 3em; } label { display: block; margin-top: 1em; font-weight: 600; }</style></head>
            <body>
            <h1>Connect a device to \(name)</h1>
            \(error.map { "<p class=\"error\" role=\"alert\">\(Self.html($0))</p>" } ?? "")
            <form method="post" action="\(Self.html(provider.endpoint(TestIdentityProvider.emulatorPathPrefix + "device").absoluteString))">
            <label for="user_code">Code shown on the device</label>
            <input type="text" id="user_code" name="user_code" value="\(Self.html(prefilled))" autocomplete="off">
            <label for="username">Username</label>
            <input type="text" id="username" name="username" autocomplete="username">
            <label for="password">Password</label>
            <input type="password" id="password" name="password" autocomplete="current-password">
            <p><button type="submit" id="sign-in" name="action" value="approve">Connect</button>
            <button type="submit" id="deny" name="action" value="deny">Deny</button></p>
            </form>
            </body>
            </html>
            """
        return (
            Data(html.utf8),
            .make(
                status: status,
                headers: [
                    "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store",
                    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"
                ])
        )
    }

    /// `POST /_emulator/device`: the verification page's answer.
    func answerDeviceVerification(_ form: [String: String], url: URL, provider: isolated TestIdentityProvider) -> (Data, HTTPResponse) {
        let userCode = form["user_code"] ?? ""
        if form["action"] == "deny" {
            return provider.denyDevice(userCode: userCode)
                ? provider.page("The device was not connected.", status: 200, url: url)
                : deviceVerificationPage(url: url, error: "Unknown or expired code.", status: 400, provider: provider)
        }
        guard let account = account(signingInWith: form, provider: provider) else {
            return deviceVerificationPage(url: url, error: "Wrong username or password.", status: 401, provider: provider)
        }
        return provider.approveDevice(userCode: userCode, as: account.user)
            ? provider.page("The device is connected; you can return to it.", status: 200, url: url)
            : deviceVerificationPage(url: url, error: "Unknown or expired code.", status: 400, provider: provider)
    }

    /// `text` escaped for HTML text and attribute values.
    static func html(_ text: String) -> String {
        HTMLText.escape(text)
    }
}
