// Logs in with Grab against its in-process emulator: first through the emulated Grab app (SSO hand-off), then on
// the web because a login hint is given; then reads the id token info. With --config FILE (an Info.plist with the
// GrabIdPartnerSDK dictionary) it runs the generic flow against real settings.
//
//     swift run grab-example
import AuthCore
import AuthGrab
import AuthTesting
import ExampleSupport
import Foundation

if CommandLine.arguments.contains("--config") || CommandLine.arguments.contains("--help") {
    await ExampleRunner.main(providerID: GrabProvider.id)
}

func step(_ label: String, _ detail: String) {
    print(label.padding(toLength: 12, withPad: " ", startingAt: 0) + detail)
}

do {
    let idp = TestIdentityProvider.grab()
    let app = TestIdentityProvider.grabApp(installed: true, idp: idp)
    let configuration = try GrabConfiguration(ProviderConfiguration(["GrabIdPartnerSDK": .object(TestIdentityProvider.grabPlist)]))
    let grab = GrabIdPartner(configuration: configuration, webAgent: HeadlessUserAgent(transport: idp.transport), appHandoff: app,
                             transport: idp.transport, logger: RecordingLogger())
    await app.onCallback { url in
        step("callback", "the Grab app returned to \(url.scheme ?? ""):\(url.host ?? ""); handleOpenUrl = \(await grab.handleOpenUrl(url))")
    }
    step("provider", "grab (Grab), emulated partner-api.grab.com; the Grab app is installed")
    let loginSession = try await grab.loadLoginSession()
    step("discovery", "Grab service discovery loaded (authorization, token, id-token verification, client public info)")
    step("acr_values", configuration.acrValuesParameter ?? "-")

    let viaApp = try await grab.login(loginSession: loginSession)
    if let link = await app.opened.last {
        let names = URLComponents(url: link, resolvingAgainstBaseURL: false)?.queryItems?.map(\.name) ?? []
        step("route", "app hand-off: \(link.scheme ?? "")://\(link.host ?? "")\(link.path) with \(names.joined(separator: ", "))")
    }
    step("validated", "ID token signature, iss, aud, exp, iat, nonce, at_hash (the vendor SDK validated none)")
    let info = try await grab.getIdTokenInfo(loginSession: viaApp)
    step("token info", "service \(info.service ?? "-"), partner \(info.partnerId ?? "-"), user \(info.partnerUserId ?? "-"), valid \(await grab.isValidIdToken(idTokenInfo: info))")

    let opened = await app.opened.count
    _ = try await grab.login(loginSession: loginSession, options: SignInOptions(loginHint: "+6591234567"))
    step("route", "web (a login_hint never hands off; app opened again: \(await app.opened.count > opened))")
    try await grab.logout(loginSession: viaApp)
    step("logged out", "local tokens and cached id token info cleared")
} catch let error as AuthError {
    print("error: \(error.message) [\(error.code)] → Grab \(error.grabError.domain).\(error.grabError.code)")
    exit(1)
}
