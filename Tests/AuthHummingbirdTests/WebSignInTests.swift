#if HummingbirdSignIn
    import AuthCore
    import AuthHummingbird
    import AuthOIDC
    import AuthTesting
    import Foundation
    import Hummingbird
    import HummingbirdTesting
    import Synchronization
    import Testing

    @Suite("web sign-in for Hummingbird (AuthHummingbird), in-memory store")
    struct WebSignInTests {
        /// Login → the provider → the callback, with `jar` as the browser's cookies; returns the callback's response.
        @discardableResult
        static func signIn(_ client: some TestClientProtocol, _ harness: WebSignInHarness, jar: inout CookieJar) async throws -> TestResponse {
            let login = try await client.execute(uri: "/auth/oidc/login", method: .get, headers: jar.header)
            #expect(login.status == .found)
            jar.update(from: login)
            let callback = try await harness.followToProvider(try require(login.headers[.location]))
            let done = try await client.execute(uri: callback, method: .get, headers: jar.header)
            jar.update(from: done)
            return done
        }

        static func sessionJSON(_ client: some TestClientProtocol, _ jar: CookieJar) async throws -> [String: JSONValue] {
            let response = try await client.execute(uri: "/auth/session", method: .get, headers: jar.header)
            #expect(response.headers[.cacheControl] == "no-store")
            return try JSONValue.parseObject(Data(buffer: response.body))
        }

        @Test("Sign in with the provider by name: redirect with PKCE, state and nonce, callback, a session cookie; handlers see the user and a token")
        func signsIn() async throws {
            let harness = try WebSignInHarness()
            try await harness.application().test(.router) { client in
                var jar = CookieJar()
                let login = try await client.execute(uri: "/auth/oidc/login", method: .get)
                let location = try require(login.headers[.location].flatMap(URL.init(string:)))
                let query = Dictionary(FormEncoding.decode(location.query ?? ""), uniquingKeysWith: { a, _ in a })
                #expect(query["code_challenge_method"] == "S256" && query["state"] != nil && query["nonce"] != nil)
                #expect(query["redirect_uri"] == "https://app.example.test/auth/oidc/callback")
                jar.update(from: login)
                #expect(jar.values[WebSignInConfiguration.signInCookieName] != nil)

                let callback = try await harness.followToProvider(location.absoluteString)
                let done = try await client.execute(uri: callback, method: .get, headers: jar.header)
                #expect(done.status == .seeOther && done.headers[.location] == "/")
                jar.update(from: done)
                #expect(jar.values[WebSignInConfiguration.signInCookieName] == nil, "the sign-in cookie is cleared")
                #expect(jar.values[WebSignInConfiguration.sessionCookieName] != nil)

                let me = try await client.execute(uri: "/me", method: .get, headers: jar.header)
                #expect(String(buffer: me.body) == "Alice Example via oidc, token available")
                let session = try await Self.sessionJSON(client, jar)
                #expect(session["signed_in"] == true && session["provider"] == "oidc" && session["subject"] == "user-1234")
                #expect(session["csrf_token"]?.stringValue?.isEmpty == false)
            }
        }

        @Test("Cookies are __Host-, Secure, HttpOnly, Path=/ and SameSite=Lax; Strict only when asked")
        func cookieFlags() async throws {
            for sameSite in [WebSignInConfiguration.SameSite.lax, .strict] {
                let harness = try WebSignInHarness(sameSite: sameSite)
                try await harness.application().test(.router) { client in
                    var jar = CookieJar()
                    let login = try await client.execute(uri: "/auth/oidc/login", method: .get)
                    let signInCookie = try require(login.headers[values: .setCookie].first { $0.hasPrefix("__Host-auth_signin=") })
                    for flag in ["Secure", "HttpOnly", "Path=/", "SameSite=Lax"] { #expect(signInCookie.contains(flag), "\(flag)") }
                    #expect(!signInCookie.contains("Domain"))
                    jar.update(from: login)
                    let callback = try await harness.followToProvider(try require(login.headers[.location]))
                    let done = try await client.execute(uri: callback, method: .get, headers: jar.header)
                    let sessionCookie = try require(done.headers[values: .setCookie].first { $0.hasPrefix("__Host-auth_session=") })
                    for flag in ["Secure", "HttpOnly", "Path=/", "SameSite=\(sameSite.rawValue)"] { #expect(sessionCookie.contains(flag), "\(flag)") }
                }
            }
        }

        @Test("Hostile: another sign-in's answer delivered to a browser (login CSRF) is 400; nothing stored, no code redeemed")
        func forgedStateCookie() async throws {
            let harness = try WebSignInHarness()
            try await harness.application().test(.router) { client in
                var victim = CookieJar()
                var attacker = CookieJar()
                let victimLogin = try await client.execute(uri: "/auth/oidc/login", method: .get)
                victim.update(from: victimLogin)
                let attackerLogin = try await client.execute(uri: "/auth/oidc/login", method: .get)
                attacker.update(from: attackerLogin)
                // The attacker's own authorization response, delivered to the victim's browser (login CSRF).
                let callback = try await harness.followToProvider(try require(attackerLogin.headers[.location]))
                let forged = try await client.execute(uri: callback, method: .get, headers: victim.header)
                #expect(forged.status == .badRequest)
                #expect(String(buffer: forged.body).contains("belongs to another sign-in than this browser"))
                #expect(!forged.headers[values: .setCookie].contains { $0.hasPrefix(WebSignInConfiguration.sessionCookieName) }, "no session")
                #expect(try await harness.store.tokenStorage.storedKeys().isEmpty)
                #expect(await harness.idp.tokenRequestsByGrant["authorization_code"] == nil, "no code was redeemed")
                victim.update(from: forged)
                #expect(victim.values[WebSignInConfiguration.signInCookieName] != nil, "the victim's own sign-in is not cancelled by it")
                #expect(try await Self.sessionJSON(client, victim)["signed_in"] == false)
            }
        }

        @Test("Hostile: a callback without the sign-in cookie is 400; nothing stored")
        func missingCookie() async throws {
            let harness = try WebSignInHarness()
            try await harness.application().test(.router) { client in
                let login = try await client.execute(uri: "/auth/oidc/login", method: .get)
                let callback = try await harness.followToProvider(try require(login.headers[.location]))
                let response = try await client.execute(uri: callback, method: .get)
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("sign-in cookie is missing"))
                #expect(try await harness.store.tokenStorage.storedKeys().isEmpty)
                #expect(await (harness.store as! InMemoryWebSessionStore).sessionCount == 0)
            }
        }

        @Test("Hostile: a replayed callback, even with a copy of the sign-in cookie, is 400 and starts no second session (the provider redeems a code once)")
        func replayedCallback() async throws {
            let harness = try WebSignInHarness()
            try await harness.application().test(.router) { client in
                var jar = CookieJar()
                let login = try await client.execute(uri: "/auth/oidc/login", method: .get)
                jar.update(from: login)
                let binding = jar
                let callback = try await harness.followToProvider(try require(login.headers[.location]))
                let first = try await client.execute(uri: callback, method: .get, headers: binding.header)
                #expect(first.status == .seeOther)
                let replay = try await client.execute(uri: callback, method: .get, headers: binding.header)
                #expect(replay.status == .badRequest)
                #expect(String(buffer: replay.body).contains("invalid_grant"))
                #expect(await (harness.store as! InMemoryWebSessionStore).sessionCount == 1)
                #expect(try await harness.store.tokenStorage.storedKeys().count == 1)
                // And the browser itself no longer has the cookie to replay.
                var after = binding
                after.update(from: first)
                #expect(after.values[WebSignInConfiguration.signInCookieName] == nil)
            }
        }

        @Test("Hostile: sign-out without the CSRF token, or with another, is 403 and changes nothing; with it, tokens are revoked and the session ends")
        func logoutNeedsCSRF() async throws {
            let harness = try WebSignInHarness()
            try await harness.application().test(.router) { client in
                var jar = CookieJar()
                try await Self.signIn(client, harness, jar: &jar)
                let csrf = try require(try await Self.sessionJSON(client, jar)["csrf_token"]?.stringValue)

                let bare = try await client.execute(uri: "/auth/logout", method: .post, headers: jar.header)
                #expect(bare.status == .forbidden)
                var wrongHeaders = jar.header
                wrongHeaders[.contentType] = "application/x-www-form-urlencoded"
                let wrong = try await client.execute(uri: "/auth/logout", method: .post, headers: wrongHeaders, body: ByteBuffer(string: "csrf_token=\(String(csrf.reversed()))"))
                #expect(wrong.status == .forbidden)
                #expect(try await Self.sessionJSON(client, jar)["signed_in"] == true)
                #expect(try await harness.store.tokenStorage.storedKeys().count == 1)

                let done = try await client.execute(uri: "/auth/logout", method: .post, headers: wrongHeaders, body: ByteBuffer(string: "csrf_token=\(csrf)"))
                #expect(done.status == .seeOther)
                #expect(done.headers[.location]?.hasPrefix(harness.idp.endpoint("/logout").absoluteString) == true, "to the provider's end-session page")
                jar.update(from: done)
                #expect(jar.values[WebSignInConfiguration.sessionCookieName] == nil)
                #expect(try await harness.store.tokenStorage.storedKeys().isEmpty)
                #expect(await harness.idp.requestCounts["/revoke"] == 2, "refresh and access token revoked")
            }
        }

        @Test("Two browsers of one user: each session has its own credential; signing out in one leaves the other intact and never hands it a later sign-in's tokens")
        func sessionsOfOneUserAreIndependent() async throws {
            let harness = try WebSignInHarness()
            try await harness.application().test(.router) { client in
                var a = CookieJar()
                var b = CookieJar()
                var c = CookieJar()
                try await Self.signIn(client, harness, jar: &a)
                try await Self.signIn(client, harness, jar: &b)
                #expect(try await harness.store.tokenStorage.storedKeys().count == 2, "one credential per browser session")

                func logout(_ jar: CookieJar) async throws -> TestResponse {
                    let csrf = try require(try await Self.sessionJSON(client, jar)["csrf_token"]?.stringValue)
                    var headers = jar.header
                    headers[.contentType] = "application/x-www-form-urlencoded"
                    return try await client.execute(uri: "/auth/logout", method: .post, headers: headers, body: ByteBuffer(string: "csrf_token=\(csrf)"))
                }
                #expect(try await logout(a).status == .seeOther)
                let me = try await client.execute(uri: "/me", method: .get, headers: b.header)
                #expect(String(buffer: me.body) == "Alice Example via oidc, token available", "B keeps its own tokens")
                #expect(try await harness.store.tokenStorage.storedKeys().count == 1)

                try await Self.signIn(client, harness, jar: &c)
                let cKeys = try await harness.store.tokenStorage.storedKeys()
                #expect(cKeys.count == 2)
                let cToken = try await client.execute(uri: "/me", method: .get, headers: c.header)
                #expect(String(buffer: cToken.body) == "Alice Example via oidc, token available")

                // B signs out: its own ID token names the provider's logout, never C's; C's credential stays.
                let bOut = try await logout(b)
                let location = try require(bOut.headers[.location])
                let cCredentials = try await harness.store.tokenStorage.storedKeys()
                #expect(cCredentials.count == 1, "only B's credential is gone")
                let cCredential = try require(try await harness.store.tokenStorage.credential(for: try require(cCredentials.first)))
                let cIDToken = try require(cCredential.idToken?.reveal())
                #expect(!location.contains(cIDToken), "another session's ID token never reaches this browser")
                #expect(location.contains("id_token_hint="), "the session's own ID token as id_token_hint (RP-Initiated Logout 1.0 §2)")
                #expect(try await Self.sessionJSON(client, c)["signed_in"] == true)
                #expect(try await Self.sessionJSON(client, b)["signed_in"] == false)
            }
        }

        static func backChannelLogout(_ client: some TestClientProtocol, token: String) async throws -> TestResponse {
            try await client.execute(
                uri: "/auth/oidc/backchannel-logout", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "logout_token=\(token)")
            )
        }

        @Test("Back-channel logout: the provider's logout token for the user ends every web session of that user; a forged or replayed one is 400 and ends nothing")
        func backChannelLogoutEndsSessions() async throws {
            let harness = try WebSignInHarness()
            try await harness.application().test(.router) { client in
                var a = CookieJar()
                var b = CookieJar()
                try await Self.signIn(client, harness, jar: &a)
                try await Self.signIn(client, harness, jar: &b)

                var forged = Array(await harness.idp.logoutToken(subject: "user-1234"))
                forged[forged.count - 5] = forged[forged.count - 5] == "A" ? "B" : "A"
                let refused = try await Self.backChannelLogout(client, token: String(forged))
                #expect(refused.status == .badRequest)
                let error = try JSONValue.parseObject(Data(buffer: refused.body))
                #expect(error["error"] == "invalid_request")
                #expect(try await Self.sessionJSON(client, a)["signed_in"] == true)
                #expect(try await harness.store.tokenStorage.storedKeys().count == 2)

                let token = await harness.idp.logoutToken(subject: "user-1234")
                let done = try await Self.backChannelLogout(client, token: token)
                #expect(done.status == .ok)
                #expect(done.headers[.cacheControl] == "no-store")
                #expect(try await Self.sessionJSON(client, a)["signed_in"] == false)
                #expect(try await Self.sessionJSON(client, b)["signed_in"] == false)
                #expect(try await harness.store.tokenStorage.storedKeys().isEmpty)

                let replayed = try await Self.backChannelLogout(client, token: token)
                #expect(replayed.status == .badRequest, "a logout token is accepted once (jti)")
                let otherUser = try await Self.backChannelLogout(client, token: await harness.idp.logoutToken(subject: "someone-else"))
                #expect(otherUser.status == .ok, "a valid token for a user without sessions ends nothing and is accepted")
            }
        }

        @Test("A new session id at every sign-in: the browser's old id stops working (no fixation)")
        func sessionIDRotates() async throws {
            let harness = try WebSignInHarness()
            try await harness.application().test(.router) { client in
                var jar = CookieJar()
                try await Self.signIn(client, harness, jar: &jar)
                let first = try require(jar.values[WebSignInConfiguration.sessionCookieName])
                // An attacker-planted id is never adopted either.
                jar = CookieJar()
                var planted = CookieJar()
                let plantedLogin = try await client.execute(uri: "/auth/oidc/login", method: .get, headers: [.cookie: "__Host-auth_session=planted"])
                planted.update(from: plantedLogin)
                let callback = try await harness.followToProvider(try require(plantedLogin.headers[.location]))
                var headers = planted.header
                headers[.cookie] = (headers[.cookie] ?? "") + "; __Host-auth_session=\(first)"
                let again = try await client.execute(uri: callback, method: .get, headers: headers)
                #expect(again.status == .seeOther)
                jar.update(from: again)
                let second = try require(jar.values[WebSignInConfiguration.sessionCookieName])
                #expect(second != first && second != "planted")
                var old = CookieJar()
                old.set(WebSignInConfiguration.sessionCookieName, first)
                #expect(try await Self.sessionJSON(client, old)["signed_in"] == false)
                #expect(try await Self.sessionJSON(client, jar)["signed_in"] == true)
            }
        }

        @Test("No token reaches a response body, a header or a URL the browser sees")
        func noTokensToTheBrowser() async throws {
            let harness = try WebSignInHarness()
            try await harness.application().test(.router) { client in
                var jar = CookieJar()
                var seen: [String] = []
                let login = try await client.execute(uri: "/auth/oidc/login", method: .get)
                seen.append("\(login.headers) \(String(buffer: login.body))")
                jar.update(from: login)
                let callback = try await harness.followToProvider(try require(login.headers[.location]))
                let done = try await client.execute(uri: callback, method: .get, headers: jar.header)
                seen.append("\(done.headers) \(String(buffer: done.body))")
                jar.update(from: done)
                for uri in ["/auth/session", "/me", "/"] {
                    let response = try await client.execute(uri: uri, method: .get, headers: jar.header)
                    seen.append("\(response.headers) \(String(buffer: response.body))")
                }
                let issued = await harness.idp.issuedSecrets.filter { !$0.hasPrefix("code_") }
                #expect(issued.count >= 3)
                for secret in issued { #expect(!seen.contains { $0.contains(secret) }) }
            }
        }

        @Test("Hostile flood: 2,000 unauthenticated sign-in starts store nothing, and a real user signs in during and after")
        func signInStartsStoreNothing() async throws {
            let harness = try WebSignInHarness()
            try await harness.application().test(.router) { client in
                let store = harness.store as! InMemoryWebSessionStore
                var real = CookieJar()
                for index in 0..<2_000 {
                    let start = try await client.execute(uri: "/auth/oidc/login", method: .get)
                    #expect(start.status == .found)
                    if index == 1_000 { try await Self.signIn(client, harness, jar: &real) }
                }
                #expect(await store.sessionCount == 1, "only the real user's session")
                #expect(try await harness.store.tokenStorage.storedKeys().count == 1)
                #expect(try await Self.sessionJSON(client, real)["signed_in"] == true)
                var later = CookieJar()
                try await Self.signIn(client, harness, jar: &later)
                #expect(try await Self.sessionJSON(client, later)["signed_in"] == true)
            }
        }

        @Test("Hostile: an altered, foreign or expired sign-in cookie is 400 and clears it; nothing stored")
        func sealedCookie() async throws {
            let clock = ManualClock()
            let harness = try WebSignInHarness(clock: clock)
            try await harness.application().test(.router) { client in
                var jar = CookieJar()
                let login = try await client.execute(uri: "/auth/oidc/login", method: .get)
                jar.update(from: login)
                let sealed = try require(jar.values[WebSignInConfiguration.signInCookieName])
                #expect(!sealed.contains("verifier") && sealed.count > 200, "sealed, not readable")
                let callback = try await harness.followToProvider(try require(login.headers[.location]))
                var altered = jar
                var bytes = Array(sealed)
                bytes[40] = bytes[40] == "A" ? "B" : "A"
                altered.set(WebSignInConfiguration.signInCookieName, String(bytes))
                let tampered = try await client.execute(uri: callback, method: .get, headers: altered.header)
                #expect(tampered.status == .badRequest)
                #expect(String(buffer: tampered.body).contains("not made by this app"))
                // Sealed by another app's key: the same refusal.
                let other = try WebSignInHarness(store: InMemoryWebSessionStore(), cookieKey: Data(repeating: 3, count: 32))
                let foreignCookie = try await other.application().test(.router) { otherClient in
                    var jar = CookieJar()
                    jar.update(from: try await otherClient.execute(uri: "/auth/oidc/login", method: .get))
                    return try require(jar.values[WebSignInConfiguration.signInCookieName])
                }
                var foreign = CookieJar()
                foreign.set(WebSignInConfiguration.signInCookieName, foreignCookie)
                let fromElsewhere = try await client.execute(uri: callback, method: .get, headers: foreign.header)
                #expect(fromElsewhere.status == .badRequest)
                // Expired: the engine's ten minutes are over.
                clock.advance(by: 601)
                let expired = try await client.execute(uri: callback, method: .get, headers: jar.header)
                #expect(expired.status == .badRequest)
                #expect(String(buffer: expired.body).contains("expired"))
                #expect(expired.headers[values: .setCookie].contains { $0.hasPrefix(WebSignInConfiguration.signInCookieName + "=;") })
                #expect(try await harness.store.tokenStorage.storedKeys().isEmpty)
                #expect(await harness.idp.tokenRequestsByGrant["authorization_code"] == nil)
            }
        }

        @Test("Expired sessions are swept with their credentials on the back of later sign-ins; signing in again in one browser replaces its credential")
        func expiredSweep() async throws {
            let clock = ManualClock()
            let harness = try WebSignInHarness(clock: clock)
            try await harness.application().test(.router) { client in
                var first = CookieJar()
                try await Self.signIn(client, harness, jar: &first)
                try await Self.signIn(client, harness, jar: &first)
                let store = harness.store as! InMemoryWebSessionStore
                #expect(await store.sessionCount == 1)
                #expect(try await harness.store.tokenStorage.storedKeys().count == 1, "the browser's earlier credential went with its session")
                clock.advance(by: 9 * 3600)
                var second = CookieJar()
                try await Self.signIn(client, harness, jar: &second)
                #expect(await store.sessionCount == 1, "the expired session was removed")
                #expect(try await harness.store.tokenStorage.storedKeys().count == 1, "and its credential")
            }
        }

        /// A store that says it is shared by several instances.
        private struct SharedStore: WebSessionStore {
            let base = InMemoryWebSessionStore()
            var tokenStorage: any TokenStorage { base.tokenStorage }
            var isSharedAcrossInstances: Bool { true }
            func saveSession(_ session: WebSessionRecord, key: String) async throws { await base.saveSession(session, key: key) }
            func session(key: String, now: Date) async throws -> WebSessionRecord? { await base.session(key: key, now: now) }
            func removeSession(key: String) async throws { await base.removeSession(key: key) }
            func removeSessions(account: StorageKey) async throws { await base.removeSessions(account: account) }
            func removeSessions(subjectIndex: String?, providerSessionIndex: String?) async throws -> [WebSessionRecord] {
                await base.removeSessions(subjectIndex: subjectIndex, providerSessionIndex: providerSessionIndex)
            }
            func removeSessions(subjectIndex: String, keepingNewest limit: Int) async throws -> [WebSessionRecord] {
                await base.removeSessions(subjectIndex: subjectIndex, keepingNewest: limit)
            }
            func removeExpired(now: Date) async throws { await base.removeExpired(now: now) }
        }

        /// A shared store over one in-memory store, counting session reads (what would be database round trips).
        private final class CountingSharedStore: WebSessionStore, Sendable {
            let base: InMemoryWebSessionStore
            let reads = LockedCount()
            init(base: InMemoryWebSessionStore) { self.base = base }
            var tokenStorage: any TokenStorage { base.tokenStorage }
            var isSharedAcrossInstances: Bool { true }
            func saveSession(_ session: WebSessionRecord, key: String) async throws { await base.saveSession(session, key: key) }
            func session(key: String, now: Date) async throws -> WebSessionRecord? {
                reads.increment()
                return await base.session(key: key, now: now)
            }
            func removeSession(key: String) async throws { await base.removeSession(key: key) }
            func removeSessions(account: StorageKey) async throws { await base.removeSessions(account: account) }
            func removeSessions(subjectIndex: String?, providerSessionIndex: String?) async throws -> [WebSessionRecord] {
                await base.removeSessions(subjectIndex: subjectIndex, providerSessionIndex: providerSessionIndex)
            }
            func removeSessions(subjectIndex: String, keepingNewest limit: Int) async throws -> [WebSessionRecord] {
                await base.removeSessions(subjectIndex: subjectIndex, keepingNewest: limit)
            }
            func removeExpired(now: Date) async throws { await base.removeExpired(now: now) }
        }

        final class LockedCount: Sendable {
            private let value = Mutex(0)
            func increment() { value.withLock { $0 += 1 } }
            var count: Int { value.withLock { $0 } }
        }

        @Test("A shared store is read once per session within the cache lifetime; a sign-out on another instance takes effect here within it, on this one at once")
        func sessionCacheBound() async throws {
            let clock = ManualClock()
            let shared = InMemoryWebSessionStore()
            let storeA = CountingSharedStore(base: shared)
            let storeB = CountingSharedStore(base: shared)
            let harnessA = try WebSignInHarness(store: storeA, clock: clock)
            let harnessB = try harnessA.sibling(store: storeB)
            try await harnessA.application().test(.router) { a in
                try await harnessB.application().test(.router) { b in
                    var jar = CookieJar()
                    try await Self.signIn(a, harnessA, jar: &jar)
                    let before = storeA.reads.count
                    for _ in 0..<5 { #expect(try await Self.sessionJSON(a, jar)["signed_in"] == true) }
                    #expect(storeA.reads.count - before <= 1, "one store read for five requests")

                    // Signed out through instance B: instance A trusts its copy for at most the lifetime (2 s).
                    let csrf = try require(try await Self.sessionJSON(b, jar)["csrf_token"]?.stringValue)
                    var headers = jar.header
                    headers[.contentType] = "application/x-www-form-urlencoded"
                    #expect(try await b.execute(uri: "/auth/logout", method: .post, headers: headers, body: ByteBuffer(string: "csrf_token=\(csrf)")).status == .seeOther)
                    #expect(try await Self.sessionJSON(b, jar)["signed_in"] == false, "at once where it was carried out")
                    #expect(try await Self.sessionJSON(a, jar)["signed_in"] == true, "within the bound elsewhere")
                    clock.advance(by: 2.1)
                    #expect(try await Self.sessionJSON(a, jar)["signed_in"] == false, "after the bound, everywhere")
                }
            }
        }

        /// An in-memory store that fails like a database that went away, while `failing` is set.
        private final class FlakyStore: WebSessionStore, Sendable {
            let base = InMemoryWebSessionStore()
            let reads = LockedCount()
            private let down = Mutex(false)
            var failing: Bool {
                get { down.withLock { $0 } }
                set { down.withLock { $0 = newValue } }
            }
            var tokenStorage: any TokenStorage { base.tokenStorage }
            func saveSession(_ session: WebSessionRecord, key: String) async throws { await base.saveSession(session, key: key) }
            func session(key: String, now: Date) async throws -> WebSessionRecord? {
                reads.increment()
                if failing { throw AuthError(.storageUnavailable, "The database is not answering.") }
                return await base.session(key: key, now: now)
            }
            func removeSession(key: String) async throws { await base.removeSession(key: key) }
            func removeSessions(account: StorageKey) async throws { await base.removeSessions(account: account) }
            func removeSessions(subjectIndex: String?, providerSessionIndex: String?) async throws -> [WebSessionRecord] {
                await base.removeSessions(subjectIndex: subjectIndex, providerSessionIndex: providerSessionIndex)
            }
            func removeSessions(subjectIndex: String, keepingNewest limit: Int) async throws -> [WebSessionRecord] {
                await base.removeSessions(subjectIndex: subjectIndex, keepingNewest: limit)
            }
            func removeExpired(now: Date) async throws { await base.removeExpired(now: now) }
        }

        @Test("A store that failed is not asked again for a second: the requests behind get 503 at once, and the app recovers by itself")
        func storeOutageFailsFast() async throws {
            let clock = ManualClock()
            let store = FlakyStore()
            let harness = try WebSignInHarness(store: store, clock: clock)
            try await harness.application().test(.router) { client in
                var jar = CookieJar()
                try await Self.signIn(client, harness, jar: &jar)
                #expect(try await Self.sessionJSON(client, jar)["signed_in"] == true)
                store.failing = true
                let before = store.reads.count
                for _ in 0..<5 {
                    let response = try await client.execute(uri: "/auth/session", method: .get, headers: jar.header)
                    #expect(response.status == .serviceUnavailable)
                    #expect(response.headers[.retryAfter] != nil)
                }
                #expect(store.reads.count - before == 1, "only the first of five requests waited for the failing store")
                clock.advance(by: 1.1)
                store.failing = false
                #expect(try await Self.sessionJSON(client, jar)["signed_in"] == true, "asked again after the window, and it answers")
                #expect(store.reads.count - before > 1, "the store was asked again")
            }
        }

        @Test("A store shared by several instances without a shared sign-in cookie key is refused at start-up")
        func sharedStoreNeedsKey() throws {
            let configuration = WebSignInConfiguration(publicURL: WebSignInHarness.appURL)
            let provider = OpenIDProvider(
                issuer: TestIdentityProvider.defaultIssuer,
                client: ClientRegistration(clientID: "c", redirectURI: configuration.callbackURL(for: "oidc"))
            )
            let error = #expect(throws: AuthError.self) {
                _ = try WebSignIn<BasicWebSignInRequestContext>(
                    providers: ["oidc": provider], store: SharedStore(), transport: TestIdentityProvider().transport, configuration: configuration
                )
            }
            #expect(error?.code == .invalidConfiguration)
            #expect(error?.message.contains("signInCookieKey") == true)
        }

        @Test("An unknown provider name is 404; a provider name that is not a path segment is refused at start-up")
        func providerNames() async throws {
            let harness = try WebSignInHarness()
            try await harness.application().test(.router) { client in
                let response = try await client.execute(uri: "/auth/nope/login", method: .get)
                #expect(response.status == .notFound)
            }
            let provider = OpenIDProvider(
                issuer: TestIdentityProvider.defaultIssuer,
                client: ClientRegistration(clientID: "c", redirectURI: URL(string: "https://app.example.test/auth/x/callback")!)
            )
            let error = try #require(throws: AuthError.self) {
                _ = try WebSignIn<BasicWebSignInRequestContext>(
                    providers: ["Bad/Name": provider], store: InMemoryWebSessionStore(), transport: harness.idp.transport,
                    configuration: WebSignInConfiguration(publicURL: WebSignInHarness.appURL)
                )
            }
            #expect(error.code == .invalidConfiguration && error.message.contains("Bad/Name"))

            // By name from a registry: the route name is the registry's; an unknown name is refused at start-up.
            var registry = ProviderRegistry()
            registry.register(OpenIDProvider.self)
            let oidc = ProviderConfiguration([
                "issuer": .string(TestIdentityProvider.defaultIssuer.absoluteString), "client_id": "c",
                "redirect_uri": "https://app.example.test/auth/oidc/callback"
            ])
            let fromRegistry = try WebSignIn<BasicWebSignInRequestContext>(
                registry: registry, configurations: ["oidc": oidc], store: InMemoryWebSessionStore(), transport: harness.idp.transport,
                configuration: WebSignInConfiguration(publicURL: WebSignInHarness.appURL)
            )
            #expect(fromRegistry.providerNames == ["oidc"] && fromRegistry.displayName(of: "oidc") == "OpenID Connect")
            let unknown = try #require(throws: AuthError.self) {
                _ = try WebSignIn<BasicWebSignInRequestContext>(
                    registry: registry, configurations: ["grab": oidc], store: InMemoryWebSessionStore(), transport: harness.idp.transport,
                    configuration: WebSignInConfiguration(publicURL: WebSignInHarness.appURL)
                )
            }
            #expect(unknown.code == .unknownProvider)
        }
    }
#endif
