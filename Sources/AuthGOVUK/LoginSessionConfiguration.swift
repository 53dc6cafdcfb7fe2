import AuthCore
public import Foundation

/// GOV.UK One Login's session configuration, shaped like the vendor SDK's `LoginSessionConfiguration`.
///
/// There is no discovery: the endpoints are configured (`Environment` fills them for the real services).
/// Beyond the vendor's fields, `jwksEndpoint` and `userInfoEndpoint` let the ID token be verified and user
/// info be fetched — the vendor SDK did not verify ID token signatures (safer here).
public struct LoginSessionConfiguration: Sendable, Hashable {
    /// The response type; only the authorization code flow exists.
    public enum ResponseType: String, Sendable, Hashable {
        /// `code`.
        case code
    }

    /// The language of the sign-in pages (`ui_locales`).
    public enum UILocale: String, Sendable, Hashable {
        /// English.
        case en
        /// Welsh.
        case cy
    }

    /// GOV.UK One Login's environments.
    public enum Environment: String, Sendable, CaseIterable {
        /// `https://oidc.account.gov.uk`.
        case production
        /// `https://oidc.integration.account.gov.uk`.
        case integration

        /// The environment's issuer.
        public var issuer: URL {
            switch self {
            case .production: URL(string: "https://oidc.account.gov.uk/")!
            case .integration: URL(string: "https://oidc.integration.account.gov.uk/")!
            }
        }

        func endpoint(_ path: String) -> URL { issuer.appendingPathComponent(path) }
    }

    /// The default scopes: `openid email phone offline_access`.
    public static let defaultScopes = ["openid", "email", "phone", "offline_access"]
    /// The default vector of trust: `Cl.Cm.P0` (medium confidence authentication, no identity proofing).
    public static let defaultVectorsOfTrust = ["Cl.Cm.P0"]

    /// The authorization endpoint.
    public var authorizationEndpoint: URL
    /// The token endpoint.
    public var tokenEndpoint: URL
    /// The issuer, compared with the ID token's `iss` ignoring one trailing `/`; when `nil`, the authorization
    /// endpoint's origin.
    public var issuer: URL?
    /// The JWKS endpoint; when `nil`, `<issuer>/.well-known/jwks.json`.
    public var jwksEndpoint: URL?
    /// The user info endpoint; when `nil`, `<issuer>/userinfo`.
    public var userInfoEndpoint: URL?
    /// The response type.
    public var responseType: ResponseType
    /// The scopes.
    public var scopes: [String]
    /// The client id.
    public var clientID: String
    /// The redirect URI: a claimed `https` universal link.
    public var redirectURI: URL
    /// Whether the browser session is ephemeral (no shared cookies). Default `true`.
    public var prefersEphemeralWebSession: Bool
    /// The vectors of trust, sent as the JSON array text in `vtr`.
    public var vectorsOfTrust: [String]
    /// The page language.
    public var locale: UILocale
    /// A persistent session id, sent as `govuk_signin_session_id`.
    public var persistentSessionID: String?
    /// Extra token request parameters.
    public var tokenParameters: [String: String]
    /// Extra token request headers.
    public var tokenHeaders: [String: String]

    /// Creates a configuration; see the properties for the defaults.
    ///
    /// - Throws: `invalid_configuration` when the redirect is not `https`, `openid` is not among the scopes, the
    ///   vectors of trust are empty or malformed, or the client id is empty.
    public init(
        authorizationEndpoint: URL,
        tokenEndpoint: URL,
        issuer: URL? = nil,
        jwksEndpoint: URL? = nil,
        userInfoEndpoint: URL? = nil,
        responseType: ResponseType = .code,
        scopes: [String] = LoginSessionConfiguration.defaultScopes,
        clientID: String,
        redirectURI: URL,
        prefersEphemeralWebSession: Bool = true,
        vectorsOfTrust: [String] = LoginSessionConfiguration.defaultVectorsOfTrust,
        locale: UILocale = .en,
        persistentSessionID: String? = nil,
        tokenParameters: [String: String] = [:],
        tokenHeaders: [String: String] = [:]
    ) throws {
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.issuer = issuer
        self.jwksEndpoint = jwksEndpoint
        self.userInfoEndpoint = userInfoEndpoint
        self.responseType = responseType
        self.scopes = scopes
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.prefersEphemeralWebSession = prefersEphemeralWebSession
        self.vectorsOfTrust = vectorsOfTrust
        self.locale = locale
        self.persistentSessionID = persistentSessionID
        self.tokenParameters = tokenParameters
        self.tokenHeaders = tokenHeaders
        try validate()
    }

    /// A configuration for one of the real environments.
    public static func oneLogin(
        _ environment: Environment,
        clientID: String,
        redirectURI: URL,
        vectorsOfTrust: [String] = defaultVectorsOfTrust,
        locale: UILocale = .en
    ) throws -> LoginSessionConfiguration {
        try LoginSessionConfiguration(
            authorizationEndpoint: environment.endpoint("authorize"),
            tokenEndpoint: environment.endpoint("token"),
            issuer: environment.issuer,
            jwksEndpoint: environment.endpoint(".well-known/jwks.json"),
            userInfoEndpoint: environment.endpoint("userinfo"),
            clientID: clientID,
            redirectURI: redirectURI,
            vectorsOfTrust: vectorsOfTrust,
            locale: locale
        )
    }

    /// The issuer actually compared: the configured one, or the authorization endpoint's origin.
    public var effectiveIssuer: URL {
        if let issuer { return issuer }
        var components = URLComponents(url: authorizationEndpoint, resolvingAgainstBaseURL: false)!
        components.path = "/"
        components.query = nil
        return components.url!
    }

    /// `vtr`: the vectors of trust as JSON array text, brackets and quotes included (`["Cl.Cm.P0"]`).
    public var vectorsOfTrustParameter: String {
        "[" + vectorsOfTrust.map { "\"\($0)\"" }.joined(separator: ",") + "]"
    }

    private func validate() throws {
        let id = GOVUKProvider.id
        guard !clientID.isEmpty else {
            throw AuthError(.missingConfigurationKey, "The GOV.UK One Login 'clientID' is empty.", providerID: id)
        }
        guard redirectURI.scheme?.lowercased() == "https" else {
            throw AuthError(.invalidConfiguration, "The GOV.UK One Login 'redirectURI' must be a claimed https universal link; got \(redirectURI.absoluteString).", providerID: id)
        }
        guard scopes.contains("openid") else {
            throw AuthError(.invalidConfiguration, "The GOV.UK One Login 'scopes' must include openid.", providerID: id)
        }
        guard !vectorsOfTrust.isEmpty, vectorsOfTrust.allSatisfy(Self.isVectorOfTrust) else {
            throw AuthError(.invalidConfiguration, "'vectorsOfTrust' must look like Cl.Cm or Cl.Cm.P2 (components Cl, Cm, P0–P4); got \(vectorsOfTrust).", providerID: id)
        }
    }

    /// A vector is dot-separated components from the GOV.UK trust framework: `Cl`, `Cm`, `P0`…`P4` (and `Pcl…`).
    static func isVectorOfTrust(_ vector: String) -> Bool {
        let components = vector.split(separator: ".", omittingEmptySubsequences: false)
        return !components.isEmpty && components.allSatisfy { component in
            component.count >= 2 && component.count <= 4 && component.first.map { "CP".contains($0) } == true
                && component.dropFirst().allSatisfy { $0.isLetter || $0.isNumber }
        }
    }
}
