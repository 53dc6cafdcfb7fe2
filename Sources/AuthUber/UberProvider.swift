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

    /// Responses without `state` tolerated: Uber documents its callbacks, the apps' SSO hand-off included, with the
    /// request's `state` echoed (https://developer.uber.com/docs/consumer-identity/guides/account-linking), and a
    /// callback with `state` is matched by it as usual. The vendor SDK never sent `state` and its parser's tests feed
    /// `test://app?code=123`, so a callback without it is still accepted, but only for the one login pending for
    /// the redirect, and only when PKCE protects it. `Bearer` when a token response has no `token_type`: Uber's SDK
    /// accepts such responses, and its tokens are bearer tokens.
    public var behavior: ProviderBehavior { ProviderBehavior(acceptsResponsesWithoutState: true, tokenTypeWhenAbsent: "Bearer") }

    /// The client id, redirect and scopes.
    public var client: ClientRegistration {
        // Bearer tokens, as the vendor SDK's: never DPoP-bound because the server's discovery starts advertising it.
        // The authorization request itself is not pushed: Uber's PAR endpoint takes the prefill (`login_hint`) alone,
        // as the vendor SDK sends it, and UberCompat pushes that through the engine's
        // `AuthClient.pushAuthorizationRequest(_:metadata:)`; the request then names the `request_uri` beside its
        // own parameters.
        ClientRegistration(
            clientID: configuration.clientID, redirectURI: configuration.redirectURI, scopes: configuration.scopes, dpop: .never,
            pushedAuthorization: .never)
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
