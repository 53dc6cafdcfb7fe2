public import AuthCore
import AuthOIDC

/// Acme's identity service: standard OpenID Connect plus one `tenant` parameter.
public struct AcmeProvider: AuthProvider {
    /// `acme`.
    public static let id: ProviderID = "acme"
    /// `Acme`.
    public static let displayName = "Acme"

    let oidc: OpenIDProvider
    let tenant: String

    /// Reads the standard keys (`issuer`, `client_id`, `redirect_uri`, `scope`) and Acme's `tenant`.
    public init(configuration: ProviderConfiguration) throws {
        oidc = try OpenIDProvider(configuration: configuration)
        tenant = try configuration.requiredString("tenant", providerID: Self.id)
    }

    /// The client registration.
    public var client: ClientRegistration { oidc.client }
    /// Discovery at the issuer.
    public var endpointSource: EndpointSource { oidc.endpointSource }

    /// Acme's one variation.
    public func authorizationParameters(for request: SignInContext) -> [String: String] {
        ["tenant": tenant]
    }
}

extension ProviderRegistry {
    /// Registers Acme's provider (the pattern third-party packages expose).
    public mutating func registerAcme() {
        register(AcmeProvider.self)
    }
}
