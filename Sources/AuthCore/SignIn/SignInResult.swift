/// A successful sign-in before it is stored: the tokens and the validated ID token claims.
public struct SignInResult: Sendable {
    /// The token response.
    public let tokens: TokenResponse
    /// The validated ID token claims, when an ID token was issued.
    public let idTokenClaims: IDTokenClaims?

    /// Creates a result.
    package init(tokens: TokenResponse, idTokenClaims: IDTokenClaims?) {
        self.tokens = tokens
        self.idTokenClaims = idTokenClaims
    }
}
