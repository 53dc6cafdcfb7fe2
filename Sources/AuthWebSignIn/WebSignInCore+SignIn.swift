import AuthCore
import Foundation
import HTTPTypes

extension WebSignInCore {
    /// `GET /auth/{provider}/login`: a new authorization request, its secrets sealed into this browser's sign-in
    /// cookie (nothing is stored: see `SignInCookie`), and a `302` to the provider.
    ///
    /// The cookie is `SameSite=Lax`, or `SameSite=None` when the authorization request asks the provider to answer
    /// with a form POST (`response_mode=form_post`): a cross-site POST carries no `Lax` cookie (see ``WebSignInCore``).
    public func login(provider name: String) async -> WebResponse {
        await login(provider: name, request: WebRequest(method: .get, path: configuration.loginPath(for: name)))
    }

    /// `GET /auth/{provider}/login` as ``login(provider:)``, for the request the browser sent: only a `GET` (anything
    /// else — `HEAD` included — is 405, nothing started) of a top-level navigation (`Sec-Fetch-Dest: document`,
    /// when the browser says) starts a sign-in. An `<img>` or `<iframe>` of another site's page (`Sec-Fetch-Dest:
    /// image`, `iframe`, …) is 403 `cross_site_request` and leaves the browser's sign-in cookie alone, so it cannot
    /// replace a sign-in in progress.
    public func login(provider name: String, request: WebRequest) async -> WebResponse {
        guard request.method == .get else { return Self.methodNotAllowed(allow: "GET") }
        guard let client = clients[name] else { return Self.unknownProvider(name) }
        if let destination = request.headerFields[HTTPField.Name("Sec-Fetch-Dest")!]?.lowercased(), destination != "document" {
            return Self.failure(
                AuthError(.crossSiteRequest, "A sign-in starts only from a page the browser navigates to, not from an embedded resource."), status: .forbidden
            )
        }
        return await beginSignIn(name: name, client: client, request: request)
    }

