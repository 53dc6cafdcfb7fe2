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
/// | `parameters` | no | a dictionary of extra authorization parameters |
/// | `ephemeral_session` | no | prefer an ephemeral browser session |
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

    /// Creates a provider in code.
    public init(
        issuer: URL,
        client: ClientRegistration,
        additionalParameters: [String: String] = [:],
        idTokenPolicy: IDTokenPolicy = .standard,
        prefersEphemeralWebSession: Bool = false
    ) {
        self.issuer = issuer
        self.client = client
        self.additionalParameters = additionalParameters
        self.idTokenPolicy = idTokenPolicy
        self.prefersEphemeralWebSession = prefersEphemeralWebSession
    }

    /// Creates a provider from the keys in the table above.
    ///
    /// - Throws: `missing_configuration_key` naming `issuer`, `client_id` or `redirect_uri`;
    ///   `invalid_configuration` for a value of the wrong shape.
    public init(configuration: ProviderConfiguration) throws {
        let issuer = try configuration.requiredURL("issuer", providerID: Self.id)
        let clientID = try configuration.requiredString("client_id", providerID: Self.id)
        let redirectURI = try configuration.requiredURL("redirect_uri", providerID: Self.id)
        var scopes = configuration.scopes("scope") ?? ["openid"]
        if !scopes.contains("openid") { scopes.insert("openid", at: 0) }
        let secret = configuration.string("client_secret").flatMap { $0.isEmpty ? nil : Secret($0) }
        if configuration["parameters"] != nil, configuration.section("parameters") == nil {
            throw AuthError(.invalidConfiguration, "The configuration key 'parameters' must be a dictionary of strings.", providerID: Self.id)
        }
        self.init(
            issuer: issuer,
            client: ClientRegistration(clientID: clientID, clientSecret: secret, redirectURI: redirectURI, scopes: scopes),
            additionalParameters: configuration.stringDictionary("parameters") ?? [:],
            prefersEphemeralWebSession: configuration.bool("ephemeral_session") ?? false
        )
    }

    /// OpenID Connect discovery at the issuer.
    public var endpointSource: EndpointSource { .discovery(issuer: issuer) }

    /// The configured extra parameters.
    public func authorizationParameters(for request: SignInRequest) -> [String: String] {
        additionalParameters
    }
}
