public import AuthCore
public import Foundation

/// Sign in with Apple: Apple's OpenID Connect server at `https://appleid.apple.com`, with its documented quirks.
///
/// - Client authentication: no static secret. Every token, refresh and revocation request carries a `client_secret`
///   JWT signed with the team's `.p8` key (``AppleClientSecret``), in the form (`client_secret_post`)
///   (https://developer.apple.com/documentation/sign_in_with_apple/generate_and_validate_tokens). ``client`` hands the
///   engine a fresh one each time it is read, so every path that authenticates the client — sign-in, refresh,
///   revocation, a native app's code — sends a valid secret.
/// - `response_mode=form_post` whenever the `name` or `email` scope is asked for: Apple then POSTs the response to
///   the redirect URI, and refuses any other mode
///   (https://developer.apple.com/documentation/sign_in_with_apple/request_an_authorization_to_the_sign_in_with_apple_server).
///   A web app rebuilds the callback URL from the posted form and completes with `completeSignIn(redirect:)`.
/// - The `user` JSON with the name arrives on a user's first sign-in only: ``resolveIdentity(_:)`` keeps it as the
///   profile (`name`, `given_name`, `family_name`), and the engine keeps it across later sign-ins. It is unsigned, so
///   it never sets the subject or the email address: those come from the validated ID token.
/// - ID tokens are signed RS256 (Apple's discovery: `id_token_signing_alg_values_supported: ["RS256"]`); the
///   policy pins RS256 alone. Apple sends `email_verified` and `is_private_email` as strings or booleans:
///   ``AppleIDTokenClaims`` reads both.
/// - Revocation at `/auth/revoke` with `client_id`, `client_secret`, `token` and `token_type_hint`
///   (https://developer.apple.com/documentation/sign_in_with_apple/revoke_tokens): `Session.revoke` works, and an
///   app that lets users delete their account must call it (App Store Review Guideline 5.1.1(v)).
///
/// Configuration keys (a JSON file or a dictionary):
///
/// | key | required | meaning |
/// |---|---|---|
/// | `client_id` | yes | the Services ID on the web, the bundle id in an app |
/// | `redirect_uri` | yes | the return URL registered for the Services ID |
/// | `team_id` | yes | the Apple Developer team id (the client secret's `iss`) |
/// | `key_id` | yes | the Sign in with Apple key's id (the client secret's `kid`) |
/// | `private_key` | one of | the `.p8` key's PEM text (PKCS#8) |
/// | `private_key_file` | one of | the path of the `.p8` file |
/// | `scope` | no | space-separated string or array; default `name email` (`openid` is added) |
/// | `client_secret_lifetime` | no | seconds each client secret is valid; default 86400, at most 15777000 |
/// | `issuer` | no | default `https://appleid.apple.com`; another only for an emulator |
public struct SignInWithAppleProvider: AuthProvider {
    /// `apple`.
    public static let id: ProviderID = "apple"
    /// `Apple`.
    public static let displayName = "Apple"
    /// `https://appleid.apple.com`.
    public static let defaultIssuer = URL(string: "https://appleid.apple.com")!

    /// The issuer whose discovery document gives the endpoints.
    public let issuer: URL
    /// The client id (Services ID or bundle id).
    public let clientID: String
    /// The registered redirect URI.
    public let redirectURI: URL
    /// The scopes asked for (`openid` first).
    public let scopes: [String]
    /// The client secret generator.
    public let clientSecret: AppleClientSecret

    /// Creates a provider in code.
    public init(clientID: String, redirectURI: URL, clientSecret: AppleClientSecret, scopes: [String] = ["name", "email"], issuer: URL = SignInWithAppleProvider.defaultIssuer) {
        self.issuer = issuer
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.clientSecret = clientSecret
        self.scopes = scopes.contains("openid") ? scopes : ["openid"] + scopes
    }

    /// Creates a provider from the keys in the table above, with the system clock.
    ///
    /// - Throws: `missing_configuration_key` naming the key; `invalid_configuration` for a key file that cannot be
    ///   read, a PEM that is not a P-256 private key, or a lifetime over Apple's limit.
    public init(configuration: ProviderConfiguration) throws {
        try self.init(configuration: configuration, clock: SystemWallClock())
    }

