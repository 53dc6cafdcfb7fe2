// Logs in with Grab against its in-process emulator, the way GrabIdPartnerSDK apps do: through the emulated Grab app
// (SSO hand-off), then a relaunch that signs in silently from storage, the web when a login hint is given, a partner
// whose discovery document has no jwks_uri (Grab's verification endpoint vouches for the ID token), the App Store when
// the Grab app is not installed, and errors with the vendor's domain and integer code. With --config FILE
// (an Info.plist with the GrabIdPartnerSDK dictionary) it runs the generic flow against real settings.
//
//     swift run grab-example
import AuthCore
import AuthEmulators
import AuthFileStorage
import AuthGrab
import AuthTesting
import ExampleSupport
import Foundation
import GrabCompat

if CommandLine.arguments.contains("--config") || CommandLine.arguments.contains("--help") {
    await ExampleRunner.main(providerID: GrabProvider.id)
}

func step(_ label: String, _ detail: String) {
    print(label.padding(toLength: 12, withPad: " ", startingAt: 0) + detail)
}

func vendorName(_ grab: GrabError) -> String {
    "\(grab.domain.name)(\(grab.domain.rawValue)).\(grab.code)(\(grab.code.rawValue))"
}

/// The names of `url`'s query parameters, in order ("-" when it has none).
func queryNames(_ url: URL?) -> String {
    let names = url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems }?.map(\.name) ?? []
    return names.isEmpty ? "-" : names.joined(separator: ", ")
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("grab-example-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: directory) }

do {
    let idp = TestIdentityProvider.grab()
    let recorder = RecordingTransport(idp.transport)
    let app = TestIdentityProvider.grabApp(installed: true, idp: idp)
    let configuration = try GrabConfiguration(ProviderConfiguration(["GrabIdPartnerSDK": .object(TestIdentityProvider.grabPlist)]))
    // The app's storage: files here so the "relaunch" below reads what this run wrote (the Keychain by default on iOS).
    let storage = FileTokenStorage(directory: directory)
    func launch(appInstalled: Bool = true) async -> GrabIdPartner {
        let grab = GrabIdPartner(
            configuration: configuration, webAgent: HeadlessUserAgent(transport: recorder),
            appHandoff: appInstalled ? app : TestIdentityProvider.grabApp(installed: false, idp: idp),
            storage: storage, transport: recorder, logger: RecordingLogger())
        if appInstalled { await app.onCallback { url in _ = grab.handleOpenUrl(url) } }
        return grab
    }
    func authorizePages() async -> Int {
        let pages = await recorder.exchanges(pathSuffix: "/authorize")
        return pages.count
    }

    step("provider", "grab (Grab), emulated partner-api.grab.com; the Grab app is installed")
    let grab = await launch()
    let loginSession = try await grab.loadLoginSession()
    step("launch", "loadLoginSession: \(loginSession.accessToken == nil ? "no stored session" : "stored session found")")
    step("acr_values", configuration.acrValuesParameter ?? "-")

    try await grab.login(loginSession: loginSession)
    if let link = await app.opened.last {
        let names = URLComponents(url: link, resolvingAgainstBaseURL: false)?.queryItems?.map(\.name) ?? []
        step("route", "app hand-off: \(link.scheme ?? "")://\(link.host ?? "")\(link.path) with \(names.joined(separator: ", "))")
    }
    if let claims = await loginSession.session?.idTokenClaims {
        let expiresIn = Int(claims.expiration.timeIntervalSinceNow.rounded())
        step(
            "id token",
            "signature checked against \(claims.issuer)'s keys; aud \(claims.audience.joined(separator: ",")); nonce \(claims.nonce == loginSession.nonce ? "is this login's" : "MISMATCH"); expires in \(expiresIn) s"
        )
    }
    let info = try await grab.getIdTokenInfo(loginSession: loginSession)
    step("token info", "service \(info.service ?? "-"), partner \(info.partnerId ?? "-"), user \(info.partnerUserId ?? "-"), valid \(grab.isValidIdToken(idTokenInfo: info))")

    // A relaunch: a new SDK object over the same storage signs in with no browser and no app.
    let (opened, pages, infoCalls) = (await app.opened.count, await authorizePages(), await recorder.exchanges(pathSuffix: "/token_info").count)
    let relaunched = await launch()
    let restored = try await relaunched.loadLoginSession()
    try await relaunched.login(loginSession: restored)
    let (openedNow, pagesNow) = (await app.opened.count, await authorizePages())
    let shownUI = openedNow > opened || pagesNow > pages
    step("relaunch", "signed in from storage: access token valid \(relaunched.isValidAccessToken(loginSession: restored)), UI shown: \(shownUI)")
    let cachedInfo = try await relaunched.getIdTokenInfo(loginSession: restored)
    let fetched = await recorder.exchanges(pathSuffix: "/token_info").count > infoCalls
    step("token info", "service \(cachedInfo.service ?? "-") from the stored cache (fetched again: \(fetched))")

    let hinted = try await relaunched.loadLoginSession()
    try await relaunched.logout(loginSession: hinted)
    try await relaunched.login(loginSession: hinted, options: SignInOptions(loginHint: "+6591234567"))
    step("route", "web: a login_hint never hands off (app opened again: \(await app.opened.count > opened))")
    try await relaunched.logout(loginSession: hinted)
    step("logged out", "stored session and cached id token info removed")

    // A partner whose discovery document has no jwks_uri (the vendor SDK never read one): the ID token cannot be
    // checked on the device, so Grab's own id_token_verification_endpoint vouches for it, and the login succeeds.
    let keyless = TestIdentityProvider.grab(discovery: .withoutJWKSURI)
    let keylessRecorder = RecordingTransport(keyless.transport)
    let keylessGrab = GrabIdPartner(
        configuration: configuration, webAgent: HeadlessUserAgent(transport: keylessRecorder),
        storage: InMemoryTokenStorage(), transport: keylessRecorder, logger: RecordingLogger())
    let keylessSession = try await keylessGrab.loadLoginSession()
    try await keylessGrab.login(loginSession: keylessSession)
    let verified = await keylessRecorder.exchanges(pathSuffix: "/token_info").count
    let token = await keylessRecorder.exchanges(pathSuffix: "/token").first?.request
    step("no jwks_uri", "signed in: access token valid \(keylessGrab.isValidAccessToken(loginSession: keylessSession)); ID token verified by Grab's endpoint (\(verified) request)")
    step(
        "token call",
        "POST /token with \(queryNames(token?.url)) in the URL query, body: \(token?.body == nil ? "none" : "present")"
    )

    let withoutApp = await launch(appInstalled: false)
    do {
        try await withoutApp.login(loginSession: try await withoutApp.loadLoginSession())
        print("error: without the Grab app the login should have opened the App Store and ended with launchAppStoreLink")
        exit(1)
    } catch let error as GrabError {
        step("no app", "the App Store opened; login ended with \(vendorName(error)): retry after install, or cancel")
    }
    do {
        _ = try await relaunched.getIdTokenInfo(loginSession: hinted)
    } catch let error as GrabError {
        step("error", "getIdTokenInfo after logout: \(vendorName(error)) \"\(error.localizeMessage ?? "")\"")
    }
} catch let error as GrabError {
    print("error: \(error.localizeMessage ?? "") [\(error.authError?.code.rawValue ?? "app")] → Grab \(vendorName(error))")
    exit(1)
} catch let error as AuthError {
    print("error: \(error.message) [\(error.code)] → Grab \(vendorName(error.grabError))")
    exit(1)
}
