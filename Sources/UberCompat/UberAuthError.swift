public import AuthCore
import AuthUber
public import Foundation

/// The vendor's `UberAuthError`, as a view of `AuthError`: the same cases with the same payloads
/// (`invalidRequest(String)`, `other(Error)`; uber/rides-ios-sdk `Sources/UberAuth/Errors/UberAuthError.swift`), so an
/// app's `switch` over them compiles as it is.
public enum UberAuthError: Error, Sendable, Equatable, LocalizedError {
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
    /// The callback URL could not be parsed.
    case invalidResponse
    /// The request could not be built; the details say why.
    case invalidRequest(String)
    /// An OAuth error.
    case oAuth(OAuthError)
    /// Something else: the underlying error (the `AuthError`, for an error of this package).
    case other(any Error)
    /// A network request failed: its answer could not be read.
    case serviceError

    /// The vendor's descriptions (an OAuth error's description names its code here).
    public var errorDescription: String? {
        switch self {
        case .cancelled: "The user cancelled the auth flow"
        case .couldNotOpenApp(let app): "The application failed to open the Uber client app: \(app)"
        case .existingAuthSession: "An existing authentication session is in progress"
        case .invalidAuthCode: "The auth code was not found or is malformed"
        case .oAuth(let error): "OAuth error: \(error.rawValue)"
        case .invalidResponse: "The response url could not be parsed"
        case .invalidRequest(let details): "Failed to build the auth request: \(details)"
        case .other(let error): "An unknown error occurred: \(error)"
        case .serviceError: "An error occurred when making a network request"
        }
    }

    /// Equal when the descriptions are, as the vendor compares them (so `.other` errors compare by their text).
    public static func == (lhs: UberAuthError, rhs: UberAuthError) -> Bool {
        lhs.errorDescription == rhs.errorDescription
    }
}

extension AuthError {
    /// This error as UberAuth named it.
    ///
    /// HTTP answers map as the vendor's `NetworkProvider` maps them: any non-2xx from the token (or PAR) endpoint is
    /// `.oAuth(.invalidRequest)` (the vendor reads `error` from the response's URL, which for a `POST /oauth/v2/token`
    /// carries none), a 2xx it cannot decode is `.serviceError`, and a transport failure is `.other(error)`
    /// (uber/rides-ios-sdk `Sources/UberAuth/Networking/NetworkProvider.swift`, `UberAuthError.init?(_:)`).
    public var uberAuthError: UberAuthError {
        switch code {
        // A login that waited for an app and ended without its callback was cancelled, whoever ended it.
        case .userCancelled, .signInCancelled, .signInSuperseded, .timedOut: return .cancelled
        case .signInInProgress: return .existingAuthSession
        case .missingAuthorizationCode, .stateMismatch, .missingState, .redirectMismatch: return .invalidAuthCode
        // The token endpoint's non-2xx answers, whatever their `error`.
        case .invalidGrant, .tokenRequestFailed, .serverError, .httpError: return .oAuth(.invalidRequest)
        // A 2xx body that is not the token response the vendor decodes.
        case .invalidResponse, .unsupportedTokenType: return .serviceError
        case .invalidConfiguration, .missingConfigurationKey: return .invalidRequest(message)
        // The vendor's callback parser: a known OAuth error is `.oAuth(…)`, an unknown one `.invalidAuthCode`.
        case .authorizationFailed:
            return oauthError.flatMap(UberAuthError.OAuthError.init(rawValue:)).map(UberAuthError.oAuth) ?? .invalidAuthCode
        default: return .other(self)
        }
    }
}
