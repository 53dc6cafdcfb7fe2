import AuthCore
import AuthTesting
import Foundation
import HTTPTypes
import Testing

@testable import AuthWebSignIn

/// A back-channel logout costs what it ends (the review's N3): it finds the sessions its token names by index, never
/// by listing and reading every stored credential; and one user cannot make the store hold unbounded sessions.
@Suite("web sign-in core: back-channel logout by index, sessions per user capped")
struct BackChannelLogoutCostTests {
    static let sessionCookie = WebSignInConfiguration.sessionCookieName

    static func logout(_ harness: CoreHarness, subject: String?, sessionID: String? = nil) async -> WebResponse {
        let token = await harness.idp.logoutToken(subject: subject, sessionID: sessionID)
        return await harness.core.backChannelLogout(
            provider: "oidc",
            request: WebRequest(
                method: .post, path: "/auth/oidc/backchannel-logout", headerFields: [.contentType: "application/x-www-form-urlencoded"],
                body: Data("logout_token=\(FormEncoding.escape(token))".utf8)
            )
        )
    }

    /// `count` sessions of other users, each with a credential of its own, written straight to the store.
    static func addOtherSessions(_ harness: CoreHarness, count: Int) async throws {
        let now = Date()
        for index in 0..<count {
            let key = StorageKey(
                providerID: "oidc", issuer: TestIdentityProvider.defaultIssuer.absoluteString, clientID: TestIdentityProvider.defaultClientID, account: "web-other-\(index)")
            let credential = Credential(
                providerID: "oidc", issuer: key.issuer, clientID: key.clientID, subject: "other-\(index)", accessToken: Secret("at-\(index)"), updatedAt: now
            )
            try await harness.store.tokenStorage.store(credential, for: key)
            await harness.store.saveSession(
                WebSessionRecord(
                    providerName: "oidc", account: key, subject: "other-\(index)", displayName: "Other", csrfToken: "c", createdAt: now,
                    expiresAt: now.addingTimeInterval(3600)
                ),
                key: "other-session-\(index)"
            )
        }
    }

    @Test(
        "With 2,000 other users' sessions stored, a logout lists no stored credential and reads none: it ends its user's session only, and one naming a user with no session ends nothing"
    )
    func logoutByIndex() async throws {
        let storage = CountingTokenStorage()
        let harness = try CoreHarness(tokenStorage: storage)
        var jar = CookieJar()
        #expect(try await SessionEndingTests.signIn(harness, provider: "oidc", jar: &jar).status == .seeOther)
        try await Self.addOtherSessions(harness, count: 2000)
        await storage.reset()

        #expect(await Self.logout(harness, subject: "nobody").status == .ok)
        #expect(await storage.keyListings == 0, "a logout naming nobody here lists nothing")
        #expect(await storage.credentialReads == 0, "and reads nothing")
        #expect(await harness.store.sessionCount == 2001)

        #expect(await Self.logout(harness, subject: "user-1234").status == .ok)
        #expect(await storage.keyListings == 0, "no full scan of the stored credentials")
        #expect(await storage.credentialReads == 0, "no credential read to compare subjects")
        #expect(await harness.store.sessionCount == 2000, "the user's one session ended, the others stay")
        #expect(try await storage.storedKeys().count == 2000, "its credential went with it")
        #expect(try await harness.core.signedInUser(for: WebRequest(method: .get, path: "/", headerFields: jar.header)) == nil)
    }

    @Test("A logout naming the provider session (sid) ends the sessions of that provider session only")
    func logoutBySessionID() async throws {
        let harness = try CoreHarness()
        try await Self.addOtherSessions(harness, count: 3)
        let now = Date()
        let key = StorageKey(providerID: "oidc", issuer: TestIdentityProvider.defaultIssuer.absoluteString, clientID: TestIdentityProvider.defaultClientID, account: "web-sid")
        await harness.store.saveSession(
            WebSessionRecord(
                providerName: "oidc", account: key, subject: "other-0", displayName: "Other", csrfToken: "c", createdAt: now,
                expiresAt: now.addingTimeInterval(3600), providerSessionID: "sid-42"
            ),
            key: "sid-session"
        )
        #expect(await Self.logout(harness, subject: nil, sessionID: "sid-42").status == .ok)
        #expect(await harness.store.sessionCount == 3)
        #expect(await harness.store.session(key: "sid-session", now: now) == nil)
        #expect(await harness.store.session(key: "other-session-0", now: now) != nil, "the user's other provider session stays")
    }

    @Test("A user holds at most maximumSessionsPerSubject sessions: a sign-in beyond it ends the oldest, with its credential")
    func sessionsCapped() async throws {
        let harness = try CoreHarness(maximumSessionsPerSubject: 2)
        var browsers: [CookieJar] = []
        for _ in 0..<3 {
            var jar = CookieJar()
            #expect(try await SessionEndingTests.signIn(harness, provider: "oidc", jar: &jar).status == .seeOther)
            browsers.append(jar)
        }
        #expect(await harness.store.sessionCount == 2)
        #expect(try await harness.store.tokenStorage.storedKeys().count == 2, "the oldest session's credential is gone")
        let signedIn = try await browsers.asyncMap { try await harness.core.signedInUser(for: WebRequest(method: .get, path: "/", headerFields: $0.header)) != nil }
        #expect(signedIn == [false, true, true], "the oldest ended first")
    }

    @Test("Credentials whose session is gone are swept: at the second sweep that finds them without one")
    func orphanCredentialsSwept() async throws {
        let harness = try CoreHarness()
        var jar = CookieJar()
        #expect(try await SessionEndingTests.signIn(harness, provider: "oidc", jar: &jar).status == .seeOther)
        let orphan = StorageKey(
            providerID: "oidc", issuer: TestIdentityProvider.defaultIssuer.absoluteString, clientID: TestIdentityProvider.defaultClientID, account: "web-orphan")
        try await harness.store.tokenStorage.store(
            Credential(providerID: "oidc", issuer: orphan.issuer, clientID: orphan.clientID, subject: "gone", accessToken: Secret("at"), updatedAt: Date()), for: orphan
        )
        await harness.store.removeExpired(now: Date())
        #expect(try await harness.store.tokenStorage.storedKeys().count == 2, "not at the first sweep: a sign-in may be storing it")
        await harness.store.removeExpired(now: Date())
        let left = try await harness.store.tokenStorage.storedKeys()
        #expect(left.count == 1 && !left.contains(orphan))
        #expect(try await harness.core.signedInUser(for: WebRequest(method: .get, path: "/", headerFields: jar.header)) != nil)
    }
}

extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
