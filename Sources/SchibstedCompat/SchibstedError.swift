public import AuthCore
import AuthSchibsted

/// The vendor SDK's error names, as a view of `AuthError` for apps migrating from account-sdk-ios-web.
public enum SchibstedError: Sendable, Equatable {
    /// Login errors.
    public enum Login: String, Sendable {
        /// A callback without a matching login request.
        case unsolicitedResponse
        /// The authorization response carried an OAuth error.
        case authenticationErrorResponse
        /// The token request failed.
        case tokenErrorResponse
        /// The requested MFA method is not in `amr`.
        case missingExpectedMFA
        /// The user cancelled.
        case canceled
        /// Another login is in progress.
        case previousSessionInProgress
    }

    /// ID token validation errors.
    public enum IDToken: String, Sendable {
        /// Not a JWS.
        case invalidJWS
        /// No key with the token's `kid`.
        case unknownKeyId
        /// No `kid` where one is needed.
        case noKeyId
        /// A key of an unsupported type.
        case unsupportedKeyType
        /// An algorithm outside the accepted ones.
        case unspecifiedAlgorithm
        /// A bad signature.
        case invalidSignature
        /// The payload is not JSON claims.
        case failedToDecodePayload
        /// No ID token.
        case missingIdToken
        /// The nonce does not match.
        case invalidNonce
        /// The issuer does not match.
        case invalidIssuer
        /// The audience does not match.
        case invalidAudience
        /// Expired.
        case expired
    }

    /// Refresh errors.
    public enum Refresh: String, Sendable {
        /// No refresh token.
        case noRefreshToken
        /// The refresh request failed.
        case refreshRequestFailed
    }

    /// A login error.
    case login(Login)
    /// An ID token error.
    case idToken(IDToken)
    /// A refresh error.
    case refresh(Refresh)
    /// Something else; see the `AuthError`.
    case other
}

extension AuthError {
    /// This error as Schibsted's SDK named it.
    public var schibstedError: SchibstedError {
        switch code {
        case .stateMismatch, .missingState, .redirectMismatch: .login(.unsolicitedResponse)
        case .authorizationFailed, .issuerParameterMismatch, .missingIssuerParameter: .login(.authenticationErrorResponse)
        case .tokenRequestFailed: .login(.tokenErrorResponse)
        case .providerValidationFailed: .login(.missingExpectedMFA)
        case .userCancelled: .login(.canceled)
        case .signInInProgress: .login(.previousSessionInProgress)
        case .malformedIDToken: .idToken(.invalidJWS)
        case .unknownKeyID: .idToken(.unknownKeyId)
        case .missingKeyID: .idToken(.noKeyId)
        case .unsupportedKey: .idToken(.unsupportedKeyType)
        case .unsupportedAlgorithm, .unsupportedCriticalHeader: .idToken(.unspecifiedAlgorithm)
        case .invalidSignature: .idToken(.invalidSignature)
        case .missingClaim: .idToken(.failedToDecodePayload)
        case .missingIDToken: .idToken(.missingIdToken)
        case .nonceMismatch: .idToken(.invalidNonce)
        case .invalidIssuer: .idToken(.invalidIssuer)
        case .invalidAudience, .invalidAuthorizedParty: .idToken(.invalidAudience)
        case .tokenExpired, .invalidIssuedAt: .idToken(.expired)
        case .notSignedIn: .refresh(.noRefreshToken)
        case .invalidGrant: .refresh(.refreshRequestFailed)
        default: .other
        }
    }
}
