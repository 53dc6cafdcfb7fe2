public import AuthCore
import AuthOneLogin
public import Foundation

/// The vendor SDK's `OLOidcError`, as a view of `AuthError` for apps migrating from `OLOidc`.
///
/// The cases, their payloads and their descriptions are the vendor's. Payloads carry only `AuthError`'s safe text
/// (its message, the provider's OAuth error code, an HTTP status): never a token, code, secret or header value.
public enum OLOidcError: Error, Equatable, Sendable {
    /// The plist does not exist.
    case configFileNotFound
    /// The plist cannot be read, or is not a dictionary of strings.
    case configFileParseFailure
    /// A required key is missing or empty, a value is invalid (a non-URL issuer or redirect, scopes without `openid`).
    case configInvalid
    /// No configuration was provided. Declared by the vendor SDK, which never throws it; neither does this one.
    case missingConfiguration
    /// The discovery document declares no token endpoint.
    case tokenEndpointUndeclared
    /// The discovery document declares no user info endpoint.
    case userEndpointUndeclared
    /// Refreshing the tokens failed (a rejected refresh token); the payload says why.
    case fetchingFreshTokenError(String)
    /// There is no access token to use.
    case gettingAccessTokenError
    /// The HTTP request got no usable response (network failure, redirect, oversized body); the payload says why.
    case httpRequestFailed(String)
    /// The response was not an HTTP response.
    case nonHttpResponse
    /// The response had no body.
    case noResponseData
    /// The response was not the JSON expected.
    case jsonSerializationError
    /// The authorization, its validation, or a request made with it failed. For an HTTP error answer the payload is
    /// the vendor's `(<status>). Response: <text>`, the text being the provider's error as `AuthError` reports it.
    case authorizationError(String)
    /// Anything else.
    case unknownError
}

extension OLOidcError: LocalizedError {
    /// The vendor SDK's description of the case, its payload included.
    public var errorDescription: String? {
        switch self {
        case .configFileNotFound: "The config file could not be found."
        case .configFileParseFailure: "The config file could not be parsed correctly."
        case .missingConfiguration: "No configuration was provided to OLOidc."
        case .configInvalid: "The config file contains invalid parameters."
        case .tokenEndpointUndeclared: "Token endpoint not declared in discovery document."
        case .userEndpointUndeclared: "Userinfo endpoint not declared in discovery document."
        case .fetchingFreshTokenError(let error): "Error fetching fresh tokens: \(error)"
        case .gettingAccessTokenError: "Error getting accessToken"
        case .httpRequestFailed(let error): "HTTP request failed \(error)"
        case .nonHttpResponse: "Non-HTTP response"
        case .noResponseData: "HTTP response data is empty"
        case .jsonSerializationError: "JSON Serialization Error"
        case .authorizationError(let error): "Authorization Error: \(error)"
        case .unknownError: "unknown error"
        }
    }
}

extension AuthError {
    /// This error as OneLogin's `OLOidc` SDK reported it: the vendor's case, with the vendor's payload.
    ///
    /// Mapped from the error's code, endpoint and HTTP status, never from its message text; payloads quote only the
    /// error's safe message (and OAuth error code).
    public var olOidcError: OLOidcError {
        switch code {
        case .configurationFileNotFound: return .configFileNotFound
        case .configurationFileInvalid: return .configFileParseFailure
        case .invalidConfiguration, .missingConfigurationKey: return .configInvalid
        case .discoveryFailed where endpoint == "token_endpoint": return .tokenEndpointUndeclared
        case .endpointUnavailable where endpoint == "userinfo_endpoint": return .userEndpointUndeclared
        case .invalidGrant: return .fetchingFreshTokenError(message)
        case .subjectMismatch where endpoint == "token_endpoint": return .fetchingFreshTokenError(message)
        case .notSignedIn: return .gettingAccessTokenError
        case .httpError, .serverError:
            guard let httpStatus else { return .httpRequestFailed(message) }
            return .authorizationError("(\(httpStatus)). Response: \(providerErrorText)")
        case .network, .unexpectedRedirect, .responseTooLarge: return .httpRequestFailed(message)
        case .invalidResponse: return .jsonSerializationError
        case .userCancelled, .authorizationFailed, .stateMismatch, .missingState, .redirectMismatch,
            .issuerParameterMismatch, .missingIssuerParameter, .missingAuthorizationCode, .tokenRequestFailed,
            .missingIDToken, .malformedIDToken, .unsupportedAlgorithm, .invalidSignature, .invalidIssuer,
            .invalidAudience, .tokenExpired, .invalidIssuedAt, .nonceMismatch, .unknownKeyID, .missingKeyID:
            return .authorizationError(message)
        default: return .unknownError
        }
    }

    /// The provider's error as this error reports it (its message, with the OAuth error code when the message does
    /// not quote it), already sanitised, cut to 500 characters: where the vendor quoted the raw response body.
    private var providerErrorText: String {
        var text = message
        if let oauthError, !text.contains(oauthError) { text += " (\(oauthError))" }
        return ProviderText.sanitized(text, limit: 500)
    }
}
