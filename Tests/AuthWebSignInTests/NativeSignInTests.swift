import AuthCore
import AuthEmulators
import AuthSignInWithApple
import AuthTesting
import AuthWebSignIn
import Foundation
import HTTPTypes
import Testing

/// A native app signs in with Sign in with Apple itself, then hands what the platform returned to the server's
/// native routes for a web session (the Sign in with Apple emulator mints the app's credential).
@Suite("web sign-in core: native-app sign-in to the server")
struct NativeSignInTests {
    struct Harness {
        let emulator: ProviderEmulator
        let store: MarkCountingStore
        let core: WebSignInCore
        let clock: ManualClock
        let key: Data?

        init() throws {
            let clock = ManualClock()
            try self.init(emulator: ProviderEmulator.apple(clock: clock), store: MarkCountingStore(), clock: clock, key: nil)
        }

        /// An instance with `key` as the app's shared sign-in cookie key.
        init(key: Data) throws {
            let clock = ManualClock()
            try self.init(emulator: ProviderEmulator.apple(clock: clock), store: MarkCountingStore(), clock: clock, key: key)
        }

        private init(emulator: ProviderEmulator, store: MarkCountingStore, clock: ManualClock, key: Data?) throws {
            self.emulator = emulator
            self.store = store
            self.clock = clock
            self.key = key
            var configuration = emulator.configuration
            // The app's own client: ID tokens it obtains natively are issued to its bundle id.
            configuration["client_id"] = .string(TestIdentityProvider.appleBundleID)
            let native = try SignInWithAppleProvider(configuration: configuration, clock: clock)
            core = try WebSignInCore(
                providers: [:], store: store, transport: emulator.transport,
                configuration: WebSignInConfiguration(publicURL: URL(string: "https://app.example.test")!, signInCookieKey: key),
                nativeProviders: ["apple": native], clock: clock
            )
        }

        /// Another instance of the app on the same store, emulator and clock, with `key` (this one's by default).
        func sibling(key: Data? = nil) throws -> Harness {
            try Harness(emulator: emulator, store: store, clock: clock, key: key ?? self.key)
        }

        /// `POST /auth/apple/native/nonce`'s nonce.
        func nonce() async throws -> String {
            let response = await core.nativeNonce(provider: "apple")
            #expect(response.status == .ok && response.headerFields[.cacheControl] == "no-store")
            return try #require(try JSONValue.parseObject(response.body)["nonce"]?.stringValue)
        }

        /// `POST /auth/apple/native/sign-in` with `fields` as its JSON object, as an app's HTTP client sends it.
        func signIn(_ fields: [(String, String)]) async throws -> WebResponse {
            let object = Dictionary(fields, uniquingKeysWith: { first, _ in first })
            return try await core.nativeSignIn(
                provider: "apple",
                request: WebRequest(
                    method: .post, path: "/auth/apple/native/sign-in", headerFields: [.contentType: "application/json"],
                    body: try JSONSerialization.data(withJSONObject: object)
                )
            )
        }

        /// `POST /auth/apple/native/sign-in` with `body` and `headerFields` as they are.
        func signIn(body: Data, headerFields: HTTPFields) async throws -> WebResponse {
            try await core.nativeSignIn(
                provider: "apple", request: WebRequest(method: .post, path: "/auth/apple/native/sign-in", headerFields: headerFields, body: body)
            )
        }

        static func fields(_ credential: AppleNativeCredential, nonce: String) -> [(String, String)] {
            [("id_token", credential.identityToken.reveal()), ("code", credential.authorizationCode.reveal()), ("nonce", nonce)]
                + (credential.user.map { [("user", $0)] } ?? [])
        }

        func error(_ response: WebResponse) throws -> String? {
            try JSONValue.parseObject(response.body)["error"]?.stringValue
        }

        func storedNothing() async throws -> Bool {
            let keys = try await store.tokenStorage.storedKeys()
            let sessions = await store.sessionCount
            let marks = await store.markCount
            return keys.isEmpty && sessions == 0 && marks == 0
        }
    }

