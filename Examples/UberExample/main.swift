// Logs in with Uber against its in-process emulator: first in app with a prefill (pushed authorization
// request), then through an emulated native Uber Eats app that calls back through handle(url).
// With --config FILE (an Info.plist with the Uber dictionary) it runs the generic flow against real settings.
//
//     swift run uber-example
import AuthCore
import AuthTesting
import AuthUber
import ExampleSupport
import Foundation

if CommandLine.arguments.contains("--config") || CommandLine.arguments.contains("--help") {
    await ExampleRunner.main(providerID: UberProvider.id)
}

func step(_ label: String, _ detail: String) {
    print(label.padding(toLength: 12, withPad: " ", startingAt: 0) + detail)
}

do {
    let idp = TestIdentityProvider.uber()
    let apps = TestIdentityProvider.uberApps(installedSchemes: ["ubereats"], idp: idp)
    let recorder = RecordingTransport(idp.transport)
    let configuration = UberConfiguration(clientID: TestIdentityProvider.uberClientID, redirectURI: TestIdentityProvider.uberRedirectURI)
    // In-memory storage for the demo; an app leaves `storage` out to keep the session in the Keychain.
    let uber = UberAuth(configuration: configuration, webAgent: HeadlessUserAgent(transport: recorder), appHandoff: apps,
                        storage: InMemoryTokenStorage(), transport: recorder, logger: RecordingLogger())
    await apps.onCallback { url in
        step("callback", "the Eats app returned to \(url.scheme ?? "")://\(url.host ?? "")\(url.path); handle(url) = \(uber.handle(url))")
    }
    step("provider", "uber (Uber), emulated auth.uber.com; installed apps: Uber Eats")

    let prefill = Prefill(email: "rider@example.com", firstName: "Ada")
    step("login 1", "destination .inApp, prompt [login, consent], prefill email + first name")
    let inApp = try await uber.login(context: AuthContext(prompt: [.login, .consent], prefill: prefill))
    if let par = await recorder.exchanges(pathSuffix: "/oauth/v2/par").first {
        step("PAR", "POST /oauth/v2/par login_hint = \(par.formParameters["login_hint"] ?? "-") → request_uri")
    }
    if let authorize = await recorder.exchanges.first(where: { $0.request.url?.path.hasSuffix("/authorize") == true })?.request.url {
        step("route", "in app: \(authorize.path)")
        let names = URLComponents(url: authorize, resolvingAgainstBaseURL: false)?.queryItems?.map(\.name) ?? []
        step("parameters", names.joined(separator: ", "))
    }
    step("result", "access token \(inApp.accessToken == nil ? "missing" : "received"), type \(inApp.tokenType ?? "-"), expires in \(inApp.expiresIn ?? 0) s")

    step("login 2", "destination .native (rides, eats, driver), prompt [login, consent]")
    let native = try await uber.login(context: AuthContext(authDestination: .native, prompt: [.login, .consent]))
    if let opened = await apps.opened.last {
        step("route", "hand-off to \(opened.host ?? "")\(opened.path) (first installed app; 'login' dropped: prompt=\(URLComponents(url: opened, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "prompt" }?.value ?? "-"))")
    }
    step("result", "access token \(native.accessToken == nil ? "missing" : "received")")

    step("login 3", "shouldExchangeAuthCode: false (a backend redeems the code)")
    let codeOnly = try await uber.login(context: AuthContext(shouldExchangeAuthCode: false))
    step("result", "authorization code \(codeOnly.authorizationCode == nil ? "missing" : "received") with its PKCE verifier; no tokens")
    try await uber.logout()
    step("logged out", "stored token deleted")
} catch let error as AuthError {
    print("error: \(error.message) [\(error.code)] → UberAuthError.\(error.uberAuthError)")
    exit(1)
}
