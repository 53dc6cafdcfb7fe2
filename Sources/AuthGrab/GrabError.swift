public import AuthCore

/// The vendor's error domains and codes, as a view of `AuthError` for apps migrating from GrabIdPartnerSDK.
public struct GrabError: Sendable, Equatable {
    /// Where the error happened.
    public enum Domain: String, Sendable {
        case serviceDiscovery, loadConfiguration, authorization, exchangeToken, getIdTokenInfo, logout,
            protectedResource, customProtocolsService, appStore
    }

    /// What happened (application-defined codes start at `applicationCodeBase`).
    public enum Code: String, Sendable {
        case grabIdServiceFailed, discoveryServiceFailed, idTokenInfoServiceFailed, exchangeTokenServiceFailed,
            authorizationInitializationFailure, securityValidationFailed, logoutFailed, invalidIdToken, invalidNonce,
            invalidConfiguration, somethingWentWrong, network, invalidClientId, invalidScope, invalidRedirectUrl,
            invalidAuthorizationCode, invalidUrl, invalidPartnerId, unAuthorized, authorizationFailed,
            serviceUnavailable, serviceError, invalidAccessToken, invalidResponse, invalidServiceDiscoveryUrl,
            invalidAppBundle, invalidCustomProtocolUrl, failedTolaunchAppStoreLink, launchAppStoreLink
    }

    /// The first application-defined code.
    public static let applicationCodeBase = 10_000

    /// The domain.
    public let domain: Domain
    /// The code.
    public let code: Code

    /// Creates an error value (for comparisons).
    public init(domain: Domain, code: Code) {
        self.domain = domain
        self.code = code
    }
}

extension AuthError {
    /// This error as GrabIdPartnerSDK named it.
    public var grabError: GrabError {
        func error(_ domain: GrabError.Domain, _ code: GrabError.Code) -> GrabError { GrabError(domain: domain, code: code) }
        switch code {
        case .missingConfigurationKey where message.contains("'ClientId'"): return error(.loadConfiguration, .invalidClientId)
        case .missingConfigurationKey where message.contains("'RedirectUrl'"): return error(.loadConfiguration, .invalidRedirectUrl)
        case .missingConfigurationKey where message.contains("'Scope'"): return error(.loadConfiguration, .invalidScope)
        case .missingConfigurationKey where message.contains("'ServiceDiscoveryUrl'"): return error(.loadConfiguration, .invalidServiceDiscoveryUrl)
        case .missingConfigurationKey, .invalidConfiguration: return error(.loadConfiguration, .invalidConfiguration)
        case .discoveryFailed, .insecureEndpoint, .endpointUnavailable: return error(.serviceDiscovery, .discoveryServiceFailed)
        case .grabAppStoreLaunched: return error(.appStore, .launchAppStoreLink)
        case .grabAppStoreLaunchFailed: return error(.appStore, .failedTolaunchAppStoreLink)
        case .stateMismatch, .missingState, .redirectMismatch, .missingAuthorizationCode, .authorizationFailed,
            .issuerParameterMismatch, .missingIssuerParameter, .duplicateParameter:
            return error(.authorization, .securityValidationFailed)
        case .userCancelled: return error(.authorization, .authorizationFailed)
        case .nonceMismatch: return error(.exchangeToken, .invalidNonce)
        case .missingIDToken, .malformedIDToken, .unsupportedAlgorithm, .invalidSignature, .invalidIssuer, .invalidAudience,
            .tokenExpired, .invalidIssuedAt, .unknownKeyID, .missingKeyID, .missingClaim, .accessTokenHashMismatch:
            return error(.exchangeToken, .invalidIdToken)
        case .invalidGrant: return error(.exchangeToken, .invalidAuthorizationCode)
        case .tokenRequestFailed: return error(.exchangeToken, .exchangeTokenServiceFailed)
        case .invalidResponse, .unsupportedTokenType: return error(.exchangeToken, .invalidResponse)
        case .network: return error(.exchangeToken, .network)
        case .serverError: return error(.exchangeToken, .serviceUnavailable)
        case .notSignedIn: return error(.protectedResource, .invalidAccessToken)
        default: return error(.authorization, .somethingWentWrong)
        }
    }
}
