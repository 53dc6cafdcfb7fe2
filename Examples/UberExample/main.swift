// Logs in with Uber against its in-process emulator: first the default flow of Uber's iOS SDK README, its LoginButton with its
// LoginButtonDataSource (in app, `.authorizationCode()`, a prefill), whose code is exchanged as the vendor's factory
// does, so the button then says "Sign out"; then in app with a prefill (pushed authorization request), through an
// emulated native Uber Eats app that calls back with the code and the state through handle(url), as Uber documents the
// SSO hand-off, through apps that do not open (the vendor's ordered fallback, ending in app), and for a backend
// exchange — with PKCE, and without it, through the app, for a backend written for the vendor SDK.
// With --config FILE (an Info.plist with the Uber dictionary) it runs the generic flow against real settings.
//
//     swift run uber-example
import AuthCore
import AuthEmulators
import AuthTesting
import AuthUber
import ExampleSupport
import Foundation
import UberCompat

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

if CommandLine.arguments.contains("--config") || CommandLine.arguments.contains("--help") {
    await ExampleRunner.main(providerID: UberProvider.id)
}

func step(_ label: String, _ detail: String) {
    print(label.padding(toLength: 12, withPad: " ", startingAt: 0) + detail)
}

/// `pairs` as an `application/x-www-form-urlencoded` body. Everything but RFC 3986's unreserved characters is
/// percent-encoded: `URLComponents` would leave `+` as it is, which the server reads as a space.
func formBody(_ pairs: [(String, String)]) -> Data {
    let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    func encode(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text }
    return Data(pairs.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&").utf8)
}

/// The `MyLoginButtonDataSource` of Uber's iOS SDK README, as written there.
final class MyLoginButtonDataSource: LoginButtonDataSource {
    func authContext(_ button: LoginButton) -> AuthContext {
        let prefill = Prefill(email: "jane@email.com", phoneNumber: "5555555555", firstName: "Jane", lastName: "Doe")
        return AuthContext(authDestination: .inApp, authProvider: .authorizationCode(), prefill: prefill)
    }
}

/// The `MyLoginButtonDelegate` of Uber's iOS SDK README: prints what the button reports.
final class MyLoginButtonDelegate: LoginButtonDelegate {
    func loginButton(_ button: LoginButton, didLogoutWithSuccess success: Bool) {
        step("delegate", "didLogoutWithSuccess: \(success)")
    }

    func loginButton(_ button: LoginButton, didCompleteLoginWithResult result: Result<UberClient, UberAuthError>) {
        switch result {
        case .success(let client):
            step(
                "delegate",
                "didCompleteLoginWithResult: access token \(client.accessToken == nil ? "missing" : "received"), authorization code \(client.authorizationCode == nil ? "spent in the exchange" : "returned")"
            )
        case .failure(let error):
            step("delegate", "didCompleteLoginWithResult: UberAuthError.\(error)")
        }
    }
}

do {
    let idp = TestIdentityProvider.uber()
    let apps = TestIdentityProvider.uberApps(installedSchemes: ["ubereats"], idp: idp)
    let refusingApps = TestIdentityProvider.uberApps(installedSchemes: ["uber", "ubereats"], idp: idp)
    await refusingApps.setRefusesToOpen(true)
    let recorder = RecordingTransport(idp.transport)
    let configuration = UberConfiguration(clientID: TestIdentityProvider.uberClientID, redirectURI: TestIdentityProvider.uberRedirectURI)
    // In-memory storage for the demo; an app leaves `storage` out to keep the session in the Keychain.
    let uber = UberAuth(
        configuration: configuration, webAgent: HeadlessUserAgent(transport: recorder), appHandoff: apps,
        storage: InMemoryTokenStorage(), transport: recorder, logger: RecordingLogger())
    await apps.onCallback { url in
        let names = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.map(\.name).joined(separator: ", ") ?? ""
        step(
            "callback",
            "the Eats app returned to \(url.scheme ?? "")://\(url.host ?? "")\(url.path) with \(names) (state echoed, as Uber documents the SSO hand-off); handle(url) = \(uber.handle(url))"
        )
    }
    step("provider", "uber (Uber), emulated auth.uber.com; installed apps: Uber Eats")

    // The README's LoginButton with its data source and delegate (strong references here: the button holds them weakly).
    let dataSource = MyLoginButtonDataSource()
    let delegate = MyLoginButtonDelegate()
    let loginButton = LoginButton()
    loginButton.uberAuth = uber
    loginButton.dataSource = dataSource
    loginButton.delegate = delegate
    await loginButton.refresh()
    step("button", "LoginButton() titled \"\(loginButton.title)\"; data source: .inApp, .authorizationCode(), prefill Jane Doe")
    await loginButton.tap()
    let stored = try await uber.session()
    step("button", "after sign-in: \"\(loginButton.title)\" (isLoggedIn \(loginButton.isLoggedIn), session \(stored == nil ? "not stored" : "stored"))")
    // The README's button flow stores tokens (.authorizationCode() exchanges the code) and then offers "Sign out":
    // anything else is the bug a migrating app would meet first, so the example fails loudly.
    guard loginButton.title == "Sign out", loginButton.isLoggedIn, stored != nil else {
        print("error: the README's LoginButton flow did not sign in (title \"\(loginButton.title)\", session \(stored == nil ? "not stored" : "stored"))")
        exit(1)
    }
    await loginButton.tap()
    step("button", "after the next tap: \"\(loginButton.title)\" (logged out)")
    let pagesAfterButton = await recorder.exchanges(pathSuffix: "/authorize").count
    withExtendedLifetime((dataSource, delegate)) {}  // the button's references are weak

    let prefill = Prefill(email: "rider@example.com", firstName: "Ada")
    step("login 1", "destination .inApp, prompt [login, consent], prefill email + first name")
    let inApp = try await uber.login(context: AuthContext(authDestination: .inApp, prompt: [.login, .consent], prefill: prefill))
    if let par = await recorder.exchanges(pathSuffix: "/oauth/v2/par").last {
        step("PAR", "POST /oauth/v2/par login_hint = \(par.formParameters["login_hint"] ?? "-") → request_uri")
    }
    if let authorize = await recorder.exchanges(pathSuffix: "/authorize").dropFirst(pagesAfterButton).first?.request.url {
        step("route", "in app: \(authorize.path)")
        let names = URLComponents(url: authorize, resolvingAgainstBaseURL: false)?.queryItems?.map(\.name) ?? []
        step("parameters", names.joined(separator: ", "))
    }
    step("result", "access token \(inApp.accessToken == nil ? "missing" : "received"), type \(inApp.tokenType ?? "-"), expires in \(inApp.expiresIn ?? 0) s")

    step("login 2", "destination .native (rides, eats, driver), prompt [login, consent]")
    let native = try await uber.login(context: AuthContext(authDestination: .native, prompt: [.login, .consent]))
    if let opened = await apps.opened.last {
        step(
            "route",
            "hand-off to \(opened.host ?? "")\(opened.path) (first installed app; 'login' dropped: prompt=\(URLComponents(url: opened, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "prompt" }?.value ?? "-"))"
        )
    }
    step("result", "access token \(native.accessToken == nil ? "missing" : "received")")

    step("login 3", "destination .native (rides, eats) on a phone where both apps are installed but do not open")
    let fallback = UberAuth(
        configuration: configuration, webAgent: HeadlessUserAgent(transport: recorder), appHandoff: refusingApps,
        storage: InMemoryTokenStorage(), transport: recorder, logger: RecordingLogger())
    let pagesBefore = await recorder.exchanges(pathSuffix: "/authorize").count
    let viaFallback = try await fallback.login(context: AuthContext(authDestination: .native([.rides, .eats])))
    let tried = await refusingApps.opened.map { $0.path.split(separator: "/").dropLast().last.map(String.init) ?? "" }
    let pages = await recorder.exchanges(pathSuffix: "/authorize").dropFirst(pagesBefore).compactMap(\.request.url?.path)
    step("route", "tried \(tried.joined(separator: " → ")) → in app \(pages.last ?? "-")")
    step("result", "access token \(viaFallback.accessToken == nil ? "missing" : "received")")

    step("login 4", "shouldExchangeAuthCode: false (a backend redeems the code)")
    let codeOnly = try await uber.login(context: AuthContext(authDestination: .inApp, shouldExchangeAuthCode: false))
    step(
        "result",
        "authorization code \(codeOnly.authorizationCode == nil ? "missing" : "received"), PKCE verifier \(codeOnly.codeVerifier == nil ? "missing" : "for the backend's code_verifier"); no tokens"
    )

    step("login 5", "the same for a backend written for the vendor SDK (backendExchangeUsesPKCE = false), destination .native")
    var legacy = AuthContext(shouldExchangeAuthCode: false)
    legacy.backendExchangeUsesPKCE = false
    let legacyCode = try await uber.login(context: legacy)
    if let opened = await apps.opened.last {
        let names = URLComponents(url: opened, resolvingAgainstBaseURL: false)?.queryItems?.map(\.name) ?? []
        step("route", "hand-off to \(opened.path) without code_challenge: \(!names.contains("code_challenge"))")
    }
    var redeem = HTTPRequest(method: .post, url: configuration.authServer.appendingPathComponent("oauth/v2/token"))
    redeem.headerFields[.contentType] = "application/x-www-form-urlencoded"
    let form = formBody([
        ("code", legacyCode.authorizationCode?.reveal() ?? ""), ("client_id", configuration.clientID),
        ("redirect_uri", configuration.redirectURI.absoluteString), ("grant_type", "authorization_code")
    ])
    let (_, redeemed) = try await recorder.send(redeem, body: form, limits: HTTPRequestLimits())
    step("backend", "redeemed the code without code_verifier: HTTP \(redeemed.status.code)")
    try await uber.logout()
    step("logged out", "stored token deleted")
} catch let error as AuthError {
    print("error: \(error.message) [\(error.code)] → UberAuthError.\(error.uberAuthError)")
    exit(1)
}
