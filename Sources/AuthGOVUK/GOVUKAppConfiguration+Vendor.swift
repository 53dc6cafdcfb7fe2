import AuthCore
public import Foundation

extension GOVUKAppConfiguration {
    /// The vendor SDK's initializer (`async`, as the SDK's): `redirectURI` as text, `persistentSessionId`, and token
    /// parameters and headers that are computed again at each code exchange (an app can fetch an attestation there);
    /// the token endpoint defaults to `token` beside the authorization endpoint (GOV.UK One Login's layout). See the
    /// properties for the rest.
    ///
    /// - Throws: `invalid_configuration` when `redirectURI` is not a URL, or for what the main initializer refuses.
    public init(
        authorizationEndpoint: URL,
        tokenEndpoint: URL? = nil,
        issuer: URL? = nil,
        responseType: ResponseType = .code,
        scopes: [Scope] = GOVUKAppConfiguration.defaultScopes,
        clientID: String,
        prefersEphemeralWebSession: Bool = true,
        redirectURI: String,
        vectorsOfTrust: [String] = GOVUKAppConfiguration.defaultVectorsOfTrust,
        locale: UILocale = .en,
        persistentSessionId: String? = nil,
        tokenParameters: @escaping @autoclosure TokenExtras = nil,
        tokenHeaders: @escaping @autoclosure TokenExtras = nil
    ) async throws {
        let redirect = try Self.redirectURL(redirectURI)
        try self.init(
            endpoints: (
                authorizationEndpoint,
                tokenEndpoint ?? Self.tokenEndpoint(beside: authorizationEndpoint),
                issuer, nil, nil
            ),
            responseType: responseType, scopes: scopes, clientID: clientID, redirectURI: redirect,
            prefersEphemeralWebSession: prefersEphemeralWebSession, vectorsOfTrust: vectorsOfTrust, locale: locale,
            persistentSessionID: persistentSessionId,
            tokenParameters: tokenParameters,
            tokenHeaders: tokenHeaders,
            sendsTokenExtrasOnRefresh: false
        )
    }

    /// The form in the vendor SDK's README: one vector of trust as text, and no token endpoint (`token` beside the
    /// authorization endpoint).
    ///
    /// - Throws: `invalid_configuration` when `redirectURI` is not a URL, or for what the main initializer refuses.
    public init(
        authorizationEndpoint: URL,
        responseType: ResponseType = .code,
        scopes: [Scope] = GOVUKAppConfiguration.defaultScopes,
        clientID: String,
        prefersEphemeralWebSession: Bool = true,
        redirectURI: String,
        vectorsOfTrust: String,
        locale: UILocale = .en
    ) throws {
        let redirect = try Self.redirectURL(redirectURI)
        try self.init(
            authorizationEndpoint: authorizationEndpoint,
            tokenEndpoint: Self.tokenEndpoint(beside: authorizationEndpoint),
            responseType: responseType,
            scopes: scopes,
            clientID: clientID,
            redirectURI: redirect,
            prefersEphemeralWebSession: prefersEphemeralWebSession,
            vectorsOfTrust: [vectorsOfTrust],
            locale: locale
        )
    }

    /// The vendor's text redirect as a URL.
    ///
    /// - Throws: `invalid_configuration` when it is not an absolute URL.
    static func redirectURL(_ text: String) throws -> URL {
        guard let redirect = URL(string: text), redirect.scheme != nil else {
            throw AuthError(.invalidConfiguration, "The GOV.UK One Login 'redirectURI' '\(text)' is not a URL.", providerID: GOVUKProvider.id)
        }
        return redirect
    }

    /// `…/token` beside `…/authorize`.
    static func tokenEndpoint(beside authorizationEndpoint: URL) -> URL {
        authorizationEndpoint.deletingLastPathComponent().appendingPathComponent("token")
    }
}
