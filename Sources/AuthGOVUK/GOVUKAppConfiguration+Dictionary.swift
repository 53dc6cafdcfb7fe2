public import AuthCore
import Foundation

extension GOVUKAppConfiguration {
    /// Reads a configuration from a dictionary (for the registry, a JSON file, or an Info.plist section).
    ///
    /// Keys mirror the vendor's property names: `authorizationEndpoint`, `tokenEndpoint`, `issuer`, `jwksEndpoint`,
    /// `userInfoEndpoint`, `responseType`, `scopes` (array or space-separated), `clientID`, `redirectURI`,
    /// `prefersEphemeralWebSession`, `vectorsOfTrust` (array or string), `locale` (`en`/`cy`),
    /// `persistentSessionId`, `tokenParameters`, `tokenHeaders`, `sendsTokenExtrasOnRefresh`, `tokenService` (`true`:
    /// a GOV.UK secure token service served elsewhere, so no user-info endpoint). With `environment`
    /// (`production` or `integration`) the defaults are those of ``oneLogin(_:clientID:redirectURI:scopes:vectorsOfTrust:locale:persistentSessionID:tokenHeaders:)``:
    /// the environment's secure token service, scope `openid`, and the token extras sent on refresh too. Its
    /// attestation headers change with every request, so an app sets them in code; `tokenHeaders` here are fixed
    /// values (for an emulator or a test).
    public init(dictionary configuration: ProviderConfiguration) throws {
        let id = GOVUKProvider.id
        let environment = try configuration.govUKEnvironment()
        func url(_ key: String, default fallback: URL?) throws -> URL? {
            configuration[key] == nil ? fallback : try configuration.requiredURL(key, providerID: id)
        }
        guard let authorizationEndpoint = try url("authorizationEndpoint", default: environment?.tokenServiceEndpoint("authorize")) else {
            throw AuthError(.missingConfigurationKey, "The configuration key 'authorizationEndpoint' is missing (or set 'environment').", providerID: id)
        }
        guard let tokenEndpoint = try url("tokenEndpoint", default: environment?.tokenServiceEndpoint("token")) else {
            throw AuthError(.missingConfigurationKey, "The configuration key 'tokenEndpoint' is missing (or set 'environment').", providerID: id)
        }
        let responseType =
            try configuration.string("responseType").map { value -> ResponseType in
                guard let type = ResponseType(rawValue: value) else {
                    throw AuthError(.invalidConfiguration, "GOV.UK One Login supports responseType 'code' only.", providerID: id)
                }
                return type
            } ?? .code
        let locale = try configuration.govUKLocale("locale") ?? .en
        try self.init(
            authorizationEndpoint: authorizationEndpoint,
            tokenEndpoint: tokenEndpoint,
            issuer: try url("issuer", default: environment?.tokenServiceBaseURL),
            jwksEndpoint: try url("jwksEndpoint", default: environment?.tokenServiceEndpoint(".well-known/jwks.json")),
            userInfoEndpoint: try url("userInfoEndpoint", default: nil),
            responseType: responseType,
            scopes: configuration.scopes("scopes")?.map(Scope.init(rawValue:)) ?? (environment == nil ? Self.defaultScopes : Self.tokenServiceScopes),
            clientID: try configuration.requiredString("clientID", aliases: ["clientId", "client_id"], providerID: id),
            redirectURI: try configuration.requiredURL("redirectURI", aliases: ["redirectUri", "redirect_uri"], providerID: id),
            prefersEphemeralWebSession: configuration.bool("prefersEphemeralWebSession") ?? true,
            vectorsOfTrust: configuration.scopes("vectorsOfTrust") ?? Self.defaultVectorsOfTrust,
            locale: locale,
            persistentSessionID: configuration.string("persistentSessionId", "persistentSessionID"),
            tokenParameters: configuration.stringDictionary("tokenParameters") ?? [:],
            tokenHeaders: configuration.stringDictionary("tokenHeaders") ?? [:],
            sendsTokenExtrasOnRefresh: configuration.bool("sendsTokenExtrasOnRefresh") ?? (environment != nil)
        )
        marksTokenService = configuration.bool("tokenService") ?? false
    }
}

extension ProviderConfiguration {
    /// `environment` (`production` or `integration`), when set; an app's and a service's configuration read it alike.
    ///
    /// - Throws: `invalid_configuration` for another name.
    func govUKEnvironment() throws -> GOVUKAppConfiguration.Environment? {
        try string("environment").map { name in
            guard let environment = GOVUKAppConfiguration.Environment(rawValue: name) else {
                throw AuthError(.invalidConfiguration, "Unknown GOV.UK One Login environment '\(name)'; use production or integration.", providerID: GOVUKProvider.id)
            }
            return environment
        }
    }

    /// The page language under the first of `keys` that is set (`en` or `cy`).
    ///
    /// - Throws: `invalid_configuration` naming the key for another value.
    func govUKLocale(_ keys: String...) throws -> GOVUKAppConfiguration.UILocale? {
        guard let key = keys.first(where: { string($0) != nil }), let value = string(key) else { return nil }
        guard let locale = GOVUKAppConfiguration.UILocale(rawValue: value) else {
            throw AuthError(.invalidConfiguration, "'\(key)' must be 'en' or 'cy'; got '\(value)'.", providerID: GOVUKProvider.id)
        }
        return locale
    }
}
