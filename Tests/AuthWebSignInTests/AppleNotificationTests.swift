import AuthCore
import AuthEmulators
import AuthSignInWithApple
import AuthTesting
import Foundation
import HTTPTypes
import Testing

@testable import AuthWebSignIn

/// Sign in with Apple's server-to-server notifications (`POST /auth/apple/notifications`): Apple's signed JWT, checked
/// as an ID token is, ends the user's sessions and credentials or updates their email; anything else changes nothing.
@Suite("web sign-in core: Sign in with Apple's server-to-server notifications")
struct AppleNotificationTests {
    struct Harness {
        let emulator: ProviderEmulator
        let idp: TestIdentityProvider
        let store: InMemoryWebSessionStore
        let core: WebSignInCore
        let clock: ManualClock
        static let user = TestIdentityProvider.applePrivateRelayUser
        static let other = TestIdentityProvider.appleUser

        init() throws {
            clock = ManualClock()
            emulator = ProviderEmulator.apple(clock: clock)
            idp = try #require(emulator.identityProvider)
            store = InMemoryWebSessionStore()
            core = try Self.core(emulator: emulator, store: store, clock: clock)
        }

        /// An instance of the app: the Apple provider on `store`.
        static func core(emulator: ProviderEmulator, store: InMemoryWebSessionStore, clock: ManualClock) throws -> WebSignInCore {
            let apple = try SignInWithAppleProvider(configuration: emulator.configuration, clock: clock)
            return try WebSignInCore(
                providers: ["apple": apple], store: store, transport: emulator.transport,
                configuration: WebSignInConfiguration(publicURL: URL(string: "https://app.example.test")!, signInCookieKey: Data(repeating: 7, count: 32)),
                clock: clock
            )
        }

        /// A signed-in session of `user` with its credential, as a sign-in leaves them.
        func session(_ key: String, of user: TestIdentityProvider.User) async throws {
            let account = StorageKey(providerID: "apple", issuer: "https://appleid.apple.com", clientID: TestIdentityProvider.appleServicesID, account: key)
            var credential = Credential(
                providerID: "apple", issuer: "https://appleid.apple.com", clientID: TestIdentityProvider.appleServicesID, subject: user.subject,
                accessToken: Secret("at-" + key), updatedAt: clock.now())
            credential.profile = ["email": user.claims["email"]?.stringValue ?? ""]
            try await store.tokenStorage.store(credential, for: account)
            await store.saveSession(
                WebSessionRecord(
                    providerName: "apple", account: account, subject: user.subject, displayName: "Robin", csrfToken: "csrf-" + key,
                    createdAt: clock.now(), expiresAt: clock.now().addingTimeInterval(3600)),
                key: key)
        }

        /// `POST /auth/apple/notifications` with `{"payload": payload}`.
        func post(_ payload: String, provider: String = "apple") async -> WebResponse {
            let body = try? JSONValue.object(["payload": .string(payload)]).jsonData()
            return await core.appleNotification(
                provider: provider,
                request: WebRequest(method: .post, path: "/auth/\(provider)/notifications", headerFields: [.contentType: "application/json"], body: body))
        }

        func notification(_ type: String, user: TestIdentityProvider.User = Harness.user, fault: TestIdentityProvider.AppleNotificationFault? = nil) async -> String {
            await idp.appleNotification(type: type, user: user, clientID: TestIdentityProvider.appleServicesID, fault: fault)
        }

        /// The stored sessions of `user` and their credentials' profiles.
        func state(of user: TestIdentityProvider.User) async throws -> [[String: String]] {
            let sessions = try await (store as any WebSessionStore).sessions(
                subjectIndex: WebSessionRecord.subjectIndex(providerName: "apple", subject: user.subject), now: clock.now())
            var profiles: [[String: String]] = []
            for record in sessions.sorted(by: { $0.csrfToken < $1.csrfToken }) {
                profiles.append(try await store.tokenStorage.credential(for: record.account)?.profile ?? ["": "no credential"])
            }
            return profiles
        }
    }

    @Test("consent-revoked and account-delete end every session of the user with its credential, and only that user's", arguments: ["consent-revoked", "account-delete"])
    func endsSessions(type: String) async throws {
        let harness = try Harness()
        try await harness.session("a", of: Harness.user)
        try await harness.session("b", of: Harness.user)
        try await harness.session("c", of: Harness.other)
        let userIndex = WebSessionRecord.subjectIndex(providerName: "apple", subject: Harness.user.subject)
        let otherIndex = WebSessionRecord.subjectIndex(providerName: "apple", subject: Harness.other.subject)
        // Through the protocol, as the core calls it (on the concrete actor, the protocol extension's default would be chosen).
        let names: any WebSessionStore = harness.store
        try await names.rememberDisplayName("Robin Appleseed", subjectIndex: userIndex)
        try await names.rememberDisplayName("Kim Appleseed", subjectIndex: otherIndex)
        let answer = await harness.post(await harness.notification(type))
        #expect(answer.status == .ok)
        #expect(try await names.rememberedDisplayName(subjectIndex: userIndex) == nil)
        #expect(try await names.rememberedDisplayName(subjectIndex: otherIndex) == "Kim Appleseed")
        #expect(try JSONValue.parseObject(answer.body) == ["event": .string(type), "sessions": 2])
        #expect(try await harness.state(of: Harness.user).isEmpty)
        #expect(try await harness.store.tokenStorage.storedKeys().map(\.account) == ["c"])
        #expect(try await harness.state(of: Harness.other).count == 1)
    }

