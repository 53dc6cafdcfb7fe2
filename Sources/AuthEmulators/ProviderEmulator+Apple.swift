public import AuthCore
public import AuthTesting
import Crypto
public import Foundation

extension ProviderEmulator {
    /// Sign in with Apple's server, in process: discovery at `https://appleid.apple.com`, `/auth/authorize`,
    /// `/auth/token`, `/auth/revoke`, `/auth/keys`; no user info, introspection or end-session endpoint; RS256 ID tokens.
    ///
    /// Its quirks, as Apple documents them:
    /// - with the `name` or `email` scope, `response_mode` must be `form_post`, else the request is refused
    ///   (`invalid_request`); the answer is then an auto-submitting HTML form that POSTs `code` and `state` to the
    ///   redirect URI, with the `user` JSON (`{"name":{"firstName":…,"lastName":…},"email":…}`) on the user's first
    ///   authorization of the app only
    ///   (https://developer.apple.com/documentation/sign_in_with_apple/request_an_authorization_to_the_sign_in_with_apple_server);
    /// - the token and revocation endpoints authenticate the client by a `client_secret` JWT: ES256 with the
    ///   registered key id (`kid`), signed by the team's registered key, `iss` the team id, `sub` the `client_id`, `aud`
    ///   `https://appleid.apple.com`, unexpired, and `exp` no more than 15777000 s after `iat`; anything else is HTTP 400
    ///   `invalid_client` (https://developer.apple.com/documentation/sign_in_with_apple/generate_and_validate_tokens,
    ///   https://developer.apple.com/documentation/sign_in_with_apple/errorresponse);
    /// - ID tokens carry `email`, `email_verified` and `is_private_email` as strings, `real_user_status`, and
    ///   `nonce_supported`; ``TestIdentityProvider/applePrivateRelayUser`` hides their address behind a private relay.
    /// - a native app's request (``appleNativeSignIn(nonce:clientID:)``) returns what `ASAuthorizationAppleIDCredential`
    ///   carries; its code is redeemed without `redirect_uri`.
    ///
    /// Over HTTP (`origin` set: `auth-emulator emulate`, the web sign-in sample) the login page shows first, and the
    /// same Apple layer answers (`ProviderEmulator.handle(_:)`, in AuthTesting): a browser gets the auto-submitting form and, on the
    /// first authorization, the `user` JSON.
    ///
    /// - Parameters:
    ///   - clock: the clock the emulator stamps tokens and checks client secrets with.
    ///   - origin: where `auth-emulator emulate` serves it (`http://127.0.0.1:<port>`); `nil` in process.
    public static func apple(clock: any WallClock = SystemWallClock(), origin: URL? = nil) -> ProviderEmulator {
        let teamKey = P256.Signing.PrivateKey()
        let idp = TestIdentityProvider.apple(clock: clock, origin: origin, teamKey: teamKey.publicKey)
        let server = AppleIDServer(
            idp: idp, teamKey: teamKey.publicKey, teamID: TestIdentityProvider.appleTeamID, keyID: TestIdentityProvider.appleKeyID,
            nativeRedirectURI: TestIdentityProvider.appleNativeRedirectURI
        ) { subject in
            TestIdentityProvider.appleNames[subject]
        }
        let transport = InProcessTransport().adding(host: idp.configuration.issuer.host ?? "") { await server.handle($0) }
        var configuration: [String: JSONValue] = [
            "client_id": .string(TestIdentityProvider.appleServicesID),
            "redirect_uri": .string((origin == nil ? TestIdentityProvider.appleRedirectURI : TestIdentityProvider.loopbackRedirectURI).absoluteString),
            "team_id": .string(TestIdentityProvider.appleTeamID),
            "key_id": .string(TestIdentityProvider.appleKeyID),
            "private_key": .string(teamKey.pemRepresentation),
            "scope": "name email"
        ]
        if origin != nil { configuration["issuer"] = .string(idp.configuration.issuer.absoluteString) }
        var emulator = ProviderEmulator(
            providerID: "apple",
            configuration: ProviderConfiguration(configuration),
            transport: transport,
            userAgent: FormPostUserAgent(transport: transport),
            clock: clock,
            route: "web (form_post)",
            supportsRefresh: true,
            identityProvider: idp
        )
        emulator.front = { await server.handle($0) }
        return emulator
    }

