import AuthCore
import AuthEmulators
import AuthTesting
import AuthUber
import Foundation
import Testing
import UberCompat

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// UberAuth README code as written (seed `002_322b808eb1fee9eb.txt`, lines 140-159 and 224-230), with the vendor's
/// `AuthProviding`, `Prompt` option set and error payloads (uber/rides-ios-sdk `Sources/UberAuth/AuthProviding.swift`,
/// `Authorize/Prompt.swift`, `Errors/UberAuthError.swift`). Compiling this file is half the test.
@Suite("Uber: the vendor's API shapes (rows 17, U56, U60, U61)")
struct UberMigrationRowsTests {
    /// App code written against the vendor's error: its payload-carrying cases bind as they do there.
    static func describe(_ error: UberAuthError) -> String {
        switch error {
        case .other(let underlying): "other: \(underlying)"
        case .invalidRequest(let details): "invalidRequest: \(details)"
        case .oAuth(let oauth): "oAuth: \(oauth.rawValue)"
        case .couldNotOpenApp(let app): "couldNotOpenApp: \(app)"
        case .cancelled, .existingAuthSession, .invalidAuthCode, .invalidResponse, .serviceError: "\(error)"
        }
    }

    @Test("Row 17 and U60: `let authProvider: any AuthProviding = .authorizationCode(…)` compiles, Prompt is an option set (`prompt: .login`), and the settings reach AuthContext")
    func authProvidingAndPrompt() {
        // The README's "Forcing Login or Consent", with the option set the vendor's Prompt is.
        let prompt: Prompt = [.login, .consent]
        let authProvider: any AuthProviding = .authorizationCode(prompt: prompt)
        #expect(AuthContext(authProvider: authProvider).prompt == [.login, .consent])
        // The README's "Exchanging Authorization Code".
        let exchanging: any AuthProviding = .authorizationCode(shouldExchangeAuthCode: true)
        #expect(AuthContext(authProvider: exchanging).shouldExchangeAuthCode)
        // A single option, as the vendor's OptionSet allows; and the vendor's raw values.
        #expect(AuthContext(authDestination: .inApp, authProvider: .authorizationCode(prompt: .login)).prompt == [.login])
        #expect(Prompt.login.rawValue == 1 && Prompt.consent.rawValue == 2 && Prompt(rawValue: 3) == [.login, .consent])
        #expect(AuthorizationCodeAuthProvider.defaultScopes == ["profile"])
        #expect(AuthContext(authProvider: .authorizationCode(scopes: ["profile", "history"])).additionalScopes == ["profile", "history"])
    }

    @Test("The factory's scopes: are asked for: offline_access through `.authorizationCode(scopes:)` brings Uber's refresh token")
    func factoryScopesAreSent() async throws {
        let idp = TestIdentityProvider.uber(clock: ManualClock())
        let transport = RecordingTransport(idp.transport)
        let uber = makeUberAuth(idp, transport: transport)
        let client = try await uber.login(context: AuthContext(authDestination: .inApp, authProvider: .authorizationCode(scopes: ["profile", "offline_access"])))
        #expect(client.refreshToken != nil, "Uber issues a refresh token only for offline_access")
        let authorize = try #require(await transport.exchanges.first { $0.request.url?.path.hasSuffix("/authorize") == true })
        let scope = URLComponents(url: try #require(authorize.request.url), resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "scope" }?.value
        #expect(scope?.split(separator: " ").sorted() == ["offline_access", "profile"], "profile once: the configured scope is not repeated")
    }

    @Test("U56: invalidRequest carries its details and other its error, as the vendor's; equality compares descriptions, as the vendor's")
    func errorPayloads() {
        let configuration = AuthError(.invalidConfiguration, "The Uber 'RedirectURI' is missing.")
        #expect(configuration.uberAuthError == .invalidRequest("The Uber 'RedirectURI' is missing."))
        #expect(Self.describe(configuration.uberAuthError) == "invalidRequest: The Uber 'RedirectURI' is missing.")
        let storage = AuthError(.storageFailed, "the keychain is locked")
        guard case .other(let underlying) = storage.uberAuthError else {
            Issue.record("expected .other")
            return
        }
        #expect((underlying as? AuthError)?.code == .storageFailed)
        #expect(UberAuthError.invalidRequest("a") != .invalidRequest("b"))
        #expect(UberAuthError.cancelled.errorDescription == "The user cancelled the auth flow")
    }

    @Test(
        "U61: HTTP answers map as the vendor's NetworkProvider: a token endpoint 400 invalid_grant or 503 is oAuth(invalidRequest), an unreadable 200 serviceError; nothing stored")
    func httpErrorsAsTheVendorMapsThem() async throws {
        let cases: [(Int, String, UberAuthError)] = [
            (400, #"{"error":"invalid_grant"}"#, .oAuth(.invalidRequest)),
            (503, "unavailable", .oAuth(.invalidRequest)),
            (200, "not json", .serviceError)
        ]
        for (status, body, expected) in cases {
            let idp = TestIdentityProvider.uber(clock: ManualClock())
            let hostile = InProcessTransport().adding(host: try #require(idp.configuration.issuer.host)) { request in
                guard request.url?.path.hasSuffix("/token") == true else { return try await idp.transport.send(request) }
                return (Data(body.utf8), .make(status: status, headers: ["Content-Type": "application/json"]))
            }
            let storage = InMemoryTokenStorage()
            let uber = makeUberAuth(idp, transport: hostile, agent: HeadlessUserAgent(transport: idp.transport), storage: storage)
            let error = await #expect(throws: AuthError.self) { _ = try await uber.login(context: AuthContext(authDestination: .inApp)) }
            #expect(error?.uberAuthError == expected, "HTTP \(status): \(String(describing: error))")
            #expect(await storage.isEmpty)
        }
    }
}
