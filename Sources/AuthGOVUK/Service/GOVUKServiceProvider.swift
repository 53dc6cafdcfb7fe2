public import AuthCore
import Foundation

/// GOV.UK One Login for a government web service: discovery, `private_key_jwt` (or `client_secret_post`) at the
/// token endpoint, vectors of trust with identity levels, identity claims requested through `claims`, and no
/// refresh token.
///
/// The registry's `govuk` entry builds this provider for a configuration with a private key or a client secret
/// (see ``GOVUKServiceConfiguration/describesService(_:)``) and ``GOVUKProvider`` (the app SDK's shape) otherwise.
/// After sign-in, `Session.govUKUserInfo()` fetches user info and verifies the core identity JWT.
public struct GOVUKServiceProvider: AuthProvider {
    /// `govuk`: the same provider as the app's, seen from a service.
    public static let id: ProviderID = "govuk"
    /// `GOV.UK One Login`.
    public static let displayName = "GOV.UK One Login"

    /// The service's configuration.
    public let configuration: GOVUKServiceConfiguration

    /// Creates the provider from a typed configuration.
    public init(configuration: GOVUKServiceConfiguration) {
        self.configuration = configuration
    }

    /// Creates the provider from a dictionary (see ``GOVUKServiceConfiguration/init(dictionary:)``).
    public init(configuration: ProviderConfiguration) throws {
        self.init(configuration: try GOVUKServiceConfiguration(dictionary: configuration))
    }

    /// The client id, redirect, post-logout redirect, scopes and the client authentication GOV.UK accepts.
    public var client: ClientRegistration {
        var registration =
            switch configuration.clientAuthentication {
            case .privateKey(let key):
                ClientRegistration(
                    clientID: configuration.clientID, redirectURI: configuration.redirectURI, scopes: configuration.scopes,
                    authenticationMethod: .privateKeyJWT, signingKey: key
                )
            case .clientSecret(let secret):
                ClientRegistration(
                    clientID: configuration.clientID, clientSecret: secret, redirectURI: configuration.redirectURI,
                    scopes: configuration.scopes, authenticationMethod: .clientSecretPost
                )
            }
        // GOV.UK's "Log your users out": the registered logout URI, sent with the ID token and a state at sign-out.
        registration.postLogoutRedirectURI = configuration.postLogoutRedirectURI
        return registration
    }

    /// Discovery from the issuer (whose `issuer` keeps GOV.UK's trailing slash, compared exactly).
    public var endpointSource: EndpointSource { .discovery(issuer: configuration.issuer) }

    /// ES256 and RS256, the algorithms GOV.UK One Login signs ID tokens with; exact issuer comparison.
    public var idTokenPolicy: IDTokenPolicy {
        IDTokenPolicy(allowedAlgorithms: [.es256, .rs256])
    }

    /// Signed request objects, when configured, are addressed to the authorization endpoint: GOV.UK One Login refuses
    /// any other `aud` (its documentation, "Authenticate your user", and its simulator).
    public var behavior: ProviderBehavior {
        ProviderBehavior(usesSignedRequestObject: configuration.usesSignedRequestObject, requestObjectAudience: .authorizationEndpoint)
    }

    /// `vtr`, `ui_locales` when set, and `claims` (`{"userinfo": {<claim URI>: null, …}}`) for identity claims.
    public func authorizationParameters(for request: SignInContext) -> [String: String] {
        var parameters = ["vtr": VectorOfTrust.parameter(for: configuration.vectorsOfTrust)]
        if let locale = configuration.locale { parameters["ui_locales"] = locale.rawValue }
        if !configuration.identityClaims.isEmpty {
            let requested = configuration.identityClaims.map(\.rawValue).sorted().map { "\"\($0)\":null" }
            parameters["claims"] = "{\"userinfo\":{" + requested.joined(separator: ",") + "}}"
        }
        return parameters
    }

    /// The ID token must carry a `vot` that reaches the requested credential trust (`vot_not_satisfied`), and the
    /// response must state the access token's lifetime, which is the session's (there is no refresh token).
    public func validate(_ result: SignInResult, for request: SignInContext) throws {
        guard result.tokens.expiresIn != nil else {
            throw AuthError(.invalidResponse, "The GOV.UK One Login token response has no 'expires_in'.", providerID: Self.id)
        }
        try VectorOfTrust.checkIDTokenVot(
            result.idTokenClaims?["vot"]?.stringValue,
            requested: configuration.vectorsOfTrust,
            required: true
        )
    }
}

extension GOVUKProvider {
    /// The provider a `govuk` configuration describes: ``GOVUKServiceProvider`` for a web service (a private key, a
    /// client secret, or `"kind": "service"`), ``GOVUKProvider`` for an app using the vendor's mobile SDK shape.
    /// The built-in registry's `govuk` entry uses it.
    public static func appOrService(configuration: ProviderConfiguration) throws -> any AuthProvider {
        if GOVUKServiceConfiguration.describesService(configuration) {
            return try GOVUKServiceProvider(configuration: configuration)
        }
        return try GOVUKProvider(configuration: configuration)
    }
}
