public import AuthCore
import AuthGOVUK

/// The vendor SDK's error kinds, as a view of `AuthError` for apps migrating from it.
public enum LoginError: Sendable, Equatable {
    /// OAuth errors on the authorization response.
    public enum AuthorizationError: String, Sendable, Equatable {
        /// `invalid_request`.
        case invalidRequest = "invalid_request"
        /// `unauthorized_client`.
        case unauthorizedClient = "unauthorized_client"
        /// `access_denied`.
        case accessDenied = "access_denied"
        /// `unsupported_response_type`.
        case unsupportedResponseType = "unsupported_response_type"
        /// `invalid_scope`.
        case invalidScope = "invalid_scope"
        /// `server_error`.
        case serverError = "server_error"
        /// `temporarily_unavailable`.
        case temporarilyUnavailable = "temporarily_unavailable"
        /// A client-side failure.
        case clientError = "client_error"
        /// Anything else.
        case unknown
    }

    /// OAuth errors on the token response.
    public enum TokenError: String, Sendable, Equatable {
        /// `invalid_request`.
        case invalidRequest = "invalid_request"
        /// `unauthorized_client`.
        case unauthorizedClient = "unauthorized_client"
        /// `invalid_scope`.
        case invalidScope = "invalid_scope"
        /// `invalid_client`.
        case invalidClient = "invalid_client"
        /// `invalid_grant`.
        case invalidGrant = "invalid_grant"
        /// `unsupported_grant_type`.
        case unsupportedGrantType = "unsupported_grant_type"
        /// A client-side failure (for example an ID token that failed validation).
        case clientError = "client_error"
        /// Anything else.
        case unknown
    }

    /// The user closed the sign-in page.
    case userCancelled
    /// The app cancelled the sign-in.
    case programCancelled
    /// The network failed.
    case network
    /// The service answered with a server error.
    case serverError
    /// The browser could not be opened.
    case browserOpenError
    /// The authorization response carried an OAuth error.
    case authorization(AuthorizationError)
    /// The token response carried an OAuth error or failed validation.
    case token(TokenError)
    /// The callback does not belong to the login session.
    case invalidRedirectURL(reason: String)
    /// Anything else.
    case generic(description: String)
}

extension AuthError {
    /// This error as GOV.UK One Login's SDK named it.
    public var govUKLoginError: LoginError {
        switch code {
        case .userCancelled: return .userCancelled
        case .timedOut: return .programCancelled
        case .network: return .network
        case .serverError: return .serverError
        case .authorizationFailed:
            return .authorization(oauthError.flatMap(LoginError.AuthorizationError.init(rawValue:)) ?? .unknown)
        case .tokenRequestFailed, .invalidGrant:
            return .token(oauthError.flatMap(LoginError.TokenError.init(rawValue:)) ?? .unknown)
        case .redirectMismatch, .stateMismatch, .missingState, .issuerParameterMismatch, .missingIssuerParameter, .duplicateParameter:
            return .invalidRedirectURL(reason: message)
        case .missingIDToken, .malformedIDToken, .unsupportedAlgorithm, .unsupportedCriticalHeader, .missingKeyID,
            .unknownKeyID, .unsupportedKey, .invalidSignature, .invalidIssuer, .invalidAudience, .invalidAuthorizedParty,
            .tokenExpired, .invalidIssuedAt, .nonceMismatch, .missingClaim, .accessTokenHashMismatch, .invalidResponse,
            .unsupportedTokenType:
            return .token(.clientError)
        default: return .generic(description: message)
        }
    }
}
