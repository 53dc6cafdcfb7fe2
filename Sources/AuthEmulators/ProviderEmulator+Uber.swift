import AuthAppSupport
public import AuthCore
public import AuthTesting
public import Foundation

extension ProviderEmulator {
    /// Uber's auth server, in process (see `TestIdentityProvider/uber(clock:)`); in-app route.
    ///
    /// - Parameters:
    ///   - clock: the clock the emulator stamps tokens with.
    ///   - origin: where `auth-emulator emulate` serves it over HTTP (`http://127.0.0.1:<port>`): the configuration
    ///     then points there and redirects to `TestIdentityProvider/loopbackRedirectURI`; `nil` in process.
    public static func uber(clock: any WallClock = SystemWallClock(), origin: URL? = nil) -> ProviderEmulator {
        let idp = TestIdentityProvider.uber(clock: clock, origin: origin)
        var section: [String: JSONValue] = [
            "ClientID": .string(TestIdentityProvider.uberClientID),
            "RedirectURI": .string(TestIdentityProvider.uberRedirectURI.absoluteString),
            "DisplayName": "Emulated Rides Partner"
        ]
        if origin != nil {
            section["AuthServer"] = .string(idp.configuration.issuer.absoluteString)
            section["RedirectURI"] = .string(TestIdentityProvider.loopbackRedirectURI.absoluteString)
        }
        return ProviderEmulator(
            providerID: "uber",
            configuration: ProviderConfiguration(["Uber": .object(section)]),
            transport: idp.transport,
            userAgent: HeadlessUserAgent(transport: idp.transport),
            clock: clock,
            route: "in-app",
            supportsRefresh: false,
            identityProvider: idp
        )
    }
}

extension TestIdentityProvider {
    /// The emulated Uber client id.
    public static let uberClientID = "emulated-uber-client"
    /// The emulated app's redirect URI.
    public static let uberRedirectURI = URL(string: "com.example.rides://oauth/consumer")!
    /// The native apps' authorize paths.
    public static let uberNativePaths = ["/oauth/v2/riders/authorize", "/oauth/v2/eats/authorize", "/oauth/v2/drivers/authorize"]

    /// An identity provider configured as Uber's auth server: `/oauth/v2/universal/authorize` and the native apps'
    /// `/oauth/v2/{riders,eats,drivers}/authorize`, `/oauth/v2/token`, and the pushed authorization request endpoint
    /// `/oauth/v2/par`. No ID tokens (Uber scopes are not OpenID Connect).
    ///
    /// Strict: native paths refuse `prompt=login`; a `request_uri` must be one it issued; PAR requires
    /// `client_id`, `response_type=code` and a `login_hint` that is base64 of a JSON object.
    ///
    /// - Parameters:
    ///   - clock: the clock the emulator stamps tokens with.
    ///   - origin: where `auth-emulator emulate` serves it over HTTP (see `Configuration/served(at:)`); `nil` in process.
    public static func uber(clock: any WallClock = SystemWallClock(), origin: URL? = nil) -> TestIdentityProvider {
        var configuration = Configuration(
            issuer: URL(string: "https://auth.uber.com")!,
            clients: [Client(id: uberClientID, redirectURIs: [uberRedirectURI])],
            user: User(subject: "8b3e2a10-uber-rider", claims: [:])
        )
        configuration.paths.discovery = nil
        configuration.paths.deviceAuthorization = nil  // the vendor offers no device flow
        configuration.paths.authorize = "/oauth/v2/universal/authorize"
        configuration.paths.authorizeAliases = uberNativePaths
        configuration.paths.token = "/oauth/v2/token"
        // Uber returns a refresh token only when the access token was requested with `offline_access`
        // (https://developer.uber.com/docs/consumer-identity/references/api/v2/token-post), and the vendor SDK asks
        // for `profile` alone.
        configuration.refreshTokenRequiresScope = "offline_access"
        let pushed = LockedValue<[String: String]>([:])
        configuration.quirks.validateAuthorization = { query, path in
            if uberNativePaths.contains(path), query["prompt"]?.split(separator: " ").contains("login") == true {
                return "prompt=login is not supported by the native apps"
            }
            if let uri = query["request_uri"], pushed.withLock({ $0.removeValue(forKey: uri) }) == nil {
                return "unknown or used request_uri"
            }
            return nil
        }
        configuration.quirks.pkceOptional = true  // the vendor SDK's backend-exchange mode sends no PKCE
        configuration.quirks.api = { request, _ in
            guard request.url?.path == "/oauth/v2/par", request.httpMethod == "POST" else { return nil }
            let form = Dictionary(FormEncoding.decode(String(decoding: request.httpBody ?? Data(), as: UTF8.self)), uniquingKeysWith: { a, _ in a })
            guard form["client_id"] == uberClientID, form["response_type"] == "code", let hint = form["login_hint"],
                let json = Data(base64Encoded: hint), (try? JSONValue.parseObject(json)) != nil
            else { return (400, ["error": "invalid_request"]) }
            let uri = "urn:ietf:params:oauth:request_uri:" + SecureRandom.token(byteCount: 12)
            pushed.withLock { $0[uri] = hint }
            return (201, ["request_uri": .string(uri), "expires_in": 60])
        }
        configuration.displayName = "Uber"
        configuration.testAccounts = [TestAccount(username: "rider@example.com", user: configuration.user)]
        return TestIdentityProvider(configuration: origin.map(configuration.served(at:)) ?? configuration, clock: clock)
    }

    /// Emulated Uber apps for `installed` (for example `[.rides]` as `["uber"]`), claiming the native
    /// authorize links by their path, and calling back as Uber documents the SSO hand-off through universal links:
    /// `<redirect_uri>?code=<authorization_code>&state=<your_state>` — the `state` of the request echoed
    /// (https://developer.uber.com/docs/consumer-identity/guides/account-linking, "OAuth Flow With Universal Link For
    /// SSO", Step 1's example response), and nothing else of this provider's (`iss`).
    ///
    /// - Parameters:
    ///   - installedSchemes: the URL schemes of the installed apps (`uber`, `ubereats`, `uberdriver`).
    ///   - idp: the emulated auth server the apps forward the authorization request to.
    ///   - callsBackWithoutState: a tolerance test only, never Uber's documented behaviour: the apps drop `state` too
    ///     and call back with the code (or error) alone, the shape of the URLs the vendor SDK's own unit tests feed
    ///     its parser (`test://app?code=123`). No Uber source says a real app does this; it checks that such a
    ///     callback is still attributed safely (to the one pending login that PKCE protects) or refused.
    public static func uberApps(installedSchemes: Set<String>, idp: TestIdentityProvider, callsBackWithoutState: Bool = false) -> EmulatedAppHandoff {
        EmulatedAppHandoff(installedSchemes: installedSchemes, transport: idp.transport) { url in
            switch url.path {
            case "/oauth/v2/riders/authorize": "uber"
            case "/oauth/v2/eats/authorize": "ubereats"
            case "/oauth/v2/drivers/authorize": "uberdriver"
            default: nil
            }
        } respond: { redirect in
            // Uber documents `code` and `state` on the hand-off's callback (an error as `error`); the emulated server's
            // RFC 9207 `iss` is not Uber's, so the apps do not pass it on.
            let kept: Set<String> = callsBackWithoutState ? ["code", "error"] : ["code", "state", "error"]
            guard var components = URLComponents(url: redirect, resolvingAgainstBaseURL: false) else { return redirect }
            components.queryItems = components.queryItems?.filter { kept.contains($0.name) }
            return components.url ?? redirect
        }
    }
}
