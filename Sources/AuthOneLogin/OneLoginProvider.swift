public import AuthCore
import Foundation

/// OneLogin as an OpenID Connect provider: discovery at the issuer, the standard code flow with PKCE, and every
/// unrecognised configuration key sent as an authorization parameter.
public struct OneLoginProvider: AuthProvider {
    /// `onelogin`.
    public static let id: ProviderID = "onelogin"
    /// `OneLogin`.
    public static let displayName = "OneLogin"

    /// The configuration.
    public let configuration: OneLoginConfiguration
    /// Whether the browser session should be ephemeral (no shared cookies).
    public let prefersEphemeralWebSession: Bool
    /// Whether tokens are bound to a DPoP key. `.never` by default: the vendor SDK (AppAuth) only ever used Bearer
    /// tokens, and an app migrating from it sends `Authorization: Bearer …` itself — tokens that turned DPoP-bound
    /// because a tenant's discovery document started advertising DPoP would break those calls. Opt in with
    /// `.whenAdvertised` or `.always`.
    public let dpop: DPoPUsage

    /// Creates the provider from a typed configuration.
    public init(configuration: OneLoginConfiguration, ephemeralSession: Bool = false, dpop: DPoPUsage = .never) {
        self.configuration = configuration
        self.prefersEphemeralWebSession = ephemeralSession
        self.dpop = dpop
    }

    /// Creates the provider from a configuration dictionary (see `OneLoginConfiguration`).
    public init(configuration: ProviderConfiguration) throws {
        self.init(configuration: try OneLoginConfiguration(configuration))
    }

    /// An ephemeral web session when configured so; otherwise standard.
    public var behavior: ProviderBehavior { ProviderBehavior(prefersEphemeralWebSession: prefersEphemeralWebSession) }

    /// The client id, redirect and scopes; Bearer tokens unless ``dpop`` opts in.
    public var client: ClientRegistration {
        ClientRegistration(clientID: configuration.clientId, redirectURI: configuration.redirectUri, scopes: configuration.scopes, dpop: dpop)
    }

    /// Discovery at `issuer/.well-known/openid-configuration`.
    public var endpointSource: EndpointSource { .discovery(issuer: configuration.issuer) }

    /// Revocation and introspection at `<token_endpoint>/revocation` and `<token_endpoint>/introspection` when the
    /// discovery document does not name them — where OneLogin serves them, and where the vendor SDK always sends.
    public func completedMetadata(_ metadata: ProviderMetadata) -> ProviderMetadata {
        var completed = metadata
        if completed.revocationEndpoint == nil { completed.revocationEndpoint = metadata.tokenEndpoint.appendingPathComponent("revocation") }
        if completed.introspectionEndpoint == nil {
            completed.introspectionEndpoint = metadata.tokenEndpoint.appendingPathComponent("introspection")
        }
        return completed
    }

    /// The configuration's additional parameters.
    public func authorizationParameters(for request: SignInContext) -> [String: String] {
        configuration.additionalParameters
    }
}