    /// Starts a sign-in with `name`'s provider for `request`'s browser: with `loginHint` when given, and the browser
    /// going to `returnTo` (a path on the app's own origin) instead of ``WebSignInConfiguration/afterSignIn`` once
    /// it completes; with `stepUp`, a step-up sign-in of that user to that requirement (``requireAuthentication(_:request:)``).
    func beginSignIn(
        name: String, client: AuthClient, request: WebRequest, loginHint: String? = nil, returnTo: String? = nil,
        stepUp: (requirement: StepUpRequirement, subject: String)? = nil
    ) async -> WebResponse {
        var options = configuration.signInOptions[name] ?? SignInOptions()
        if let loginHint { options.loginHint = loginHint }
        if let stepUp {
            let stepUpOptions = SignInOptions.stepUp(to: stepUp.requirement, subject: stepUp.subject, accountName: nil)
            options.acrValues = stepUpOptions.acrValues
            options.requiresACR = stepUpOptions.requiresACR
            options.maxAge = stepUpOptions.maxAge
            options.prompt = stepUpOptions.prompt
            options.stepUp = stepUpOptions.stepUp
            options.expectedSubject = stepUpOptions.expectedSubject
        }
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
        } catch {
            return Self.failure(AuthError(.invalidResponse, "The sign-in could not be prepared."), status: .badGateway)
        }
        let formPost = Self.usesFormPost(authorization.url)
        let sealed: String
        do {
            // The browser's session now (login is a same-site top-level GET, so its Lax cookie came): the callback ends
            // it even when it arrives without that cookie (a form_post provider's cross-site POST).
            var content = SignInCookie.Content(providerName: name, pending: pending, usesFormPost: formPost)
            content.replacesSession = request.cookie(WebSignInConfiguration.sessionCookieName).flatMap { $0.isEmpty ? nil : Self.digest($0) }
            content.returnTo = returnTo
            sealed = try signInCookie.seal(content)
        } catch {
            return Self.failure(AuthError(.storageFailed, "The sign-in could not be sealed into its cookie."), status: .internalServerError)
        }
        // Browsers drop a cookie over 4 kB without a word; the callback would then say "cookie missing".
        guard sealed.utf8.count <= SignInCookie.maximumLength else {
            return WebResponse.page(
                status: .internalServerError, title: "Sign-in failed",
                message:
                    "This provider's sign-in options are too large to keep in the browser's cookie (\(sealed.utf8.count) bytes); shorten its additional parameters or claims request."
            )
        }
        var response = WebResponse.redirect(to: authorization.url.absoluteString, status: .found)
        let lifetime = max(0, Int(pending.expiresAt.timeIntervalSince(clock.now())))
        response.setCookie(WebCookie(name: WebSignInConfiguration.signInCookieName, value: sealed, maxAge: lifetime, sameSite: formPost ? .none : .lax))
        return response
    }

    /// `GET` or `POST /auth/{provider}/callback`: the browser's sign-in cookie must open with this app's key and hold
    /// this `state`, this provider, an unexpired sign-in and the method its provider was asked to answer with; the
    /// engine then completes it. The cookie is cleared whatever happens, and a new session id (never the one the
    /// browser had: no fixation) goes into the session cookie.
    ///
    /// A `POST` (`response_mode=form_post`) carries the answer as an `application/x-www-form-urlencoded` body the
    /// adapter collected (at most ``maximumFormBodySize`` bytes): the redirect the engine checks is rebuilt from it —
    /// the registered callback URL with the form's parameters as its query — so every check of a `GET` applies, and
    /// parameters beyond `code` and `state` (Apple's `user`) reach the provider's `resolveIdentity`.
    ///
    /// - Throws: `storage_unavailable` when the session store cannot answer.
    public func callback(provider name: String, request: WebRequest) async throws -> WebResponse {
        // A HEAD (or any other method) spends no code and touches no cookie: nobody reads its answer.
        guard request.method == .get || request.method == .post else { return Self.methodNotAllowed(allow: "GET, POST") }
        guard let client = clients[name] else { return Self.unknownProvider(name) }
        let pairs: [(String, String)]
        let isPost = request.method == .post
        if isPost {
            guard let form = request.formPairs else {
                return Self.signInRefused(AuthError(.invalidCallbackForm, "The provider's answer is not an application/x-www-form-urlencoded form."), formPost: true)
            }
            pairs = form
        } else {
            pairs = FormEncoding.decode(request.query ?? "")
        }
        // Until the state matches, a refusal leaves the browser's sign-in cookie as it is: any site can send the
        // browser here with a made-up answer, and that must not cancel the sign-in in progress.
        guard let state = pairs.first(where: { $0.0 == "state" })?.1, !state.isEmpty else {
            return Self.failure(AuthError(.missingState, "The provider's answer has no state; start the sign-in again."), status: .badRequest)
        }
        guard let sealed = request.cookie(WebSignInConfiguration.signInCookieName), !sealed.isEmpty else {
            return Self.signInRefused(
                AuthError(.signInCookieMissing, "This browser did not start this sign-in (its sign-in cookie is missing); start it again."), formPost: isPost
            )
        }
        guard let entry = signInCookie.open(sealed) else {
            return Self.signInRefused(
                AuthError(.signInCookieInvalid, "This browser's sign-in cookie was not made by this app (or was altered); start the sign-in again."), formPost: isPost
            )
        }
        let formPost = entry.usesFormPost ?? false
        guard Self.constantTimeEqual(entry.pending.state, state), entry.providerName == name else {
            return Self.failure(AuthError(.stateMismatch, "This answer belongs to another sign-in than this browser's; start it again."), status: .badRequest)
        }
        guard entry.pending.expiresAt > clock.now() else {
            return Self.signInRefused(AuthError(.signInExpired, "This sign-in expired; start it again."), formPost: formPost)
        }
        // The answer must come the way it was asked for: a form_post provider's code never in a URL (browser
        // history, logs, referrers), and a query provider's answer never from a form any site can post.
        guard isPost == formPost else {
            return Self.signInRefused(
                AuthError(
                    .callbackMethodMismatch,
                    formPost ? "This provider answers with a form POST; an answer in the URL is refused." : "This provider answers in the URL; a posted answer is refused."
                ),
                formPost: formPost
            )
        }
        // The redirect as the engine checks it: the registered callback URL with the provider's parameters.
        let query = isPost ? FormEncoding.encode(pairs) : (request.query ?? "")
        let callback = configuration.callbackURL(for: name)
        guard let redirect = URL(string: callback.absoluteString + (query.isEmpty ? "" : "?" + query)) else {
            return Self.signInRefused(AuthError(.invalidResponse, "The provider's answer is not a valid URL query."), formPost: formPost)
        }
        let session: Session
        do {
            session = try await client.completeSignIn(redirect: redirect, resuming: entry.pending)
        } catch let error as AuthError {
            var response = Self.failure(error, status: error.code == .authorizationFailed || error.code == .accessDenied ? .forbidden : .badRequest)
            response.setCookie(.removal(WebSignInConfiguration.signInCookieName, sameSite: formPost ? .none : .lax))
            return response
        }
        let (cookie, _) = try await startSession(name: name, client: client, session: session, replacing: request, sealedEarlierSession: entry.replacesSession)
        // The browser goes on to the app's page (`303`: a GET, whatever the callback's method was).
        var response = WebResponse.redirect(to: entry.returnTo ?? configuration.afterSignIn, status: .seeOther)
        response.setCookie(.removal(WebSignInConfiguration.signInCookieName, sameSite: formPost ? .none : .lax))
        response.setCookie(cookie)
        return response
    }

    /// Starts a browser session for `session`'s credential: the browser's earlier session (and its credential) ends —
    /// the one its cookie names now and the one it had when the sign-in started (`sealedEarlierSession`, from the
    /// sealed sign-in cookie) — and a new random session id is saved; returns its session cookie and record.
    func startSession(
        name: String, client: AuthClient, session: Session, replacing request: WebRequest, sealedEarlierSession: String? = nil
    ) async throws -> (WebCookie, WebSessionRecord) {
        await sweeper.sweepIfDue(store, now: clock.now())
        let credential = await session.credential
        let claims = await session.idTokenClaims
        let providerName = type(of: client.provider).displayName
        // Without an ID token (Uber) the user is known only by this sign-in's own account name.
        let subject = credential.subject ?? credential.storageKey.account
        // A name the provider says once (Apple's first authorization) is kept for the user, not for this session:
        // every later session of the user — another browser, after a sign-out, another instance — greets them by it.
        let subjectIndex = WebSessionRecord.subjectIndex(providerName: name, subject: subject)
        if credential.subject != nil, let said = credential.profile?["name"], !said.isEmpty {
            try? await store.rememberDisplayName(said, subjectIndex: subjectIndex)
        }
        let remembered = credential.subject == nil ? nil : try? await store.rememberedDisplayName(subjectIndex: subjectIndex)
        let displayName =
            Self.displayName(claims: claims, profile: credential.profile, remembered: remembered ?? nil)
            ?? (credential.subject == nil ? "\(providerName) user" : subject)
        // The browser's earlier session ends with its own credential (each session has one): nothing is left behind,
        // also when the callback came without the session cookie (form_post).
        var earlier: [(key: String, record: WebSessionRecord)] = []
        if let current = try await sessionRecord(for: request) { earlier.append(current) }
        if let sealedEarlierSession, !earlier.contains(where: { $0.key == sealedEarlierSession }),
            let record = try await store.session(key: sealedEarlierSession, now: clock.now())
        {
            earlier.append((sealedEarlierSession, record))
        }
        for (oldKey, old) in earlier {
            try await store.removeSession(key: oldKey)
            await sessionCache?.forget(oldKey)
            try? await store.tokenStorage.removeCredential(for: old.account)
        }
        let id = SecureRandom.token()
        let now = clock.now()
        let record = WebSessionRecord(
            providerName: name, account: credential.storageKey, subject: subject, displayName: displayName,
            csrfToken: SecureRandom.token(), createdAt: now, expiresAt: now.addingTimeInterval(configuration.sessionLifetime),
            providerSessionID: claims?["sid"]?.stringValue, authenticationClass: claims?.authenticationContextClass,
            authenticatedAt: claims?.authenticationTime
        )
        try await store.saveSession(record, key: Self.digest(id))
        // One user holds at most so many sessions: the oldest end, with their credentials.
        for ended in try await store.removeSessions(subjectIndex: record.subjectIndex, keepingNewest: max(1, configuration.maximumSessionsPerSubject)) {
            await sessionCache?.forget(account: ended.account)
            try? await store.tokenStorage.removeCredential(for: ended.account)
        }
        let cookie = WebCookie(
            name: WebSignInConfiguration.sessionCookieName, value: id, maxAge: Int(configuration.sessionLifetime),
            sameSite: WebCookie.SameSite(configuration.sessionCookieSameSite)
        )
        return (cookie, record)
    }

    /// The name to greet a user with: the ID token's `name`; for a provider whose ID token names nobody (GitHub has
    /// no ID token, Apple's carries only an email), what the provider said beside it (`Credential/profile`: GitHub's
    /// user API, Apple's first-sign-in `user`): `name`; then the name kept for the user from an earlier sign-in
    /// (`remembered`); then `login`; then an email, the ID token's or the profile's.
    static func displayName(claims: IDTokenClaims?, profile: [String: String]?, remembered: String? = nil) -> String? {
        let candidates = [claims?["name"]?.stringValue, profile?["name"], remembered, profile?["login"], claims?["email"]?.stringValue, profile?["email"]]
        return candidates.lazy.compactMap { $0 }.first { !$0.isEmpty }
    }

    /// Whether `url` (an authorization request) asks the provider to answer with a form POST.
    static func usesFormPost(_ url: URL) -> Bool {
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
        return FormEncoding.decode(query).contains { $0.0 == "response_mode" && $0.1 == "form_post" }
    }

    /// A refused callback: 400 with `error`'s message and code, and the sign-in cookie cleared (it cannot be used
    /// again) with the attributes it was set with.
    static func signInRefused(_ error: AuthError, formPost: Bool) -> WebResponse {
        var response = failure(error, status: .badRequest)
        response.setCookie(.removal(WebSignInConfiguration.signInCookieName, sameSite: formPost ? .none : .lax))
        return response
    }

    /// 405 with `Allow`: a method the route does not serve (`HEAD` on `login` or the callback runs nothing).
    static func methodNotAllowed(allow: String) -> WebResponse {
        var response = WebResponse.page(status: .methodNotAllowed, title: "Method not allowed", message: "This route answers \(allow) only.")
        response.headerFields[.allow] = allow
        return response
    }

    /// A "Sign-in failed" page with `error`'s message and code.
    static func failure(_ error: AuthError, status: HTTPResponse.Status) -> WebResponse {
        WebResponse.page(status: status, title: "Sign-in failed", message: "\(error.message) (\(error.code.rawValue))")
    }

    /// 404 for a provider name this app does not serve.
    static func unknownProvider(_ name: String) -> WebResponse {
        WebResponse.page(status: .notFound, title: "Unknown provider", message: "There is no provider named '\(name)' here.")
    }
}
