// What the two web sign-in samples (Hummingbird: Examples/WebSignIn, Vapor: Examples/VaporWebSignIn) share: the page,
// the providers, the settings. Each answers in the core's framework-neutral `WebResponse`; the sample converts it.
#if PostgresStorage
    import AuthCore
    public import AuthWebSignIn
    import Foundation
    import HTTPTypes

    /// The samples' two pages: "Sign in with …" buttons, and the signed-in user with a sign-out button.
    public struct SamplePages: Sendable {
        let core: WebSignInCore
        let providers: [SampleProvider]
        let instance: String
        let server: String

        /// Pages for `providers` on `core`'s routes; `instance` and `server` (the web framework) are shown in the footer.
        public init(core: WebSignInCore, providers: [SampleProvider], instance: String, server: String) {
            self.core = core
            self.providers = providers
            self.instance = instance
            self.server = server
        }

        /// The home page: the buttons when signed out, the user and a sign-out form when signed in.
        public func home(_ user: SignedInUser?) -> WebResponse {
            let body: String
            let title: String
            if let user {
                title = "Signed in"
                let provider = core.displayName(of: user.providerName) ?? user.providerName
                body = """
                    <h1 id="greeting">Hello, \(escape(user.displayName))</h1>
                    <p>Signed in with <strong id="provider">\(escape(provider))</strong> as <code id="subject">\(escape(user.subject))</code>.</p>
                    <form method="post" action="\(core.configuration.logoutPath)">
                    <input type="hidden" name="csrf_token" value="\(escape(user.record.csrfToken))">
                    <button id="sign-out" type="submit">Sign out</button>
                    </form>
                    """
            } else {
                title = "Sign in"
                let buttons = providers.map { provider in
                    let display = core.displayName(of: provider.name) ?? provider.name
                    let accounts = provider.accounts.map { "\(escape($0.username)) / \(escape($0.password))" }.joined(separator: ", ")
                    return """
                        <li><a class="button" id="sign-in-\(provider.name)" href="\(core.configuration.loginPath(for: provider.name))">Sign in with \(escape(display))</a>\
                        \(accounts.isEmpty ? "" : " <small>test account: \(accounts)</small>")</li>
                        """
                }.joined(separator: "\n")
                body = "<h1>Sign in</h1>\n<ul class=\"providers\">\n\(buttons)\n</ul>"
            }
            let html = """
                <!doctype html>
                <html lang="en"><head><meta charset="utf-8"><title>\(title)</title>
                <style>body{font-family:sans-serif;margin:2em}.button,button{display:inline-block;padding:.5em 1em;margin:.3em 0;border:1px solid #333;border-radius:4px;text-decoration:none;color:#000;background:#eee}li{list-style:none}footer{margin-top:2em;color:#666}</style>
                </head><body>
                \(body)
                <footer>web-sign-in sample on <span id="server">\(escape(server))</span>, instance <span id="instance">\(escape(instance))</span></footer>
                </body></html>
                """
            return WebResponse(
                status: .ok,
                headerFields: [
                    .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                    .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:; frame-ancestors 'none'"
                ],
                body: Data(html.utf8)
            )
        }

        /// An API route that uses the user's tokens, as an app's own routes do: the provider's user info, called with
        /// the session's access token — refreshed first when it is about to expire, once for all of the session's
        /// concurrent requests on every instance (the store's per-account lock).
        public func me(_ user: SignedInUser?) async -> WebResponse {
            guard let user else { return Self.json(["signed_in": .bool(false)], status: .unauthorized) }
            do {
                let info = try await user.session().userInfo()
                return Self.json(["signed_in": .bool(true), "provider": .string(user.providerName), "subject": .string(info.subject), "claims": .object(info.claims)])
            } catch let error as AuthError where error.code == .notSignedIn {
                return Self.json(["signed_in": .bool(false), "error": .string(error.code.rawValue)], status: .unauthorized)
            } catch {
                let code = (error as? AuthError)?.code.rawValue ?? "unexpected_error"
                return Self.json(["signed_in": .bool(true), "error": .string(code)], status: .badGateway)
            }
        }

        static func json(_ object: [String: JSONValue], status: HTTPResponse.Status = .ok) -> WebResponse {
            WebResponse(
                status: status, headerFields: [.contentType: "application/json", .cacheControl: "no-store"],
                body: (try? JSONEncoder().encode(object)) ?? Data("{}".utf8))
        }

        /// `text` safe in element content and in quoted attribute values: `& < > " '` as character references. Names,
        /// test accounts and the CSRF token reach the page through it, so none can add markup.
        private func escape(_ text: String) -> String {
            var escaped = ""
            for character in text {
                switch character {
                case "&": escaped += "&amp;"
                case "<": escaped += "&lt;"
                case ">": escaped += "&gt;"
                case "\"": escaped += "&quot;"
                case "'": escaped += "&#39;"
                default: escaped.append(character)
                }
            }
            return escaped
        }
    }
#endif
