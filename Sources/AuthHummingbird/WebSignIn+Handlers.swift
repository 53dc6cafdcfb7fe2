#if WebSignIn
import AuthCore
import Foundation
import Hummingbird

extension WebSignIn {
    /// `GET /auth/{provider}/login`: a new authorization request, its secrets sealed into this browser's sign-in
    /// cookie (nothing is stored: see `SignInCookie`), and a redirect to the provider.
    func login(_ request: Request, context: Context) async throws -> Response {
        let name = context.parameters.get("provider") ?? ""
        guard let client = clients[name] else {
            return Self.page(status: .notFound, title: "Unknown provider", message: "There is no provider named '\(name)' here.")
        }
        var options = configuration.signInOptions[name] ?? SignInOptions()
        options.redirectURI = configuration.callbackURL(for: name)
        // Each browser session keeps its own credential (two sessions of one user never share tokens), and a provider
        // that does not say who signed in (no ID token) is named by it too.
        options.accountName = "web-" + SecureRandom.token(byteCount: 16)
        let authorization: AuthorizationRequest
        let pending: PendingSignIn
        do {
            (authorization, pending) = try await client.prepareResumableSignIn(options: options)
        } catch let error as AuthError {
            return Self.failure(error, status: .badGateway)
        }
        let sealed: String
        do {
            sealed = try signInCookie.seal(SignInCookie.Content(providerName: name, pending: pending))
        } catch let error as AuthError {
            return Self.failure(error, status: .internalServerError)
        }
        // Browsers drop a cookie over 4 kB without a word; the callback would then say "cookie missing".
        guard sealed.utf8.count <= SignInCookie.maximumLength else {
            return Self.page(
                status: .internalServerError, title: "Sign-in failed",
                message: "This provider's sign-in options are too large to keep in the browser's cookie (\(sealed.utf8.count) bytes); shorten its additional parameters or claims request."
            )
        }
        var response = Response.redirect(to: authorization.url.absoluteString, type: .found)
        response.headers[.cacheControl] = "no-store"
        let lifetime = max(0, Int(pending.expiresAt.timeIntervalSince(clock.now())))
        response.setCookie(Self.cookie(WebSignInConfiguration.signInCookieName, sealed, maxAge: lifetime, sameSite: .lax))
        return response
    }

    /// `GET /auth/{provider}/callback`: the browser's sign-in cookie must open with this app's key and hold this
    /// `state`, this provider and an unexpired sign-in, which the engine completes; the cookie is cleared whatever
    /// happens, and a new session id (never the one the browser had: no fixation) goes into the session cookie.
    func callback(_ request: Request, context: Context) async throws -> Response {
        let name = context.parameters.get("provider") ?? ""
        guard let client = clients[name] else {
            return Self.page(status: .notFound, title: "Unknown provider", message: "There is no provider named '\(name)' here.")
        }
        let query = request.uri.query ?? ""
        let state = FormEncoding.decode(query).first { $0.0 == "state" }?.1
        guard let state, !state.isEmpty else {
            return Self.signInRefused("The provider's answer has no state; start the sign-in again.")
        }
        guard let sealed = request.cookies[WebSignInConfiguration.signInCookieName]?.value, !sealed.isEmpty else {
            return Self.signInRefused("This browser did not start this sign-in (its sign-in cookie is missing); start it again.")
        }
        guard let entry = signInCookie.open(sealed) else {
            return Self.signInRefused("This browser's sign-in cookie was not made by this app (or was altered); start the sign-in again.")
        }
        guard Self.constantTimeEqual(entry.pending.state, state), entry.providerName == name else {
            return Self.signInRefused("This answer belongs to another sign-in than this browser's; start it again.")
        }
        guard entry.pending.expiresAt > clock.now() else {
            return Self.signInRefused("This sign-in expired; start it again.")
        }
        // The redirect as the engine checks it: the registered callback URL with the provider's parameters.
        let callback = configuration.callbackURL(for: name)
        guard let redirect = URL(string: callback.absoluteString + (query.isEmpty ? "" : "?" + query)) else {
            return Self.signInRefused("The provider's answer is not a valid URL query.")
        }
        let session: Session
        do {
            session = try await client.completeSignIn(redirect: redirect, resuming: entry.pending)
        } catch let error as AuthError {
            var response = Self.failure(error, status: error.code == .authorizationFailed || error.code == .accessDenied ? .forbidden : .badRequest)
            response.setCookie(Self.cookie(WebSignInConfiguration.signInCookieName, "", maxAge: 0, sameSite: .lax))
            return response
        }
        await sweeper.sweepIfDue(store, now: clock.now())
        let credential = await session.credential
        let claims = await session.idTokenClaims
        let providerName = type(of: client.provider).displayName
        // Without an ID token (Uber) the user is known only by this sign-in's own account name.
        let subject = credential.subject ?? credential.storageKey.account
        let displayName = claims?["name"]?.stringValue ?? claims?["email"]?.stringValue
            ?? (credential.subject == nil ? "\(providerName) user" : subject)
        // The browser's earlier session ends with its own credential (each session has one): nothing is left behind.
        if let (oldKey, old) = try await sessionRecord(for: request) {
            try await store.removeSession(key: oldKey)
            await sessionCache?.forget(oldKey)
            try? await store.tokenStorage.removeCredential(for: old.account)
        }
        let id = SecureRandom.token()
        let now = clock.now()
        let record = WebSessionRecord(
            providerName: name, account: credential.storageKey, subject: subject, displayName: displayName,
            csrfToken: SecureRandom.token(), createdAt: now, expiresAt: now.addingTimeInterval(configuration.sessionLifetime)
        )
        try await store.saveSession(record, key: Self.digest(id))
        var response = Response.redirect(to: configuration.afterSignIn, type: .normal)
        response.headers[.cacheControl] = "no-store"
        response.setCookie(Self.cookie(WebSignInConfiguration.signInCookieName, "", maxAge: 0, sameSite: .lax))
        response.setCookie(
            Self.cookie(WebSignInConfiguration.sessionCookieName, id, maxAge: Int(configuration.sessionLifetime), sameSite: configuration.sessionCookieSameSite)
        )
        return response
    }