    /// What `ASAuthorizationController` hands a native app after the configured user signs in with Apple: an identity
    /// token for `clientID` (the app's bundle id) carrying `nonce` (none when `nil`), a fresh authorization code, and
    /// on the user's first authorization the `user` JSON Apple's native API splits into `fullName` and `email`.
    ///
    /// - Throws: `authorization_failed` when the emulator refuses the request.
    public func appleNativeSignIn(nonce: String?, clientID: String = TestIdentityProvider.appleBundleID) async throws -> AppleNativeCredential {
        guard let idp = identityProvider, let pem = configuration.string("private_key") else {
            throw AuthError(.invalidConfiguration, "Not a Sign in with Apple emulator.")
        }
        let native = TestIdentityProvider.appleNativeRedirectURI
        func authorize() async throws -> [String: String] {
            var query: [(String, String)] = [
                ("client_id", clientID), ("redirect_uri", native.absoluteString), ("response_type", "code"),
                ("scope", "openid name email"), ("response_mode", "form_post"), ("state", SecureRandom.token(byteCount: 16))
            ]
            if let nonce { query.append(("nonce", nonce)) }
            let (body, response) = try await transport.send(HTTPRequest(method: .get, url: idp.endpoint("/auth/authorize").appendingQuery(query)))
            guard response.statusCode == 200, let form = FormPostUserAgent.postedForm(in: String(decoding: body, as: UTF8.self)) else {
                throw AuthError(.authorizationFailed, "The emulated Apple server refused the native request (HTTP \(response.statusCode)).")
            }
            return Dictionary(form.fields, uniquingKeysWith: { first, _ in first })
        }
        // The identity token comes from redeeming one code (as the device's own exchange with Apple does); the app
        // gets a second, unused one.
        let first = try await authorize()
        guard let identityCode = first["code"] else { throw AuthError(.authorizationFailed, "The emulated Apple server issued no code.") }
        let secret = try AppleIDServer.clientSecret(
            pem: pem, teamID: TestIdentityProvider.appleTeamID, keyID: TestIdentityProvider.appleKeyID, clientID: clientID, now: clock.now()
        )
        let form: [(String, String)] = [
            ("grant_type", "authorization_code"), ("code", identityCode), ("client_id", clientID), ("client_secret", secret)
        ]
        var request = HTTPRequest(method: .post, url: idp.endpoint("/auth/token"))
        request.headerFields[.contentType] = "application/x-www-form-urlencoded"
        let (tokenBody, tokenResponse) = try await transport.send(request, body: Data(FormEncoding.encode(form).utf8))
        guard tokenResponse.statusCode == 200, let idToken = (try? JSONValue.parseObject(tokenBody))?["id_token"]?.stringValue else {
            throw AuthError(.authorizationFailed, "The emulated Apple server issued no identity token (HTTP \(tokenResponse.statusCode)).")
        }
        let second = try await authorize()
        guard let code = second["code"] else { throw AuthError(.authorizationFailed, "The emulated Apple server issued no code.") }
        return AppleNativeCredential(identityToken: Secret(idToken), authorizationCode: Secret(code), user: first["user"])
    }
}

/// What the emulated `ASAuthorizationAppleIDCredential` carries (see `ProviderEmulator/appleNativeSignIn(nonce:clientID:)`).
public struct AppleNativeCredential: Sendable {
    /// `identityToken`.
    public let identityToken: Secret
    /// `authorizationCode`.
    public let authorizationCode: Secret
    /// The first authorization's `user` JSON (`fullName` and `email` natively); `nil` later.
    public let user: String?
}

