// swift-format-ignore-file
// (The migration-guide snippets below are compared, character for character, with the DocC guides.)
// The code of each migration guide (Sources/<Vendor>Compat/<Vendor>Compat.docc/Migrating*.md), compiled and run
// against the provider's emulator so the guides cannot rot.
import AuthCore
import AuthGOVUK
import AuthGrab
import AuthOneLogin
import AuthSchibsted
import AuthEmulators
import AuthTesting
import AuthUber
import GOVUKCompat
import GrabCompat
import OneLoginCompat
import SchibstedCompat
import UberCompat
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Migration guide code")
struct MigrationGuideTests {
    @Test("Grab: loadLoginSession, login, getIdTokenInfo, isValidAccessToken, logout, LoginSession(…), error codes")
    func grab() async throws {
        let idp = TestIdentityProvider.grab()
        let infoPlist = ProviderConfiguration(["GrabIdPartnerSDK": .object(TestIdentityProvider.grabPlist)])
        let webSession: any UserAgent = HeadlessUserAgent(transport: idp.transport)
        let sessions: any TokenStorage = InMemoryTokenStorage()   // the guide leaves it out: the Keychain by default
        // --- guide ---
        let grab = GrabIdPartner(configuration: try GrabConfiguration(infoPlist), webAgent: webSession,
                                 storage: sessions, transport: idp.transport)
        let loginSession = try await grab.loadLoginSession()                  // GrabIdPartner.loadLoginSession
        try await grab.login(loginSession: loginSession)                      // login(loginSession:…) + exchangeToken
        let info = try await grab.getIdTokenInfo(loginSession: loginSession)  // getIdTokenInfo
        let valid = grab.isValidAccessToken(loginSession: loginSession)       // isValidAccessToken
        let accessToken = loginSession.accessToken?.reveal()                  // loginSession.accessToken
        try await grab.logout(loginSession: loginSession)                     // logout

        let manual = try LoginSession(clientId: TestIdentityProvider.grabClientID,   // LoginSession(clientId:…)
                                      redirectUrl: TestIdentityProvider.grabRedirectURL, scope: "openid profile.read",
                                      acrValues: ["service": "PASSENGER"],
                                      serviceDiscoveryUrl: TestIdentityProvider.grabServiceDiscoveryURL.absoluteString)
        do {
            _ = try await grab.getIdTokenInfo(loginSession: manual)
        } catch let grabError as GrabError {                                  // GrabIdPartnerError
            print(grabError.domain, grabError.code.rawValue, grabError.localizeMessage ?? "")
            #expect(grabError.domain == .getIdTokenInfo && grabError.code == .invalidIdToken)
        }
        // --- end ---
        #expect(valid && info.service == "PASSENGER" && accessToken != nil && loginSession.accessToken == nil)
    }

    @Test("Schibsted: Client, getLoginSession, handleAuthenticationResponse, fetchProfileData, getExternalId")
    func schibsted() async throws {
        let idp = TestIdentityProvider.schibsted()
        let browser = HeadlessUserAgent(transport: idp.transport)
        let sessions: any TokenStorage = InMemoryTokenStorage()   // the guide leaves it out: the Keychain by default
        // --- guide ---
        let client = SchibstedAccountClient(
            configuration: ClientConfiguration(environment: .pre, clientId: TestIdentityProvider.schibstedClientID,
                                               redirectURI: TestIdentityProvider.schibstedRedirectURI),
            storage: sessions, transport: idp.transport)
        let request = try await client.getLoginSession(withMFA: nil, withSSO: true)   // Client.getLoginSession
        let callback = try await browser.authorize(request)                           // (ASWebAuthenticationSession)
        let user = try await client.handleAuthenticationResponse(url: callback)       // handleAuthenticationResponse
        let profile = try await user.fetchProfileData()                               // User.fetchProfileData
        let externalId = client.getExternalId(pairId: profile.pairId ?? "", externalParty: "partner")
        let resumed = try await client.resumeLastLoggedInUser()                       // resumeLastLoggedInUser
        // --- end ---
        #expect(externalId?.count == 64 && resumed != nil)
    }

