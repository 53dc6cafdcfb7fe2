import AuthCore
public import Foundation

/// GOV.UK One Login's session configuration, shaped like the vendor SDK's `LoginSessionConfiguration` (GOVUKCompat's name for it).
///
/// There is no discovery: the endpoints are configured (`Environment` fills them for the real services).
/// Beyond the vendor's fields, `jwksEndpoint` and `userInfoEndpoint` let the ID token be verified and user
/// info be fetched — the vendor SDK did not verify ID token signatures (safer here). Every field is a `let`, checked
/// once by the initializer, as in the vendor SDK.
public struct GOVUKAppConfiguration: Sendable {
    /// A scope, as the vendor SDK spells them (`.openid`, `.email`, `.phone`, `.offline_access`, `.custom("…")`);
    /// string literals work too.
    public enum Scope: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// `openid`.
        case openid
        /// `email`.
        case email
        /// `phone`.
        case phone
        /// `offline_access` (a refresh token).
        case offline_access  // swiftlint:disable:this identifier_name
        /// Any other scope.
        case custom(String)

        /// The scope for its text.
        public init(rawValue: String) {
            switch rawValue {
            case "openid": self = .openid
            case "email": self = .email
            case "phone": self = .phone
            case "offline_access": self = .offline_access
            default: self = .custom(rawValue)
            }
        }

        /// The scope for a string literal.
        public init(stringLiteral value: String) { self.init(rawValue: value) }

        /// The scope's text.
        public var rawValue: String {
            switch self {
            case .openid: "openid"
            case .email: "email"
            case .phone: "phone"
            case .offline_access: "offline_access"
            case .custom(let scope): scope
            }
        }

