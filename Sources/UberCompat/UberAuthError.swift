public import AuthCore
import AuthUber

/// The vendor's `UberAuthError`, as a view of `AuthError`.
public enum UberAuthError: Error, Sendable, Equatable {
    /// OAuth 2.0 error codes.
    public enum OAuthError: String, Sendable {
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
    }

    /// The user cancelled.
    case cancelled
    /// The native app could not be opened.
    case couldNotOpenApp(UberApp)
    /// Another login is in progress.
    case existingAuthSession
    /// The callback carried no usable code.
    case invalidAuthCode
    /// A response could not be parsed.
    case invalidResponse
    /// The request could not be built.
    case invalidRequest
    /// An OAuth error.
    case oAuth(OAuthError)
    /// Something else.
    case other
    /// The service failed.
    case serviceError
}

extension AuthError {
    /// This error as UberAuth named it.
    public var uberAuthError: UberAuthError {
        switch code {
        // A login that waited for an app and ended without its callback was cancelled, whoever ended it.
        case .userCancelled, .signInCancelled, .signInSuperseded, .timedOut: return .cancelled
        case .signInInProgress: return .existingAuthSession
        case .missingAuthorizationCode, .stateMismatch, .missingState, .redirectMismatch, .invalidGrant: return .invalidAuthCode
        case .invalidResponse, .unsupportedTokenType: return .invalidResponse
        case .invalidConfiguration, .missingConfigurationKey: return .invalidRequest
        // The vendor's callback parser: a known OAuth error is `.oAuth(…)`, an unknown one `.invalidAuthCode`.
        case .authorizationFailed:
            return oauthError.flatMap(UberAuthError.OAuthError.init(rawValue:)).map(UberAuthError.oAuth) ?? .invalidAuthCode
        case .tokenRequestFailed:
            return oauthError.flatMap(UberAuthError.OAuthError.init(rawValue:)).map(UberAuthError.oAuth) ?? .other
        // The vendor's NetworkProvider: a transport failure is `.other(error)`, an HTTP failure `.serviceError`.
        case .network: return .other
        case .serverError, .httpError: return .serviceError
        default: return .other
        }
    }
}