    @Test("email-disabled and email-enabled update the address and its forwarding in the user's credentials; the sessions stay")
    func updatesEmail() async throws {
        let harness = try Harness()
        try await harness.session("a", of: Harness.user)
        try await harness.session("b", of: Harness.user)
        let disabled = await harness.post(await harness.notification("email-disabled"))
        #expect(disabled.status == .ok)
        let email = try #require(Harness.user.claims["email"]?.stringValue)
        #expect(try await harness.state(of: Harness.user) == Array(repeating: ["email": email, "email_forwarding": "disabled"], count: 2))
        let enabled = await harness.post(await harness.notification("email-enabled"))
        #expect(try JSONValue.parseObject(enabled.body) == ["event": "email-enabled", "sessions": 2])
        #expect(try await harness.state(of: Harness.user) == Array(repeating: ["email": email, "email_forwarding": "enabled"], count: 2))
    }

    @Test(
        "A notification with a bad signature, another audience or issuer, an unknown event type or an events object is refused with its code; nothing changes",
        arguments: [
            (TestIdentityProvider.AppleNotificationFault.badSignature, "consent-revoked", "invalid_signature"),
            (.wrongAudience, "consent-revoked", "invalid_account_notification"),
            (.wrongIssuer, "account-delete", "invalid_account_notification"),
            (.eventsObject, "consent-revoked", "invalid_account_notification"),
            (nil, "account-suspended", "invalid_account_notification")
        ] as [(TestIdentityProvider.AppleNotificationFault?, String, String)]
    )
    func hostile(fault: TestIdentityProvider.AppleNotificationFault?, type: String, code: String) async throws {
        let harness = try Harness()
        try await harness.session("a", of: Harness.user)
        let before = try await harness.state(of: Harness.user)
        let answer = await harness.post(await harness.notification(type, fault: fault))
        #expect(answer.status == .badRequest)
        let description = try #require(try JSONValue.parseObject(answer.body)["error_description"]?.stringValue)
        #expect(description.hasSuffix("(\(code))"))
        #expect(try await harness.state(of: Harness.user) == before)
        #expect(before.count == 1)
    }

    @Test("A replayed notification is refused (its jti was used), on another instance sharing the store too; the first one acted once")
    func replay() async throws {
        let harness = try Harness()
        try await harness.session("a", of: Harness.user)
        let payload = await harness.notification("email-disabled")
        #expect(await harness.post(payload).status == .ok)
        try await harness.session("b", of: Harness.user)  // a later sign-in: the replay must not touch it
        let replayed = await harness.post(payload)
        #expect(replayed.status == .badRequest)
        #expect(try JSONValue.parseObject(replayed.body)["error_description"]?.stringValue?.hasSuffix("(invalid_account_notification)") == true)
        // Another instance on the same store has not seen the jti in memory: the store's mark refuses it.
        let sibling = try Harness.core(emulator: harness.emulator, store: harness.store, clock: harness.clock)
        let elsewhere = await sibling.appleNotification(
            provider: "apple",
            request: WebRequest(
                method: .post, path: "/auth/apple/notifications", headerFields: [.contentType: "application/json"],
                body: try JSONValue.object(["payload": .string(payload)]).jsonData()))
        #expect(elsewhere.status == .badRequest)
        #expect(try JSONValue.parseObject(elsewhere.body)["error_description"]?.stringValue?.hasSuffix("(invalid_account_notification)") == true)
        let profiles = try await harness.state(of: Harness.user)
        #expect(profiles.filter { $0["email_forwarding"] == "disabled" }.count == 1)
    }

    @Test("A body that is not {\"payload\": …}, or a route that is not Sign in with Apple, changes nothing")
    func notApple() async throws {
        let harness = try Harness()
        try await harness.session("a", of: Harness.user)
        let garbage = await harness.core.appleNotification(
            provider: "apple", request: WebRequest(method: .post, path: "/auth/apple/notifications", headerFields: [:], body: Data("payload=x".utf8)))
        #expect(garbage.status == .badRequest)
        #expect(await harness.post(await harness.notification("consent-revoked"), provider: "google").status == .notFound)
        #expect(try await harness.state(of: Harness.user).count == 1)
    }
}