        /// The scope's text.
        public var description: String { rawValue }
    }

    /// Computes extra token request parameters or headers at each code exchange (the vendor's `TokenParameters` /
    /// `TokenHeaders` closures): an app can fetch an attestation or a fresh value there.
    public typealias TokenExtras = @Sendable () async throws -> [String: String]?

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
    ///
    /// Each has two servers: the OpenID provider government web services sign in with (``issuer``,
    /// `https://oidc.(integration.)account.gov.uk/`, used by `GOVUKServiceConfiguration`), and the secure token service
    /// (STS) GOV.UK's own app signs in with (``tokenServiceBaseURL``, `https://token.(integration.)account.gov.uk`,
    /// used by ``GOVUKAppConfiguration/oneLogin(_:clientID:redirectURI:scopes:vectorsOfTrust:locale:persistentSessionID:tokenHeaders:)``).
    public enum Environment: String, Sendable, CaseIterable {
        /// `https://oidc.account.gov.uk/` for services; `https://token.account.gov.uk` for the app.
        case production
        /// `https://oidc.integration.account.gov.uk/` for services; `https://token.integration.account.gov.uk` for the app.
        case integration

        /// The issuer of the OpenID provider government web services use (trailing slash included, as GOV.UK
        /// publishes it).
        public var issuer: URL {
            switch self {
            case .production: URL(string: "https://oidc.account.gov.uk/")!
            case .integration: URL(string: "https://oidc.integration.account.gov.uk/")!
            }
        }

        /// The base URL of the secure token service GOV.UK's own app signs in with: `token.` before the environment's
        /// domain (the vendor app's `STS_BASE_URL = token.$(ENVIRONMENT_BASE_URL)` in
        /// `Sources/Application/Environment/Configuration/OneLoginRelease.xcconfig` and `OneLoginIntegration.xcconfig`
        /// of govuk-one-login/mobile-ios-one-login-app).
        public var tokenServiceBaseURL: URL {
            switch self {
            case .production: URL(string: "https://token.account.gov.uk")!
            case .integration: URL(string: "https://token.integration.account.gov.uk")!
            }
        }

        /// `<sts>/<path>`, as the vendor app's `AppEnvironment` builds `stsAuthorize`, `stsToken` and `jwksURL`.
        func tokenServiceEndpoint(_ path: String) -> URL { tokenServiceBaseURL.appendingPathComponent(path) }
    }

    /// The default scopes of the vendor SDK's initializer: `openid email phone offline_access`.
    public static let defaultScopes: [Scope] = [.openid, .email, .phone, .offline_access]
    /// The scopes GOV.UK's own app asks its secure token service for: `openid` only
    /// (`LoginSessionConfiguration+OneLogin.swift` of mobile-ios-one-login-app). The STS still issues a refresh token
    /// (the app stores and redeems it: `PersistentSessionManager.swift`, `RefreshTokenExchangeManager.swift`).
    public static let tokenServiceScopes: [Scope] = [.openid]
    /// The default vector of trust: `Cl.Cm.P0` (medium confidence authentication, no identity proofing).
    public static let defaultVectorsOfTrust = ["Cl.Cm.P0"]

    /// The authorization endpoint.
    public let authorizationEndpoint: URL
    /// The token endpoint.
    public let tokenEndpoint: URL
    /// The issuer, compared with the ID token's `iss` ignoring one trailing `/`; when `nil`, the authorization
    /// endpoint's origin.
    public let issuer: URL?
    /// The JWKS endpoint; when `nil`, `<issuer>/.well-known/jwks.json`.
    public let jwksEndpoint: URL?
    /// The user info endpoint; when `nil`, `<issuer>/userinfo`, except at GOV.UK's secure token service, which
    /// publishes none (see ``effectiveUserInfoEndpoint``).
    public let userInfoEndpoint: URL?
    /// The response type.
    public let responseType: ResponseType
    /// The scopes.
    public let scopes: [Scope]
    /// The client id.
    public let clientID: String
    /// The redirect URI: a claimed `https` universal link.
    public let redirectURI: URL
    /// Whether the browser session is ephemeral (no shared cookies). Default `true`.
    public let prefersEphemeralWebSession: Bool
    /// The vectors of trust, sent as the JSON array text in `vtr`.
    public let vectorsOfTrust: [String]
    /// The page language.
    public let locale: UILocale
    /// A persistent session id, sent as `govuk_signin_session_id`.
    public let persistentSessionID: String?
    /// Extra token request parameters, computed at each code exchange.
    public let tokenParameters: TokenExtras
    /// Extra token request headers, computed at each code exchange.
    public let tokenHeaders: TokenExtras
    /// Set by the dictionary key `tokenService` (an emulated token service served at another address): the
    /// configuration signs in at a GOV.UK secure token service whatever its issuer's host.
    var marksTokenService = false
    /// Whether the extra parameters and headers are sent on refresh too. The vendor SDK never refreshes, so by
    /// default they go with the code exchange only; the ``oneLogin(_:clientID:redirectURI:scopes:vectorsOfTrust:locale:persistentSessionID:tokenHeaders:)``
    /// presets set it, as GOV.UK's app attests its refreshes too.
    public let sendsTokenExtrasOnRefresh: Bool

    /// Creates a configuration; see the properties for the defaults. `tokenParameters` and `tokenHeaders` are fixed
    /// here; the vendor-shaped `async` initializer takes them as values computed at each code exchange.
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
        scopes: [Scope] = GOVUKAppConfiguration.defaultScopes,
        clientID: String,
        redirectURI: URL,
        prefersEphemeralWebSession: Bool = true,
        vectorsOfTrust: [String] = GOVUKAppConfiguration.defaultVectorsOfTrust,
        locale: UILocale = .en,
        persistentSessionID: String? = nil,
        tokenParameters: [String: String] = [:],
        tokenHeaders: [String: String] = [:],
        sendsTokenExtrasOnRefresh: Bool = false
    ) throws {
        try self.init(
            endpoints: (authorizationEndpoint, tokenEndpoint, issuer, jwksEndpoint, userInfoEndpoint),
            responseType: responseType, scopes: scopes, clientID: clientID, redirectURI: redirectURI,
            prefersEphemeralWebSession: prefersEphemeralWebSession, vectorsOfTrust: vectorsOfTrust, locale: locale,
            persistentSessionID: persistentSessionID,
            tokenParameters: { tokenParameters.isEmpty ? nil : tokenParameters },
            tokenHeaders: { tokenHeaders.isEmpty ? nil : tokenHeaders },
            sendsTokenExtrasOnRefresh: sendsTokenExtrasOnRefresh
        )
    }

    /// The one place every field is set and checked.
    init(
        endpoints: (authorization: URL, token: URL, issuer: URL?, jwks: URL?, userInfo: URL?),
        responseType: ResponseType,
        scopes: [Scope],
        clientID: String,
        redirectURI: URL,
        prefersEphemeralWebSession: Bool,
        vectorsOfTrust: [String],
        locale: UILocale,
        persistentSessionID: String?,
        tokenParameters: @escaping TokenExtras,
        tokenHeaders: @escaping TokenExtras,
        sendsTokenExtrasOnRefresh: Bool
    ) throws {
        self.authorizationEndpoint = endpoints.authorization
        self.tokenEndpoint = endpoints.token
        self.issuer = endpoints.issuer
        self.jwksEndpoint = endpoints.jwks
        self.userInfoEndpoint = endpoints.userInfo
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
        self.sendsTokenExtrasOnRefresh = sendsTokenExtrasOnRefresh
        try validate()
    }

    /// A configuration for one of the real environments, as GOV.UK's own app signs in
    /// (`LoginSessionConfiguration+OneLogin.swift` and `AppEnvironment.swift` of
    /// govuk-one-login/mobile-ios-one-login-app): the environment's secure token service — `<sts>/authorize`,
    /// `<sts>/token`, `<sts>/.well-known/jwks.json`, issuer `<sts>` — scope `openid`, and the app's attestation
    /// headers on every token request.
    ///
    /// The STS authenticates the app by its attestation, not by a secret: the vendor app sends the headers its
    /// `FirebaseAppIntegrityService.integrityAssertions` returns (`OAuth-Client-Attestation`,
    /// `OAuth-Client-Attestation-PoP` and `DPoP`) with the code exchange and with each refresh
    /// (`URLRequest+OneLogin.swift`, `refreshTokenExchange`), so `tokenHeaders` is required and is computed afresh for
    /// every token request (``sendsTokenExtrasOnRefresh`` is `true`). Government web services use
    /// `GOVUKServiceConfiguration` (the `oidc.` provider, with a private key) instead.
    ///
    /// GOV.UK's STS publishes no user-info endpoint: its app reads the user from the ID token's claims, and so does
    /// `UserService` (GOVUKCompat) here (``effectiveUserInfoEndpoint`` is `nil`).
    ///
    /// - Parameters:
    ///   - environment: production or integration.
    ///   - clientID: the app's STS client id.
    ///   - redirectURI: the app's claimed `https` universal link.
    ///   - scopes: `openid` by default, as the vendor app; `offline_access` is refused (the STS issues refresh
    ///     tokens without it, and GOV.UK's provider answers it with `invalid_scope`).
    ///   - vectorsOfTrust: sent as `vtr`.
    ///   - locale: the page language (`ui_locales`).
    ///   - persistentSessionID: sent as `govuk_signin_session_id` (the vendor app's `persistentSessionId`).
    ///   - tokenHeaders: the attestation headers, computed at each token request (a fresh proof each time).
    /// - Throws: `invalid_configuration` for `offline_access`, or for what the main initializer refuses.
    public static func oneLogin(
        _ environment: Environment,
        clientID: String,
        redirectURI: URL,
        scopes: [Scope] = tokenServiceScopes,
        vectorsOfTrust: [String] = defaultVectorsOfTrust,
        locale: UILocale = .en,
        persistentSessionID: String? = nil,
        tokenHeaders: @escaping TokenExtras
    ) throws -> GOVUKAppConfiguration {
        guard !scopes.contains(.offline_access) else {
            throw AuthError(
                .invalidConfiguration,
                "GOV.UK One Login's token service refuses the 'scopes' value offline_access (invalid_scope); it issues a refresh token to the app without it.",
                providerID: GOVUKProvider.id)
        }
        return try GOVUKAppConfiguration(
            endpoints: (
                environment.tokenServiceEndpoint("authorize"),
                environment.tokenServiceEndpoint("token"),
                environment.tokenServiceBaseURL,
                environment.tokenServiceEndpoint(".well-known/jwks.json"),
                nil
            ),
            responseType: .code, scopes: scopes, clientID: clientID, redirectURI: redirectURI,
            prefersEphemeralWebSession: true, vectorsOfTrust: vectorsOfTrust, locale: locale,
            persistentSessionID: persistentSessionID,
            tokenParameters: { nil },
            tokenHeaders: tokenHeaders,
            sendsTokenExtrasOnRefresh: true
        )
    }

    /// Whether this configuration signs in at a GOV.UK secure token service (STS): its issuer is one of
    /// ``Environment/tokenServiceBaseURL`` (the ``oneLogin(_:clientID:redirectURI:scopes:vectorsOfTrust:locale:persistentSessionID:tokenHeaders:)``
    /// presets, or the vendor-shaped initializer pointed at `https://token.…account.gov.uk/authorize`).
    public var isTokenService: Bool {
        marksTokenService || Environment.allCases.contains { $0.tokenServiceBaseURL.host == effectiveIssuer.host }
    }

    /// The user info endpoint actually used: the configured one; none at a GOV.UK secure token service, which
    /// publishes no user-info endpoint (GOV.UK's own app reads the user from the ID token: `IdTokenPayload.swift`
    /// and `IDTokenUserRepresentation.swift` of govuk-one-login/mobile-ios-one-login-app); otherwise
    /// `<issuer>/userinfo`. Without one, `UserService` (GOVUKCompat) takes the user from the verified ID token.
    public var effectiveUserInfoEndpoint: URL? {
        if let userInfoEndpoint { return userInfoEndpoint }
        return isTokenService ? nil : effectiveIssuer.appendingPathComponent("userinfo")
    }

    /// The issuer actually compared: the configured one, or the authorization endpoint's origin.
    public var effectiveIssuer: URL {
        if let issuer { return issuer }
        var components = URLComponents(url: authorizationEndpoint, resolvingAgainstBaseURL: false)!
        components.path = "/"
        components.query = nil
        return components.url!
    }

    /// `vtr`: the vectors of trust as the vendor SDK writes them — Swift's array description, brackets, quotes and
    /// `", "` between vectors included (`["Cl.Cm.P0"]`, `["Cl.Cm.P2", "Cl.Cm.P1"]`).
    public var vectorsOfTrustParameter: String {
        vectorsOfTrust.description
    }

    /// The scopes' texts.
    public var scopeValues: [String] { scopes.map(\.rawValue) }

    private func validate() throws {
        let id = GOVUKProvider.id
        guard !clientID.isEmpty else {
            throw AuthError(.missingConfigurationKey, "The GOV.UK One Login 'clientID' is empty.", providerID: id)
        }
        guard redirectURI.scheme?.lowercased() == "https" else {
            throw AuthError(.invalidConfiguration, "The GOV.UK One Login 'redirectURI' must be a claimed https universal link; got \(redirectURI.absoluteString).", providerID: id)
        }
        guard scopes.contains(.openid) else {
            throw AuthError(.invalidConfiguration, "The GOV.UK One Login 'scopes' must include openid.", providerID: id)
        }
        guard !vectorsOfTrust.isEmpty, vectorsOfTrust.allSatisfy(Self.isVectorOfTrust) else {
            throw AuthError(
                .invalidConfiguration, "'vectorsOfTrust' must look like Cl.Cm, Cl.Cm.P2 or Cl.Cm.PCL200 (components Cl, Cm, P0–P4, PCL followed by digits); got \(vectorsOfTrust).",
                providerID: id)
        }
    }

    /// A vector is dot-separated components from the GOV.UK trust framework: credential trust `Cl`, `Cm` (and
    /// other `C` + letters), levels of confidence `P0`…`P4`, and the low-confidence levels `PCL200`, `PCL250`
    /// (`PCL` + digits).
    static func isVectorOfTrust(_ vector: String) -> Bool {
        let components = vector.split(separator: ".", omittingEmptySubsequences: false)
        return !components.isEmpty
            && components.allSatisfy { component in
                if component.hasPrefix("PCL") {
                    return component.count > 3 && component.dropFirst(3).allSatisfy(\.isNumber)
                }
                if component.first == "P" { return component.count == 2 && component.last?.isNumber == true }
                return component.first == "C" && component.count >= 2 && component.count <= 3
                    && component.dropFirst().allSatisfy(\.isLetter)
            }
    }
}
