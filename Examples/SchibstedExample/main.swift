import AuthAppSupport
// Logs in with Schibsted account against its in-process `pre` emulator, the way account-sdk-ios-web apps do, and
// prints what each step really checked: a login the user dismisses (the pending login ends at once), BankID's
// redirect ignored, a login with MFA (the ID token's `amr` checked), the profile, a TCF external id, a web session
// URL, a logout seen by a UserDelegate, and simplified login from another app's session left by the vendor SDK.
// With --config FILE (environment, clientId, redirectURI) it runs the generic flow against real settings.
//
//     swift run schibsted-example
import AuthCore
import AuthEmulators
import AuthSchibsted
import AuthTesting
import ExampleSupport
import Foundation
import SchibstedCompat

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

if CommandLine.arguments.contains("--config") || CommandLine.arguments.contains("--help") {
    await ExampleRunner.main(providerID: SchibstedProvider.id)
}

func step(_ label: String, _ detail: String) {
    print(label.padding(toLength: 12, withPad: " ", startingAt: 0) + detail)
}

/// `url`'s query parameters by name (the first of a repeated name), percent-escapes decoded.
func queryParameters(_ url: URL?) -> [String: String] {
    let items = url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems } ?? []
    return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
}

/// Prints each logout it is told about.
final class LogoutPrinter: UserDelegate {
    func userDidLogout() async { step("delegate", "userDidLogout() called") }
}

