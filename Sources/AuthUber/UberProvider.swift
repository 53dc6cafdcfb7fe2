public import AuthCore
import Foundation

/// Uber: fixed endpoints on `auth.uber.com` (`/oauth/v2/universal/authorize`, `/oauth/v2/token`,
/// `/oauth/v2/par`); no ID token, so no discovery and no JWKS. Routes and prefill live in `UberAuth`.
public struct UberProvider: AuthProvider {
    /// `uber`.
    public static let id: ProviderID = "uber"
    /// `Uber`.
    public static let displayName = "Uber"

    /// The configuration.
    public let configuration: UberConfiguration

    /// Creates the provider from a typed configuration.
    public init(configuration: UberConfiguration) {
        self.configuration = configuration
    }

    /// Creates the provider from the `Uber` Info.plist dictionary.
    public init(configuration: ProviderConfiguration) throws {
        self.init(configuration: try UberConfiguration(configuration))
    }

    /// Responses without `state` accepted: the Uber apps call back with only `code` (the vendor SDK never sent
    /// `state`; its tests call back with `test://app?code=123`); such a callback is accepted only for the one login
    /// pending, which PKCE protects. `Bearer` when a token response has no `token_type`: Uber's SDK accepts such
    /// responses, and its tokens are bearer tokens.
    public var behavior: ProviderBehavior { ProviderBehavior(acceptsResponsesWithoutState: true, tokenTypeWhenAbsent: "Bearer") }

    /// The client id, redirect and scopes.
    public var client: ClientRegistration {
        ClientRegistration(clientID: configuration.clientID, redirectURI: configuration.redirectURI, scopes: configuration.scopes)
    }

    /// Fixed endpoints; the in-app authorize path.
    public var endpointSource: EndpointSource {
        .fixed(
            ProviderMetadata(
                issuer: configuration.authServer.absoluteString,
                authorizationEndpoint: configuration.authorizeEndpoint("universal"),
                tokenEndpoint: configuration.authServer.appendingPathComponent("oauth/v2/token"),
                pushedAuthorizationRequestEndpoint: configuration.authServer.appendingPathComponent("oauth/v2/par")
            )
        )
    }
}
