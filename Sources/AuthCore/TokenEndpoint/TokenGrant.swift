public import Foundation

/// The grant of a token request, shown to providers that add headers or parameters.
public enum TokenGrant: Sendable {
    /// Exchanging an authorization code.
    case authorizationCode(code: Secret, codeVerifier: Secret, redirectURI: URL)
    /// Refreshing with a refresh token.
    case refreshToken(Secret)
    /// Polling for a device sign-in's tokens with its device code (RFC 8628 §3.4).
    case deviceCode(Secret)

    /// The `grant_type` value.
    package var grantType: String {
        switch self {
        case .authorizationCode: "authorization_code"
        case .refreshToken: "refresh_token"
        case .deviceCode: "urn:ietf:params:oauth:grant-type:device_code"
        }
    }
}
