public import AuthCore
import AuthOneLogin

/// The vendor SDK's error names, as a view of `AuthError` for apps migrating from `OLOidc`.
public enum OLOidcError: String, Sendable, Equatable {
    /// The plist does not exist.
    case configFileNotFound
    /// The plist is not a dictionary of strings.
    case configFileParseFailure
    /// A value is invalid (for example scopes without `openid`).
    case configInvalid
    /// A required key is missing.
    case missingConfiguration
    /// The discovery document declares no token endpoint.
    case tokenEndpointUndeclared
    /// The discovery document declares no user info endpoint.
    case userEndpointUndeclared
    /// Refreshing the tokens failed.
    case fetchingFreshTokenError
    /// There is no access token to use.
    case gettingAccessTokenError
    /// The HTTP request failed.
    case httpRequestFailed
    /// The response was not an HTTP response.
    case nonHttpResponse
    /// The response had no body.
    case noResponseData
    /// The response was not the JSON expected.
    case jsonSerializationError
    /// The authorization (including its validation) failed.
    case authorizationError
    /// Anything else.
    case unknownError
}

extension AuthError {
    /// This error as OneLogin's `OLOidc` SDK named it.
    public var olOidcError: OLOidcError {
        switch code {
        case .configurationFileNotFound: .configFileNotFound
        case .configurationFileInvalid: .configFileParseFailure
        case .invalidConfiguration: .configInvalid
        case .missingConfigurationKey: .missingConfiguration
        case .discoveryFailed where endpoint == "token_endpoint": .tokenEndpointUndeclared
        case .endpointUnavailable where endpoint == "userinfo_endpoint": .userEndpointUndeclared
        case .invalidGrant: .fetchingFreshTokenError
        case .subjectMismatch where endpoint == "token_endpoint": .fetchingFreshTokenError
        case .notSignedIn: .gettingAccessTokenError
        case .network, .serverError, .httpError, .unexpectedRedirect, .responseTooLarge: .httpRequestFailed
        case .invalidResponse: .jsonSerializationError
        case .userCancelled, .authorizationFailed, .stateMismatch, .missingState, .redirectMismatch,
            .issuerParameterMismatch, .missingIssuerParameter, .missingAuthorizationCode, .tokenRequestFailed,
            .missingIDToken, .malformedIDToken, .unsupportedAlgorithm, .invalidSignature, .invalidIssuer,
            .invalidAudience, .tokenExpired, .invalidIssuedAt, .nonceMismatch, .unknownKeyID, .missingKeyID:
            .authorizationError
        default: .unknownError
        }
    }
}
