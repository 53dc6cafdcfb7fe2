public import AuthCore
public import Foundation

/// A validated authorization code for an app's backend to exchange, with the PKCE verifier it must send.
public struct AuthorizationCodeResult: Sendable {
    /// The authorization code.
    public let code: Secret
    /// The PKCE verifier: send it with the code to the token endpoint (`code_verifier`); `nil` when the login was
    /// requested without PKCE (a backend written for Uber's SDK; only UberCompat can ask for that).
    public let codeVerifier: Secret?
    /// The redirect URI the code was issued for (`redirect_uri` in the token request).
    public let redirectURI: URL
}
