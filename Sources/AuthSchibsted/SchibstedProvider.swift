public import AuthCore
import Foundation

/// Schibsted account: fixed endpoints per environment, `X-OIDC: v1` on token requests (retried once on a 5xx or
/// a transport failure), MFA through `acr_values` checked against the ID token's `amr`, otherwise
/// `prompt=select_account`, and the issuer compared ignoring a trailing `/`.
public struct SchibstedProvider: AuthProvider {
    /// `schibsted`.
    public static let id: ProviderID = "schibsted"
    /// `Schibsted account`.
    public static let displayName = "Schibsted account"

    /// The configuration.
    public let configuration: SchibstedConfiguration
    /// Sent as `User-Agent` on token requests when set: Schibsted's SDKs identify themselves so (5.x
    /// `AccountSDKIOSWeb/<version> (…)`, 6.x `SchibstedAccountSDKiOS/<version> (…)`, account-sdk-ios-web
    /// `URLSession+Extensions.swift`); SchibstedCompat sets its own.
    public let sdkUserAgent: String?

    /// Creates the provider from a typed configuration.
    public init(configuration: SchibstedConfiguration, sdkUserAgent: String? = nil) {
        self.configuration = configuration
        self.sdkUserAgent = sdkUserAgent
    }

    /// Creates the provider from a dictionary (see `SchibstedConfiguration/init(_:)`).
    public init(configuration: ProviderConfiguration) throws {
        self.init(configuration: try SchibstedConfiguration(configuration))
    }

    /// `Bearer` when a token response has no `token_type`: Schibsted's SDK accepts such responses, and its tokens
    /// are bearer tokens. One retry of a token request on a 5xx or a transport failure, as the vendor SDK does.
    public var behavior: ProviderBehavior { ProviderBehavior(tokenRequestRetries: 1, tokenTypeWhenAbsent: "Bearer") }

    /// The client, with the scopes every Schibsted login requests: `openid offline_access`.
    public var client: ClientRegistration {
        // Bearer tokens, as the vendor SDK's: never DPoP-bound because the server's discovery starts advertising it.
        ClientRegistration(clientID: configuration.clientId, redirectURI: configuration.redirectURI, scopes: ["openid", "offline_access"], dpop: .never)
    }

    /// `/oauth/authorize`, `/oauth/token`, `/oauth/jwks`, `/oauth/userinfo` on the environment's server.
    public var endpointSource: EndpointSource {
        let environment = configuration.environment
        return .fixed(
            ProviderMetadata(
                issuer: configuration.issuer,
                authorizationEndpoint: environment.endpoint("/oauth/authorize"),
                tokenEndpoint: environment.endpoint("/oauth/token"),
                jwksURI: environment.endpoint("/oauth/jwks"),
                userinfoEndpoint: environment.endpoint("/oauth/userinfo")
            )
        )
    }

    /// The issuer compared ignoring a trailing `/`, as the vendor SDK does.
    public var idTokenPolicy: IDTokenPolicy { IDTokenPolicy(issuerComparison: .ignoringTrailingSlash) }

    /// Without MFA, `prompt=select_account`; with MFA the engine sends `acr_values` and no prompt.
    public func authorizationParameters(for request: SignInContext) -> [String: String] {
        request.options.acrValues.isEmpty && request.options.prompt.isEmpty ? ["prompt": "select_account"] : [:]
    }

    /// `X-OIDC: v1`, which Schibsted's token endpoint requires, and ``sdkUserAgent`` when set.
    public func tokenRequestHeaders(for grant: TokenGrant) -> [String: String] {
        var headers = ["X-OIDC": "v1"]
        headers["User-Agent"] = sdkUserAgent
        return headers
    }

    /// With MFA requested, the ID token's `amr` must contain it; for a country eID (`eid-se`, …) it must contain
    /// `eid`, which is what Schibsted's server reports and what the vendor SDK checks.
    ///
    /// - Throws: `provider_validation_failed` (Schibsted's `missingExpectedMFA`).
    public func validate(_ result: SignInResult, for request: SignInContext) throws {
        guard let requested = request.options.acrValues.first.flatMap(MFAType.init(rawValue:)) else { return }
        let amr = result.idTokenClaims?.authenticationMethods ?? []
        guard requested.isSatisfied(by: amr) else {
            throw AuthError(
                .providerValidationFailed,
                "The login did not use the required authentication method '\(requested.rawValue)': the ID token's amr (\(amr.joined(separator: ", "))) does not contain '\(requested.expectedAMRValue)'."
            )
        }
    }
}