    @Test("Uber: UberAuth.login(context:), handle(url), and login(context:completion:) delivers the exchanged Client")
    func uber() async throws {
        let idp = TestIdentityProvider.uber()
        let apps = TestIdentityProvider.uberApps(installedSchemes: ["uber"], idp: idp)
        let sessions: any TokenStorage = InMemoryTokenStorage()   // the guide leaves it out: the Keychain by default
        // The app's own handler of the completion form's result (the guide's `loginFinished`), recorded here.
        let (finished, results) = AsyncStream.makeStream(of: Result<UberClient, UberAuthError>.self)
        let loginFinished: @Sendable (Result<UberClient, UberAuthError>) -> Void = { results.yield($0); results.finish() }
        // --- guide ---
        let uber = UberAuth(configuration: try UberConfiguration(ProviderConfiguration(["Uber": [
                                "ClientID": .string(TestIdentityProvider.uberClientID),
                                "RedirectURI": .string(TestIdentityProvider.uberRedirectURI.absoluteString)]])),
                            webAgent: HeadlessUserAgent(transport: idp.transport), appHandoff: apps,
                            storage: sessions, transport: idp.transport)
        await apps.onCallback { url in _ = uber.handle(url) }                       // UberAuth.handle(url)
        let prompt: Prompt = [.consent]                                             // Prompt, an OptionSet as the vendor's
        let authProvider: any AuthProviding = .authorizationCode(prompt: prompt)    // the README's AuthProviding; exchanges
        let context = AuthContext(authDestination: .native([.rides]),               // the vendor's initializer
                                  authProvider: authProvider)
        let client = try await uber.login(context: context)                         // UberAuth.login(context:)
        let loggedIn = await uber.isLoggedIn                                        // UberAuth.isLoggedIn
        uber.login(context: context) { result in                                    // login(context:completion:)
            loginFinished(result)                                                   // Result<UberClient, UberAuthError>
        }
        // --- end ---
        #expect(client.accessToken != nil && client.authorizationCode == nil && loggedIn, "the vendor's factory exchanges the code")
        var delivered = finished.makeAsyncIterator()
        let completed = try #require(await delivered.next(), "the completion form calls its completion")
        guard case .success(let second) = completed else { Issue.record("the completion form failed: \(completed)"); return }
        #expect(second.accessToken != nil && second.authorizationCode == nil && second.tokenType == "Bearer")
        #expect(await apps.opened.count == 2, "both logins went through the Uber app")
    }

    @Test("OneLogin: OLOidc, signIn, getUserInfo, introspect, revokeToken, deleteTokens")
    func oneLogin() async throws {
        let idp = TestIdentityProvider.oneLogin()
        // --- guide ---
        let olOidc = try await OLOidc(configuration: try OLOidcConfig(dict: [
                                          "issuer": "https://example.onelogin.com/oidc/2",
                                          "clientId": TestIdentityProvider.oneLoginClientID,
                                          "redirectUri": TestIdentityProvider.oneLoginRedirectURI.absoluteString,
                                          "scopes": "openid profile email",
                                          "resource": TestIdentityProvider.oneLoginResource]),
                                      secureStorage: InMemoryTokenStorage(), transport: idp.transport, clock: idp.clock)
        try await olOidc.signIn(with: HeadlessUserAgent(transport: idp.transport))   // signIn(presenter:)
        let claims = await olOidc.olAuthState.idTokenParsed                          // olAuthState.idTokenParsed
        let userInfo = try await olOidc.getUserInfo()                                // getUserInfo
        let active = try await olOidc.introspect()                                   // introspect
        try await olOidc.revokeToken(tokenType: .refreshToken)                       // revokeToken(tokenType:)
        try await olOidc.deleteTokens()                                              // deleteTokens
        // --- end ---
        #expect(claims != nil && userInfo["sub"] != nil && active)
    }

    @Test("GOV.UK One Login: LoginSessionConfiguration, present(configuration:), finalise(callback:), UserServicing")
    func govUK() async throws {
        let emulator = ProviderEmulator.govUK(clock: ManualClock())
        let settings = emulator.configuration
        let url = URL(string: settings["authorizationEndpoint"]!.stringValue!)!
        let sessions: any TokenStorage = InMemoryTokenStorage()   // the guide leaves it out: the Keychain by default
        let attestation = TestIdentityProvider.govUKAttestationHeaders   // an app computes its attestation here
        // --- guide ---
        let configuration = try await LoginSessionConfiguration(authorizationEndpoint: url,  // as GOV.UK's own app:
                                                                scopes: [.openid],            // its token service refuses offline_access
                                                                clientID: "govuk-emulator-client",
                                                                redirectURI: "https://app.example.gov.uk/oauth/redirect",
                                                                tokenHeaders: attestation)    // OAuth-Client-Attestation, -PoP, DPoP
        let login = OneLoginSession(configuration: configuration, storage: sessions,  // AppAuthSession(window:)
                                    transport: emulator.transport, clock: emulator.clock)
        let request = try await login.present(configuration: configuration)       // present(configuration:)
        let callback = try await emulator.userAgent.authorize(request)             // the universal link arrives
        let tokens = try await login.finalise(callback: callback)                  // finalise(callback:)
        let service: any UserServicing = UserService(session: await login.session!)  // UserService(client:)
        let userInfo = try await service.fetchUserInfo()    // fetchUserInfo(): from the ID token, the STS has no /userinfo
        // --- end ---
        #expect(tokens.idToken != nil && userInfo.email.contains("@"))
        #expect(userInfo.phoneNumber == nil && !userInfo.phoneNumberVerified)   // the token service's ID token has no phone
    }
}

