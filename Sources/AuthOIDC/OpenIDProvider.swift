public import AuthCore
public import Foundation

/// A standard OpenID Connect provider for any compliant issuer, configured by its issuer and client.
///
/// Configuration keys (a JSON file or a dictionary):
///
/// | key | required | meaning |
/// |---|---|---|
/// | `issuer` | yes | the issuer URL; endpoints come from its discovery document |
/// | `client_id` | yes | the client id |
/// | `redirect_uri` | yes | the registered redirect URI |
/// | `scope` | no | space-separated string or array; default `openid` (added when missing) |
/// | `client_secret` | no | only for confidential clients (never in an app) |
/// | `private_key`, `private_key_file`, `private_key_jwk` | no | a confidential client's private key: `private_key_jwt` (RFC 7523) |
/// | `private_key_alg`, `private_key_id` | no | the assertion's algorithm (RS256 by default; PS256, ES256, EdDSA for an Ed25519 key, …) and `kid` |
/// | `request_object` | no | send authorization requests as a signed request object (RFC 9101; needs the private key) |
/// | `token_endpoint_auth_method` | no | `none`, `client_secret_basic` (default with a secret), `client_secret_post`, `private_key_jwt` (default with a key) |
/// | `parameters` | no | a dictionary of extra authorization parameters |
/// | `ephemeral_session` | no | prefer an ephemeral browser session |
/// | `dpop` | no | `true`: bind tokens to a DPoP key (RFC 9449) always; `false`: never; absent: when discovery offers it |
/// | `par` | no | `true`: push every authorization request (RFC 9126); `false`: never (an error when the provider requires it); absent: when discovery advertises it |
/// | `profile` | no | `"fapi2"`: the FAPI 2.0 Security Profile; the configuration must then name a private key, and sign-in refuses a provider that breaks a rule |
/// | `id_token_signed_response_alg` | no | the algorithm the client registered for its ID tokens (RS256, ES256, PS256, EdDSA, …): ID tokens and back-channel logout tokens signed with any other are refused (`unsupported_algorithm`); absent, RS256 and ES256 are accepted |
///
/// Third-party providers that are plain OIDC with a twist wrap one of these and override a hook.
public struct OpenIDProvider: AuthProvider {
    /// `oidc`.
    public static let id: ProviderID = "oidc"
    /// `OpenID Connect`.
    public static let displayName = "OpenID Connect"

    /// The issuer.
    public let issuer: URL
    /// The client registration.
    public let client: ClientRegistration
    /// Extra authorization parameters sent with every request.
    public let additionalParameters: [String: String]
    /// The ID token rules.
    public let idTokenPolicy: IDTokenPolicy
    /// Whether to prefer an ephemeral browser session.
    public let prefersEphemeralWebSession: Bool
    /// Whether authorization requests are signed request objects (RFC 9101).
    public let usesSignedRequestObject: Bool

    /// The ephemeral-session and signed-request-object settings; otherwise standard.
    public var behavior: ProviderBehavior {
        ProviderBehavior(usesSignedRequestObject: usesSignedRequestObject, prefersEphemeralWebSession: prefersEphemeralWebSession)
    }

    /// Creates a provider in code.
    public init(
        issuer: URL,
        client: ClientRegistration,
        additionalParameters: [String: String] = [:],
        idTokenPolicy: IDTokenPolicy = .standard,
        prefersEphemeralWebSession: Bool = false,
        usesSignedRequestObject: Bool = false
    ) {
        self.issuer = issuer
        self.client = client
        self.additionalParameters = additionalParameters
        self.idTokenPolicy = idTokenPolicy
        self.prefersEphemeralWebSession = prefersEphemeralWebSession
        self.usesSignedRequestObject = usesSignedRequestObject
    }

    /// Creates a provider from the keys in the table above.
    ///
    /// - Throws: `missing_configuration_key` naming `issuer`, `client_id` or `redirect_uri`;
    ///   `invalid_configuration` for a value of the wrong shape; `fapi_profile_violation` naming the rule a `fapi2`
    ///   configuration breaks.
    public init(configuration: ProviderConfiguration) throws {
        let issuer = try configuration.requiredURL("issuer", providerID: Self.id)
        let signingKey = try configuration.clientSigningKey(providerID: Self.id)
        let client = try configuration.openIDClient(
            providerID: Self.id, defaultScopes: ["openid"], signingKey: signingKey, dpop: try configuration.dpopUsage(providerID: Self.id)
        )
        if client.authenticationMethod == .privateKeyJWT, signingKey == nil {
            throw AuthError(
                .missingConfigurationKey, "token_endpoint_auth_method is private_key_jwt but no private_key, private_key_file or private_key_jwk is configured.",
                providerID: Self.id)
        }
        self.init(
            issuer: issuer,
            client: client,
            additionalParameters: try configuration.authorizationParameters(providerID: Self.id),
            idTokenPolicy: try Self.idTokenPolicy(configuration),
            prefersEphemeralWebSession: configuration.bool("ephemeral_session") ?? false,
            usesSignedRequestObject: configuration.bool("request_object") ?? false
        )
        if usesSignedRequestObject, signingKey == nil {
            throw AuthError(.missingConfigurationKey, "request_object needs the client's private key (private_key, private_key_file or private_key_jwk).", providerID: Self.id)
        }
    }

    /// The ID token rules of `configuration`: `.standard`, or pinned to its `id_token_signed_response_alg`.
    ///
    /// OpenID Connect Core 1.0 §3.1.3.7 step 7: the ID token's `alg` should be RS256 or the algorithm the client
    /// registered in `id_token_signed_response_alg`; Back-Channel Logout 1.0 §2.6 checks a logout token's signature
    /// "in the same way", so a client that names its registered algorithm refuses a logout token signed with another
    /// (the OpenID Foundation's rp-backchannel-rpinitlogout-lt-wrong-alg). Only the asymmetric algorithms the engine
    /// verifies can be named: `none` and the HMAC algorithms are `invalid_configuration`.
    static func idTokenPolicy(_ configuration: ProviderConfiguration) throws -> IDTokenPolicy {
        guard let name = configuration.string("id_token_signed_response_alg") else { return .standard }
        guard let algorithm = JWSAlgorithm(rawValue: name) else {
            throw AuthError(
                .invalidConfiguration, "id_token_signed_response_alg '\(name)' is not an asymmetric signature algorithm the engine verifies (RS256, ES256, PS256, EdDSA, …).",
                providerID: id, configurationKey: "id_token_signed_response_alg")
        }
        var policy = IDTokenPolicy.standard
        policy.allowedAlgorithms = [algorithm]
        return policy
    }

    /// OpenID Connect discovery at the issuer.
    public var endpointSource: EndpointSource { .discovery(issuer: issuer) }

    /// The configured extra parameters.
    public func authorizationParameters(for request: SignInContext) -> [String: String] {
        additionalParameters
    }
}