    /// `POST /auth/logout`: only with the session's CSRF token (form field `csrf_token` or header `X-CSRF-Token`);
    /// the browser session ends, the tokens are removed and revoked, and the browser goes to the provider's
    /// end-session page (or ``WebSignInConfiguration/afterSignOut``).
    func logout(_ request: Request, context: Context) async throws -> Response {
        guard let (key, record) = try await sessionRecord(for: request) else {
            return Self.page(status: .forbidden, title: "Not signed in", message: "There is no session to sign out of.")
        }
        var presented = request.headers[HTTPField.Name("X-CSRF-Token")!]
        if presented == nil {
            let body = try await request.body.collect(upTo: 16 * 1024)
            presented = FormEncoding.decode(String(buffer: body)).first { $0.0 == "csrf_token" }?.1
        }
        guard let presented, Self.constantTimeEqual(presented, record.csrfToken) else {
            return Self.page(status: .forbidden, title: "Sign-out refused", message: "The request did not carry this session's CSRF token; nothing was changed.")
        }
        try await store.removeSession(key: key)
        await sessionCache?.forget(key)
        var location = configuration.afterSignOut
        if let client = clients[record.providerName], let session = try? await client.restoreSession(key: record.account) {
            // No `id_token_hint`: the URL goes through the browser (history, logs, the provider's referrers), so it
            // carries no token; `client_id` names the client (OpenID Connect RP-Initiated Logout 1.0 §2).
            if let endSession = try? await session.endSessionURL(includingIDTokenHint: false) { location = endSession.absoluteString }
            _ = try? await session.signOut(revokingTokens: true)
        }
        var response = Response.redirect(to: location, type: .normal)
        response.headers[.cacheControl] = "no-store"
        response.setCookie(Self.cookie(WebSignInConfiguration.sessionCookieName, "", maxAge: 0, sameSite: configuration.sessionCookieSameSite))
        return response
    }

    /// `GET /auth/session`: `{"signed_in": false}` or who is signed in and the CSRF token for sign-out. No token.
    func sessionJSON(_ request: Request, context: Context) async throws -> Response {
        var body: [String: JSONValue] = ["signed_in": false]
        if let (_, record) = try await sessionRecord(for: request) {
            body = [
                "signed_in": true, "provider": .string(record.providerName), "subject": .string(record.subject),
                "name": .string(record.displayName), "csrf_token": .string(record.csrfToken),
                "expires_at": .number(record.expiresAt.timeIntervalSince1970.rounded(.down)),
            ]
        }
        let data = try JSONValue.object(body).jsonData()
        return Response(
            status: .ok,
            headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data))
        )
    }

    /// A refused callback: 400 with `message`, and the sign-in cookie cleared (it cannot be used again).
    static func signInRefused(_ message: String) -> Response {
        var response = page(status: .badRequest, title: "Sign-in failed", message: message)
        response.setCookie(cookie(WebSignInConfiguration.signInCookieName, "", maxAge: 0, sameSite: .lax))
        return response
    }

    // MARK: Responses

    static func cookie(_ name: String, _ value: String, maxAge: Int, sameSite: WebSignInConfiguration.SameSite) -> Cookie {
        Cookie(
            name: name, value: value, maxAge: maxAge, path: "/", secure: true, httpOnly: true,
            sameSite: sameSite == .strict ? .strict : .lax
        )
    }

    static func failure(_ error: AuthError, status: HTTPResponse.Status) -> Response {
        page(status: status, title: "Sign-in failed", message: "\(error.message) (\(error.code.rawValue))")
    }

    /// A small HTML page; the text is escaped, nothing is scripted, and it cannot be framed.
    static func page(status: HTTPResponse.Status, title: String, message: String) -> Response {
        let html = """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title></head>\
            <body><h1>\(escape(title))</h1><p>\(escape(message))</p><p><a href="/">Back</a></p></body></html>
            """
        return Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                .contentSecurityPolicy: "default-src 'none'; frame-ancestors 'none'",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html))
        )
    }

    static func escape(_ text: String) -> String {
        HTMLText.escape(text)
    }
}
#endif
