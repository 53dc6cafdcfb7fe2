#if PostgresStorage
    import AuthCore
    import AuthHummingbird
    import Foundation
    import Hummingbird

    /// The sample's two pages: "Sign in with …" buttons, and the signed-in user with a sign-out button.
    struct Pages: Sendable {
        let webSignIn: WebSignIn<BasicWebSignInRequestContext>
        let providers: [SampleProvider]
        let instance: String

        func home(_ user: SignedInUser?) -> Response {
            let body: String
            let title: String
            if let user {
                title = "Signed in"
                let provider = webSignIn.displayName(of: user.providerName) ?? user.providerName
                body = """
                    <h1 id="greeting">Hello, \(escape(user.displayName))</h1>
                    <p>Signed in with <strong id="provider">\(escape(provider))</strong> as <code id="subject">\(escape(user.subject))</code>.</p>
                    <form method="post" action="\(webSignIn.configuration.logoutPath)">
                    <input type="hidden" name="csrf_token" value="\(escape(user.record.csrfToken))">
                    <button id="sign-out" type="submit">Sign out</button>
                    </form>
                    """
            } else {
                title = "Sign in"
                let buttons = providers.map { provider in
                    let display = webSignIn.displayName(of: provider.name) ?? provider.name
                    let accounts = provider.accounts.map { "\(escape($0.username)) / \(escape($0.password))" }.joined(separator: ", ")
                    return """
                        <li><a class="button" id="sign-in-\(provider.name)" href="\(webSignIn.configuration.loginPath(for: provider.name))">Sign in with \(escape(display))</a>\
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
                <footer>web-sign-in sample, instance <span id="instance">\(escape(instance))</span></footer>
                </body></html>
                """
            return Response(
                status: .ok,
                headers: [
                    .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                    .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:; frame-ancestors 'none'"
                ],
                body: ResponseBody(byteBuffer: ByteBuffer(string: html))
            )
        }

        private func escape(_ text: String) -> String {
            HTMLText.escape(text)
        }
    }
#endif
