public import AuthCore
import Foundation

/// GOV.UK One Login: fixed endpoints, vectors of trust (`vtr`), Welsh or English pages (`ui_locales`), an optional
/// persistent session id, an ephemeral web session by default, and a claimed `https` redirect.
public struct GOVUKProvider: AuthProvider {
    /// `govuk`.
    public static let id: ProviderID = "govuk"
    /// `GOV.UK One Login`.
    public static let displayName = "GOV.UK One Login"

    /// The session configuration.
    public let configuration: GOVUKAppConfiguration

    /// Creates the provider from a typed configuration.
    public init(configuration: GOVUKAppConfiguration) {
        self.configuration = configuration
    }

    /// Creates the provider from a dictionary (see `GOVUKAppConfiguration/init(dictionary:)`).
    public init(configuration: ProviderConfiguration) throws {
        self.init(configuration: try GOVUKAppConfiguration(dictionary: configuration))
    }

    /// The client id, redirect and scopes.
    public var client: ClientRegistration {
        // Bearer tokens, as the vendor library's: never DPoP-bound because the server's discovery starts advertising it.
        ClientRegistration(clientID: configuration.clientID, redirectURI: configuration.redirectURI, scopes: configuration.scopeValues, dpop: .never)
    }

    /// Fixed endpoints: GOV.UK One Login's SDK does not use discovery.
    public var endpointSource: EndpointSource {
        let issuer = configuration.effectiveIssuer
        return .fixed(
            ProviderMetadata(
                issuer: issuer.absoluteString,
                authorizationEndpoint: configuration.authorizationEndpoint,
                tokenEndpoint: configuration.tokenEndpoint,
                jwksURI: configuration.jwksEndpoint ?? issuer.appendingPathComponent(".well-known/jwks.json"),
                userinfoEndpoint: configuration.effectiveUserInfoEndpoint
            )
        )
    }

    /// Standard validation, with the issuer compared ignoring one trailing `/` (the service publishes
    /// `https://oidc.account.gov.uk/`). ES256 is pinned too: GOV.UK One Login signs ID tokens with it.
    public var idTokenPolicy: IDTokenPolicy {
        IDTokenPolicy(allowedAlgorithms: [.es256, .rs256], issuerComparison: .ignoringTrailingSlash)
    }

    /// An ephemeral web session unless configured otherwise; otherwise standard.
    public var behavior: ProviderBehavior { ProviderBehavior(prefersEphemeralWebSession: configuration.prefersEphemeralWebSession) }

    /// `vtr` (JSON array text), `ui_locales`, and `govuk_signin_session_id` when set.
    public func authorizationParameters(for request: SignInContext) -> [String: String] {
        var parameters = ["vtr": configuration.vectorsOfTrustParameter, "ui_locales": configuration.locale.rawValue]
        if let session = configuration.persistentSessionID, !session.isEmpty {
            parameters["govuk_signin_session_id"] = session
        }
        return parameters
    }

    /// The configured extra token headers, computed now; sent with the code exchange (and with refreshes only when
    /// `sendsTokenExtrasOnRefresh` is set: the vendor SDK never refreshes).
    public func tokenRequestHeaders(for grant: TokenGrant) async throws -> [String: String] {
        guard sendsTokenExtras(for: grant) else { return [:] }
        return try await configuration.tokenHeaders() ?? [:]
    }

    /// The configured extra token parameters, computed now; sent as ``tokenRequestHeaders(for:)`` are.
    public func tokenRequestParameters(for grant: TokenGrant) async throws -> [String: String] {
        guard sendsTokenExtras(for: grant) else { return [:] }
        return try await configuration.tokenParameters() ?? [:]
    }

    private func sendsTokenExtras(for grant: TokenGrant) -> Bool {
        if case .refreshToken = grant { return configuration.sendsTokenExtrasOnRefresh }
        return true
    }

    /// GOV.UK One Login always states the access token's lifetime; a response without `expires_in` is refused
    /// (the engine has already required the access token and token type, and validated the ID token). An ID token
    /// `vot` below the requested vectors of trust is refused (`vot_not_satisfied`).
    public func validate(_ result: SignInResult, for request: SignInContext) throws {
        guard result.tokens.expiresIn != nil else {
            throw AuthError(.invalidResponse, "The GOV.UK One Login token response has no 'expires_in'.", providerID: Self.id)
        }
        // The app configuration accepts vectors this parser does not know (for forward compatibility); those are
        // not compared.
        let requested = configuration.vectorsOfTrust.compactMap { try? VectorOfTrust(parsing: $0) }
        try VectorOfTrust.checkIDTokenVot(result.idTokenClaims?["vot"]?.stringValue, requested: requested, required: false)
    }
}
