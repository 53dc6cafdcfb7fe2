#if VaporSignIn
    import AuthCore
    import AuthOIDC
    import AuthTesting
    import AuthVapor
    import Foundation
    import Synchronization
    import Testing
    import VaporTesting

    @Suite("web sign-in for Vapor (AuthVapor)")
    struct VaporWebSignInTests {
        @Test("Sign in with the provider by name: redirect with PKCE, state and nonce, callback, a session cookie; handlers see the user and a token")
        func signsIn() async throws {
            let harness = try VaporWebSignInHarness()
            try await harness.withApplication { app in
                var jar = VaporCookieJar()
                let login = try await app.testing().sendRequest(.GET, "/auth/oidc/login")
                let location = try #require(login.headers.first(name: .location).flatMap(URL.init(string:)))
                let query = Dictionary(FormEncoding.decode(location.query ?? ""), uniquingKeysWith: { a, _ in a })
                #expect(query["code_challenge_method"] == "S256" && query["state"] != nil && query["nonce"] != nil)
                #expect(query["redirect_uri"] == "https://app.example.test/auth/oidc/callback")
                let signInCookie = try #require(login.headers[.setCookie].first { $0.hasPrefix(WebSignInConfiguration.signInCookieName + "=") })
                for flag in ["Secure", "HttpOnly", "Path=/", "SameSite=Lax"] { #expect(signInCookie.contains(flag), "\(flag)") }
                jar.update(from: login)

                let callback = try await harness.followToProvider(location.absoluteString)
                let done = try await app.testing().sendRequest(.GET, callback, headers: jar.headers)
                #expect(done.status == .seeOther && done.headers.first(name: .location) == "/")
                let sessionCookie = try #require(done.headers[.setCookie].first { $0.hasPrefix(WebSignInConfiguration.sessionCookieName + "=") })
                for flag in ["Secure", "HttpOnly", "Path=/", "SameSite=Lax"] { #expect(sessionCookie.contains(flag), "\(flag)") }
                jar.update(from: done)
                #expect(jar.values[WebSignInConfiguration.signInCookieName] == nil, "the sign-in cookie is cleared")

                let me = try await app.testing().sendRequest(.GET, "/me", headers: jar.headers)
                #expect(String(buffer: me.body) == "Alice Example via oidc, token available")
                let session = try await harness.sessionJSON(app, jar)
                #expect(session["signed_in"] == true && session["provider"] == "oidc" && session["subject"] == "user-1234")
                #expect(session["csrf_token"]?.stringValue?.isEmpty == false)
            }
        }

        @Test("Hostile: a callback without the sign-in cookie is 400 sign_in_cookie_missing; nothing stored, no code redeemed")
        func callbackWithoutCookie() async throws {
            let harness = try VaporWebSignInHarness()
            try await harness.withApplication { app in
                let login = try await app.testing().sendRequest(.GET, "/auth/oidc/login")
                let callback = try await harness.followToProvider(try #require(login.headers.first(name: .location)))
                let response = try await app.testing().sendRequest(.GET, callback)
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("(sign_in_cookie_missing)"))
                #expect(!response.headers[.setCookie].contains { $0.hasPrefix(WebSignInConfiguration.sessionCookieName) }, "no session")
                #expect(try await harness.store.tokenStorage.storedKeys().isEmpty)
                #expect(await harness.idp.tokenRequestsByGrant["authorization_code"] == nil)
            }
        }

        @Test("Hostile: sign-out without the CSRF token is 403 and changes nothing; with it, tokens are revoked and the session ends")
        func signOutNeedsCSRF() async throws {
            let harness = try VaporWebSignInHarness()
            try await harness.withApplication { app in
                var jar = VaporCookieJar()
                try await harness.signIn(app, jar: &jar)
                var headers = jar.headers
                headers.contentType = .urlEncodedForm
                let bare = try await app.testing().sendRequest(.POST, "/auth/logout", headers: headers, body: ByteBuffer(string: ""))
                #expect(bare.status == .forbidden)
                let wrong = try await app.testing().sendRequest(.POST, "/auth/logout", headers: headers, body: ByteBuffer(string: "csrf_token=forged"))
                #expect(wrong.status == .forbidden)
                #expect(try await harness.sessionJSON(app, jar)["signed_in"] == true)
                #expect(try await harness.store.tokenStorage.storedKeys().count == 1)

                let csrf = try #require(try await harness.sessionJSON(app, jar)["csrf_token"]?.stringValue)
                let done = try await app.testing().sendRequest(.POST, "/auth/logout", headers: headers, body: ByteBuffer(string: "csrf_token=\(csrf)"))
                #expect(done.status == .seeOther)
                #expect(done.headers.first(name: .location)?.hasPrefix(harness.idp.endpoint("/logout").absoluteString) == true)
                jar.update(from: done)
                #expect(jar.values[WebSignInConfiguration.sessionCookieName] == nil)
                #expect(try await harness.store.tokenStorage.storedKeys().isEmpty)
                #expect(await (harness.store as! InMemoryWebSessionStore).sessionCount == 0)
                #expect(await harness.idp.requestCounts["/revoke"] == 2, "refresh and access token revoked")
            }
        }

        @Test("A store that cannot answer: the requests get the 503 page with Retry-After, and the app recovers by itself")
        func storeOutage() async throws {
            let clock = ManualClock()
            let store = FlakyStore()
            let harness = try VaporWebSignInHarness(store: store, clock: clock)
            try await harness.withApplication { app in
                var jar = VaporCookieJar()
                try await harness.signIn(app, jar: &jar)
                store.failing = true
                let response = try await app.testing().sendRequest(.GET, "/auth/session", headers: jar.headers)
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers.first(name: .retryAfter) == "5")
                #expect(String(buffer: response.body).contains("Unavailable for a moment"))
                let page = try await app.testing().sendRequest(.GET, "/me", headers: jar.headers)
                #expect(page.status == .serviceUnavailable, "an app route behind the middleware too")
                store.failing = false
                clock.advance(by: 1.1)  // the core's fail-fast window passes
                #expect(try await harness.sessionJSON(app, jar)["signed_in"] == true)
            }
        }

        @Test("Hostile over real HTTP: a form body over 16 KiB is 413 unread; nothing stored, no code redeemed")
        func bodyLimit() async throws {
            let harness = try VaporWebSignInHarness()
            try await harness.withApplication { app in
                let padded = "code=x&state=y&padding=" + String(repeating: "a", count: WebSignInCore.maximumFormBodySize + 1024)
                let tooLarge = try await app.testing(method: .running(hostname: "127.0.0.1", port: 0)).sendRequest(
                    .POST, "/auth/oidc/callback", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: ByteBuffer(string: padded)
                )
                #expect(tooLarge.status == .payloadTooLarge)
                #expect(try await harness.store.tokenStorage.storedKeys().isEmpty)
                #expect(await harness.idp.tokenRequestsByGrant["authorization_code"] == nil)
            }
        }
    }

    /// An in-memory store that fails like a database that went away, while `failing` is set.
    private final class FlakyStore: WebSessionStore, Sendable {
        let base = InMemoryWebSessionStore()
        private let down = Mutex(false)
        var failing: Bool {
            get { down.withLock { $0 } }
            set { down.withLock { $0 = newValue } }
        }
        var tokenStorage: any TokenStorage { base.tokenStorage }
        func saveSession(_ session: WebSessionRecord, key: String) async throws { await base.saveSession(session, key: key) }
        func session(key: String, now: Date) async throws -> WebSessionRecord? {
            if failing { throw AuthError(.storageUnavailable, "The database is not answering.") }
            return await base.session(key: key, now: now)
        }
        func removeSession(key: String) async throws { await base.removeSession(key: key) }
        func removeSessions(account: AuthCore.StorageKey) async throws { await base.removeSessions(account: account) }
        func removeSessions(subjectIndex: String?, providerSessionIndex: String?) async throws -> [WebSessionRecord] {
            await base.removeSessions(subjectIndex: subjectIndex, providerSessionIndex: providerSessionIndex)
        }
        func removeSessions(subjectIndex: String, keepingNewest limit: Int) async throws -> [WebSessionRecord] {
            await base.removeSessions(subjectIndex: subjectIndex, keepingNewest: limit)
        }
        func removeExpired(now: Date) async throws { await base.removeExpired(now: now) }
    }
#endif