    @Test("A natively obtained ID token and code with the server's nonce sign in: the same session cookie, the user named from Apple's user JSON")
    func signsIn() async throws {
        let harness = try Harness()
        let nonce = try await harness.nonce()
        let credential = try await harness.emulator.appleNativeSignIn(nonce: nonce)
        let response = try await harness.signIn(Harness.fields(credential, nonce: nonce))
        #expect(response.status == .ok)
        let json = try JSONValue.parseObject(response.body)
        #expect(json["signed_in"] == true && json["subject"]?.stringValue == TestIdentityProvider.appleUser.subject)
        let cookie = try #require(response.headerFields[values: .setCookie].first { $0.hasPrefix(WebSignInConfiguration.sessionCookieName + "=") })
        for flag in ["Secure", "HttpOnly", "Path=/", "SameSite=Lax"] { #expect(cookie.contains(flag), "\(flag)") }
        let id = String(cookie.split(separator: ";")[0].split(separator: "=", maxSplits: 1)[1])
        let user = try await harness.core.signedInUser(
            for: WebRequest(method: .get, path: "/", headerFields: [.cookie: "\(WebSignInConfiguration.sessionCookieName)=\(id)"])
        )
        #expect(user?.providerName == "apple" && user?.displayName == "Alex Appleseed")
        #expect(try await user?.accessToken().isEmpty == false)
        #expect(try await harness.store.tokenStorage.storedKeys().count == 1)
    }

    @Test("Hostile: a replayed nonce (a second sign-in with the same one) is 400 nonce_replayed; nothing more stored")
    func replayedNonce() async throws {
        let harness = try Harness()
        let nonce = try await harness.nonce()
        let first = try await harness.emulator.appleNativeSignIn(nonce: nonce)
        #expect(try await harness.signIn(Harness.fields(first, nonce: nonce)).status == .ok)
        let keys = try await harness.store.tokenStorage.storedKeys()
        let replay = try await harness.emulator.appleNativeSignIn(nonce: nonce)
        let refused = try await harness.signIn(Harness.fields(replay, nonce: nonce))
        #expect(refused.status == .badRequest)
        #expect(try harness.error(refused) == "nonce_replayed")
        #expect(!refused.headerFields[values: .setCookie].contains { $0.hasPrefix(WebSignInConfiguration.sessionCookieName) })
        #expect(try await harness.store.tokenStorage.storedKeys() == keys)
        #expect(await harness.store.sessionCount == 1)
    }

    @Test("A nonce one instance issued signs in on another that shares the app's key, once across both; another app's, a tampered or an expired nonce is 400 nonce_replayed")
    func nonceAcrossInstances() async throws {
        let key = Data(repeating: 7, count: 32)
        let a = try Harness(key: key)
        let b = try a.sibling()
        let nonce = try await a.nonce()
        let credential = try await a.emulator.appleNativeSignIn(nonce: nonce)
        #expect(try await b.signIn(Harness.fields(credential, nonce: nonce)).status == .ok, "issued by A, used on B")
        let replay = try await a.emulator.appleNativeSignIn(nonce: nonce)
        #expect(try a.error(try await a.signIn(Harness.fields(replay, nonce: nonce))) == "nonce_replayed", "used on B, refused on A")
        #expect(await a.store.sessionCount == 1)

        let other = try a.sibling(key: Data(repeating: 8, count: 32))  // another app's key
        let foreignNonce = try await other.nonce()
        let foreign = try await a.emulator.appleNativeSignIn(nonce: foreignNonce)
        #expect(try a.error(try await a.signIn(Harness.fields(foreign, nonce: foreignNonce))) == "nonce_replayed")

        let issued = try await a.nonce()
        var tampered = Array(issued)
        let expiry = issued.split(separator: ".")[1]
        tampered.replaceSubrange(
            tampered.index(tampered.startIndex, offsetBy: 44)..<tampered.index(tampered.startIndex, offsetBy: 44 + expiry.count),
            with: String(Int64(expiry)! + 86_400)
        )  // a day longer, same MAC
        let stretched = String(tampered)
        let stretchedCredential = try await a.emulator.appleNativeSignIn(nonce: stretched)
        #expect(try a.error(try await b.signIn(Harness.fields(stretchedCredential, nonce: stretched))) == "nonce_replayed")

        a.clock.advance(by: 601)  // past the ten minutes a nonce is accepted
        let late = try await a.emulator.appleNativeSignIn(nonce: issued)
        #expect(try a.error(try await b.signIn(Harness.fields(late, nonce: issued))) == "nonce_replayed")
        #expect(try await a.store.tokenStorage.storedKeys().count == 1, "only the first sign-in stored a credential")
    }

    @Test("Hostile: an ID token issued to another app (foreign audience) is 400 invalid_audience; nothing stored")
    func foreignAudience() async throws {
        let harness = try Harness()
        let nonce = try await harness.nonce()
        let foreign = try await harness.emulator.appleNativeSignIn(nonce: nonce, clientID: TestIdentityProvider.appleOtherBundleID)
        let refused = try await harness.signIn(Harness.fields(foreign, nonce: nonce))
        #expect(refused.status == .badRequest)
        #expect(try harness.error(refused) == "invalid_audience")
        #expect(try await harness.storedNothing())
    }

    @Test("Hostile: an ID token without a nonce, or a request without one, is 400 missing_nonce; nothing stored")
    func nonceless() async throws {
        let harness = try Harness()
        let nonce = try await harness.nonce()
        let nonceless = try await harness.emulator.appleNativeSignIn(nonce: nil)
        let refused = try await harness.signIn(Harness.fields(nonceless, nonce: nonce))
        #expect(try harness.error(refused) == "missing_nonce")
        let credential = try await harness.emulator.appleNativeSignIn(nonce: try await harness.nonce())
        let withoutNonce = try await harness.signIn(Harness.fields(credential, nonce: "").filter { $0.0 != "nonce" })
        #expect(withoutNonce.status == .badRequest)
        #expect(try harness.error(withoutNonce) == "missing_nonce")
        #expect(try await harness.storedNothing())
    }

    @Test("Hostile: a forged ID token (its signature altered) is 400 invalid_signature, and a nonce this server never issued 400 nonce_replayed; nothing stored")
    func forged() async throws {
        let harness = try Harness()
        let nonce = try await harness.nonce()
        let credential = try await harness.emulator.appleNativeSignIn(nonce: nonce)
        var parts = credential.identityToken.reveal().split(separator: ".").map(String.init)
        var signature = Array(parts[2])
        signature[10] = signature[10] == "A" ? "B" : "A"
        parts[2] = String(signature)
        var fields = Harness.fields(credential, nonce: nonce)
        fields[0] = ("id_token", parts.joined(separator: "."))
        let forged = try await harness.signIn(fields)
        #expect(forged.status == .badRequest)
        #expect(try harness.error(forged) == "invalid_signature")
        let invented = "n-" + String(repeating: "a", count: 40)
        let unknown = try await harness.emulator.appleNativeSignIn(nonce: invented)
        #expect(try harness.error(try await harness.signIn(Harness.fields(unknown, nonce: invented))) == "nonce_replayed")
        #expect(try await harness.storedNothing())
    }

    @Test("A provider without a native client has no native routes (404), and a request without an ID token is invalid_native_sign_in")
    func unknownAndIncomplete() async throws {
        let harness = try Harness()
        #expect(await harness.core.nativeNonce(provider: "oidc").status == .notFound)
        let incomplete = try await harness.signIn([("nonce", try await harness.nonce())])
        #expect(try harness.error(incomplete) == "invalid_native_sign_in")
        #expect(try await harness.storedNothing())
    }
}