do {
    let idp = TestIdentityProvider.schibsted()
    let recorder = RecordingTransport(idp.transport)
    let browser = HeadlessUserAgent(transport: recorder)
    let configuration = SchibstedConfiguration(
        environment: .pre, clientId: TestIdentityProvider.schibstedClientID,
        redirectURI: TestIdentityProvider.schibstedRedirectURI)
    // In memory here; the Keychain by default in an app (and files elsewhere).
    let storage = InMemoryTokenStorage()
    let client = SchibstedAccountClient(
        configuration: configuration, storage: storage, vendorStore: nil,
        transport: recorder, logger: RecordingLogger())
    step("provider", "schibsted, emulated \(configuration.issuer) (pre), client \(configuration.clientId)")

    // 1. The user opens the login sheet and closes it.
    let dismissed = try await client.getLoginSession()
    await client.cancelLoginSession()
    let staleCallback = try await browser.authorize(dismissed)
    do {
        _ = try await client.handleAuthenticationResponse(url: staleCallback)
        step("cancel", "UNEXPECTED: the dismissed login's callback was accepted")
    } catch let error as AuthError {
        step("cancel", "cancelLoginSession(): a new login may start; the old callback is refused (\(error.code))")
    }

    // 2. BankID sends the user back to the app mid-login; that URL is not a callback.
    let bankID = URL(string: "\(configuration.redirectURI.scheme ?? ""):/bankId")!
    step("bankId", "handles(\(bankID.absoluteString)) = \(client.handles(bankID)) — ignored, the login continues")

    // 3. A login with MFA (one-time code): the server's `amr` must contain it.
    let user = try await client.login(with: browser, withMFA: .otp, loginHint: "kari@example.no")
    let authorize = await recorder.exchanges(pathSuffix: "/oauth/authorize").last?.request.url
    let query = queryParameters(authorize)
    step("authorize", "acr_values=\(query["acr_values"] ?? "-"), prompt=\(query["prompt"] ?? "none"), code_challenge_method=\(query["code_challenge_method"] ?? "-")")
    let token = await recorder.exchanges(pathSuffix: "/oauth/token").last?.request
    step("token", "X-OIDC: \(token?.value(forHTTPHeaderField: "X-OIDC") ?? "missing")")
    if let claims = await user.session.idTokenClaims {
        let amr = claims.authenticationMethods
        step("id token", "iss \(claims.issuer) accepted for configured \(configuration.issuer); amr [\(amr.joined(separator: ","))] contains otp: \(amr.contains("otp"))")
    }
    step("user", "uuid \(await user.uuid ?? "-"), legacy id \(await user.userId ?? "-")")

    // 4. After login.
    let profile = try await user.fetchProfileData()
    step("profile", "\(profile.displayName ?? "-") <\(profile.email ?? "-")>, pair id \(profile.pairId ?? "-")")
    let externalID = client.getExternalId(pairId: profile.pairId ?? "", externalParty: "consent-partner")
    step("external", "\(externalID ?? "-") (SHA-256 of pairId:externalParty)")
    let webSession = try await user.webSessionURL(clientId: configuration.clientId, redirectURI: configuration.redirectURI)
    step("web", "\(webSession.deletingLastPathComponent().absoluteString)<one-time code>")

    // 5. Logout, seen by a delegate.
    let printer = LogoutPrinter()
    await user.delegates.addDelegate(printer)
    try await user.logout()
    for _ in 0..<100 { await Task.yield() }
    step("logout", "resumeLastLoggedInUser() = \(try await client.resumeLastLoggedInUser() == nil ? "nil" : "a user")")

    // 6. Simplified login: the vendor's news app, still on account-sdk-ios-web, left its session in the shared
    //    keychain group; this app continues as that account with a one-time assertion.
    let newsStorage = InMemoryTokenStorage()
    let news = SchibstedAccountClient(
        configuration: SchibstedConfiguration(
            environment: .pre, clientId: TestIdentityProvider.schibstedSecondClientID,
            redirectURI: URL(string: "com.example.news:/login")!),
        storage: newsStorage, vendorStore: nil, transport: idp.transport, logger: RecordingLogger())
    _ = try await news.login(with: HeadlessUserAgent(transport: idp.transport))
    guard let newsKey = await newsStorage.storedKeys().first, let newsCredential = await newsStorage.credential(for: newsKey) else {
        throw AuthError(.notSignedIn, "the news app did not log in")
    }
    let vendorStore = InMemoryVendorStore()
    let vendorJSON: JSONValue = [
        "userTokens": [
            "accessToken": .string(newsCredential.accessToken.reveal()),
            "refreshToken": .string(newsCredential.refreshToken?.reveal() ?? ""),
            "idTokenClaims": [
                "iss": "https://identity-pre.schibsted.com/", "sub": .string(newsCredential.subject ?? ""),
                "legacy_user_id": "12345678", "aud": [.string(TestIdentityProvider.schibstedSecondClientID)], "exp": 0
            ]
        ],
        "updatedAt": .number(Date().timeIntervalSinceReferenceDate)
    ]
    await vendorStore.setGenericPassword(try JSONEncoder().encode(vendorJSON), service: "com.schibsted.account", account: TestIdentityProvider.schibstedSecondClientID)
    let shared = SchibstedAccountClient(
        configuration: configuration, appIdentifierPrefix: "ABCDE12345", storage: InMemoryTokenStorage(),
        vendorStore: vendorStore, transport: recorder, logger: RecordingLogger())
    let manager = SimplifiedLoginManager(client: shared, env: configuration.env, sharedStorage: InMemoryTokenStorage())
    if let account = try await manager.latestSharedAccount() {
        step("shared", "newest account: \(account.uuid) from \(account.clientId) (\(account.writtenByVendorSDK ? "vendor SDK" : "this package"))")
        let continued = try await manager.continueAs(account, with: browser)
        let assertionCall = await recorder.exchanges(pathSuffix: "/api/2/user/auth/token").last
        let assertionLogin = await recorder.exchanges(pathSuffix: "/oauth/authorize").last?.request.url
        let assertionQuery = queryParameters(assertionLogin)
        step(
            "assertion",
            "POST /api/2/user/auth/token → HTTP \(assertionCall?.status ?? 0); authorize with assertion=\(assertionQuery["assertion"] != nil), prompt=\(assertionQuery["prompt"] ?? "-")"
        )
        step("simplified", "logged in to \(configuration.clientId) as \(await continued.uuid ?? "-")")
    }
} catch {
    print("error: \(error)")
    exit(1)
}