extension TestIdentityProvider {
    /// The emulated team id.
    public static let appleTeamID = "EMU7TEAM42"
    /// The emulated Sign in with Apple key id.
    public static let appleKeyID = "EMUKEY0001"
    /// The emulated website's Services ID.
    public static let appleServicesID = "com.example.web.signin"
    /// The emulated app's bundle id (its native client id).
    public static let appleBundleID = "com.example.app"
    /// Another team's app, registered too, for foreign-audience tests.
    public static let appleOtherBundleID = "com.example.other-app"
    /// The emulated website's return URL.
    public static let appleRedirectURI = URL(string: "https://app.example.com/auth/apple/callback")!
    /// Where the emulator's native requests are answered (the device's own channel, never a web page).
    public static let appleNativeRedirectURI = URL(string: "https://appleid.apple.com/emulated-device")!
    /// The signed-in user, sharing their address.
    public static let appleUser = User(
        subject: "001234.5c4c1a0b7f8e4d2a9b3c6d5e4f3a2b1c.0942",
        claims: [
            "email": "alex@example.com", "email_verified": "true", "is_private_email": "false", "real_user_status": 2,
            "nonce_supported": true
        ])
    /// A user who hides their address behind Apple's private relay.
    public static let applePrivateRelayUser = User(
        subject: "001234.9f8e7d6c5b4a39281706f5e4d3c2b1a0.1711",
        claims: [
            "email": "x7k2q9mz4r@privaterelay.appleid.com", "email_verified": "true", "is_private_email": "true",
            "real_user_status": 1, "nonce_supported": true
        ])
    /// The names Apple posts on each user's first authorization, by subject.
    public static let appleNames: [String: (firstName: String, lastName: String)] = [
        appleUser.subject: ("Alex", "Appleseed"),
        applePrivateRelayUser.subject: ("Robin", "Relay")
    ]

    /// An identity provider configured as Sign in with Apple's server (see `ProviderEmulator/apple(clock:origin:)`).
    /// Its token endpoint checks client secrets against `teamKey`.
    static func apple(clock: any WallClock, origin: URL?, teamKey: P256.Signing.PublicKey) -> TestIdentityProvider {
        var configuration = Configuration(
            issuer: URL(string: "https://appleid.apple.com")!,
            signingAlgorithm: .rs256,
            clients: [
                Client(id: appleServicesID, redirectURIs: [appleRedirectURI, loopbackRedirectURI]),
                Client(id: appleBundleID, redirectURIs: [appleNativeRedirectURI]),
                Client(id: appleOtherBundleID, redirectURIs: [appleNativeRedirectURI])
            ],
            user: appleUser,
            idTokenLifetime: 600
        )
        configuration.paths.authorize = "/auth/authorize"
        configuration.paths.token = "/auth/token"
        configuration.paths.revoke = "/auth/revoke"
        configuration.paths.jwks = "/auth/keys"
        configuration.paths.deviceAuthorization = nil
        configuration.quirks.discoveryRemovals = [
            "userinfo_endpoint", "introspection_endpoint", "end_session_endpoint", "code_challenge_methods_supported",
            "authorization_response_iss_parameter_supported"
        ]
        // Apple's published document (https://appleid.apple.com/.well-known/openid-configuration).
        configuration.quirks.discoveryExtras = [
            "response_modes_supported": ["query", "fragment", "form_post"],
            "subject_types_supported": ["pairwise"],
            "scopes_supported": ["openid", "email", "name"],
            "token_endpoint_auth_methods_supported": ["client_secret_post"],
            "claims_supported": ["aud", "email", "email_verified", "exp", "iat", "is_private_email", "iss", "nonce", "nonce_supported", "real_user_status", "sub", "transfer_sub"]
        ]
        configuration.initialBehavior.sendsIssParameter = false
        configuration.initialBehavior.advertisesIssParameter = false
        // Apple documents no PKCE: a request without it is answered, and one with it is checked as sent.
        configuration.quirks.pkceOptional = true
        configuration.quirks.validateAuthorization = { query, _ in appleRefusal(query) }
        // The client secret is checked here too, so the same rule holds over HTTP, where requests reach the provider
        // without `AppleIDServer` (there a bad secret is refused as `invalid_request`; in process as `invalid_client`).
        let clock = clock
        configuration.quirks.validateTokenRequest = { _, form in
            AppleIDServer.clientSecretProblem(form, teamKey: teamKey, teamID: appleTeamID, keyID: appleKeyID, now: clock.now())
        }
        configuration.testAccounts = [
            TestAccount(username: "alex@example.com", user: appleUser),
            TestAccount(username: "robin@example.com", user: applePrivateRelayUser)
        ]
        configuration.displayName = "Apple"
        return TestIdentityProvider(configuration: origin.map(configuration.served(at:)) ?? configuration, clock: clock)
    }

    /// What Apple's authorization endpoint refuses with `invalid_request`, or `nil`: the `name` or `email` scope
    /// without `response_mode=form_post`.
    static func appleRefusal(_ query: [String: String]) -> String? {
        let scopes = (query["scope"] ?? "").split(separator: " ")
        if scopes.contains("name") || scopes.contains("email"), query["response_mode"] != "form_post" {
            return "response_mode must be form_post when name or email scope is requested"
        }
        return nil
    }
}