/// The Schibsted article's block (AuthSchibsted.docc/SigningInWithSchibsted.md), verbatim (`articleSnippetMatches`
/// compares the two), so it must type-check.
/// Never called: its client uses the default Keychain/file storage and the real network.
private func schibstedArticleSnippet(configuration: ClientConfiguration, url: URL, apiURL: URL, logoutObserver: any UserDelegate) async throws {
    // --- article ---
    let client = SchibstedAccountClient(configuration: configuration)   // the Keychain; the vendor SDK's session is adopted
    let login = try await client.getLoginSession(withMFA: .otp, withSSO: true)   // open login.url in a web session
    // application(_:open:options:) — BankID's {scheme}:/bankId redirect is not a login callback:
    guard client.handles(url) else { return }
    let user = try await client.handleAuthenticationResponse(url: url)
    // If the user closes the sheet instead: await client.cancelLoginSession()
    let profile = try await user.fetchProfileData()
    let externalId = client.getExternalId(pairId: profile.pairId ?? "", externalParty: "partner")
    let (data, response) = try await user.send(URLRequest(url: apiURL))      // refresh-on-401, shared
    await user.delegates.addDelegate(logoutObserver)                          // userDidLogout, explicit or forced
    let resumed = try await client.resumeLastLoggedInUser()
    // Errors are AuthError; `error.schibstedError` gives .login(.missingExpectedMFA), .idToken(.invalidNonce), …
    // --- end ---
    _ = (login, externalId, data, response, resumed)
}

@Suite("Migration guides")
struct MigrationGuideTextTests {
    /// The `// --- guide ---` sections of this file, trimmed, without blank lines and the tests' own `#expect`s.
    private func guideSections() throws -> [[String]] {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        var sections: [[String]] = []
        var current: [String]?
        for line in source.components(separatedBy: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line == "// --- guide ---" { current = []; continue }
            if line == "// --- end ---", let section = current { sections.append(section); current = nil; continue }
            if !line.isEmpty, !line.hasPrefix("#expect") { current?.append(line) }
        }
        return sections
    }

    @Test("Each guide's code block is, line for line, code this suite compiles and runs", arguments: [
        "GrabCompat/GrabCompat.docc/MigratingGrabidpartnersdk.md",
        "SchibstedCompat/SchibstedCompat.docc/MigratingAccountSdkIosWeb.md",
        "UberCompat/UberCompat.docc/MigratingUberauth.md",
        "OneLoginCompat/OneLoginCompat.docc/MigratingOloidc.md",
        "GOVUKCompat/GOVUKCompat.docc/MigratingMobileIosAuthentication.md",
    ])
    func guideMatchesCompiledCode(_ path: String) throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
        let guide = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
        let intro = try #require(guide.range(of: "This code is compiled and run"))
        let open = try #require(guide[intro.upperBound...].range(of: "```swift\n"))
        let close = try #require(guide[open.upperBound...].range(of: "```"))
        let code = guide[open.upperBound..<close.lowerBound].components(separatedBy: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        #expect(try guideSections().contains(code), "the code block of \(path) is not one of this file's guide sections")
    }
}

@Suite("Provider article code")
struct ProviderArticleCodeTests {
    /// The lines between `// --- article ---` and `// --- end ---` in this file.
    private func testLines() throws -> [String] {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let lines = source.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let start = try #require(lines.firstIndex(of: "// --- article ---"))
        let end = try #require(lines[start...].firstIndex(of: "// --- end ---"))
        return Array(lines[(start + 1)..<end])
    }

    @Test("The Schibsted article's snippet is the code compiled here, line by line")
    func articleSnippetMatches() throws {
        let articleURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/AuthSchibsted/AuthSchibsted.docc/SigningInWithSchibsted.md")
        let article = try String(contentsOf: articleURL, encoding: .utf8)
        let block = try #require(article.range(of: "```swift\nimport SchibstedCompat\n"))
        let close = try #require(article[block.upperBound...].range(of: "```"))
        let articleLines = article[block.upperBound..<close.lowerBound].components(separatedBy: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        #expect(articleLines == (try testLines()))
    }
}