    /// Creates a provider from the keys in the table above; client secrets are stamped with `clock`.
    public init(configuration: ProviderConfiguration, clock: any WallClock) throws {
        let clientID = try configuration.requiredString("client_id", providerID: Self.id)
        let redirectURI = try configuration.requiredURL("redirect_uri", providerID: Self.id)
        let teamID = try configuration.requiredString("team_id", providerID: Self.id)
        let keyID = try configuration.requiredString("key_id", providerID: Self.id)
        let issuer = configuration["issuer"] == nil ? Self.defaultIssuer : try configuration.requiredURL("issuer", providerID: Self.id)
        let pem: String
        if let text = configuration.string("private_key"), !text.isEmpty {
            pem = text
        } else if let path = configuration.string("private_key_file"), !path.isEmpty {
            guard let data = FileManager.default.contents(atPath: (path as NSString).expandingTildeInPath) else {
                throw AuthError(
                    .invalidConfiguration, "The Sign in with Apple key file named by 'private_key_file' cannot be read.", providerID: Self.id, configurationKey: "private_key_file")
            }
            pem = String(decoding: data, as: UTF8.self)
        } else {
            throw AuthError(
                .missingConfigurationKey,
                "Set 'private_key' (the .p8 key's PEM text) or 'private_key_file' (its path): Apple's client secret is signed with it.",
                providerID: Self.id, configurationKey: "private_key"
            )
        }
        var lifetime = AppleClientSecret.defaultLifetime
        if configuration["client_secret_lifetime"] != nil {
            guard let seconds = configuration["client_secret_lifetime"]?.numberValue ?? configuration.string("client_secret_lifetime").flatMap(Double.init) else {
                throw AuthError(.invalidConfiguration, "'client_secret_lifetime' must be a number of seconds.", providerID: Self.id, configurationKey: "client_secret_lifetime")
            }
            lifetime = seconds
        }
        let secret = try AppleClientSecret(teamID: teamID, keyID: keyID, clientID: clientID, privateKeyPEM: pem, lifetime: lifetime, clock: clock)
        self.init(
            clientID: clientID, redirectURI: redirectURI, clientSecret: secret,
            scopes: configuration.scopes("scope") ?? ["name", "email"], issuer: issuer
        )
    }

    /// The registration with a current client secret, sent in the form (`client_secret_post`, the one method Apple
    /// accepts). Read at each request, so a secret is renewed without rebuilding the provider. No DPoP: Apple has none.
    public var client: ClientRegistration {
        ClientRegistration(
            clientID: clientID, clientSecret: clientSecret.current(), redirectURI: redirectURI, scopes: scopes,
            authenticationMethod: .clientSecretPost, dpop: .never
        )
    }

    /// OpenID Connect discovery at the issuer (`https://appleid.apple.com/.well-known/openid-configuration`).
    public var endpointSource: EndpointSource { .discovery(issuer: issuer) }

    /// RS256 only: Apple signs its ID tokens with RS256 and nothing else.
    public var idTokenPolicy: IDTokenPolicy { IDTokenPolicy(allowedAlgorithms: [.rs256]) }

    /// `response_mode=form_post` when `name` or `email` is among the requested scopes (Apple refuses another mode
    /// then); none otherwise, so the response comes in the query.
    public func authorizationParameters(for request: SignInContext) -> [String: String] {
        Self.needsFormPost(request.scopes) ? ["response_mode": "form_post"] : [:]
    }

    /// Whether `scopes` make Apple require `response_mode=form_post`.
    public static func needsFormPost(_ scopes: [String]) -> Bool {
        scopes.contains("name") || scopes.contains("email")
    }

    /// The identity: the ID token's subject, its email address with `email_verified` and `is_private_email`, and the
    /// name from the first sign-in's `user` JSON. The JSON is unsigned display data and never sets the subject or the
    /// email; the engine merges this profile over the one stored for the same user, so the name stays after later
    /// sign-ins that carry no `user`.
    public func resolveIdentity(_ context: IdentityContext) async throws -> ProviderIdentity? {
        guard let claims = context.idTokenClaims else { return nil }
        let apple = AppleIDTokenClaims(claims)
        var profile: [String: String] = [:]
        if let email = apple.email {
            profile["email"] = email
            if let verified = apple.emailVerified { profile["email_verified"] = verified ? "true" : "false" }
            if let relay = apple.isPrivateEmail { profile["is_private_email"] = relay ? "true" : "false" }
        }
        if let text = context.authorizationResponse["user"], let user = AppleAuthorizedUser(json: text) {
            if let first = user.firstName { profile["given_name"] = first }
            if let last = user.lastName { profile["family_name"] = last }
            if let name = user.fullName { profile["name"] = name }
        }
        return ProviderIdentity(subject: claims.subject, profile: profile)
    }
}
