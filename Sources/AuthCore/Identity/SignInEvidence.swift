import Foundation

/// What an entrance hands the identity gate (``AuthClient/admit(_:)``) once its own checks passed: the tokens, the
/// validated ID token claims, and where they came from.
///
/// Every way a user becomes signed in builds one — the code flow (in memory or resumed), the device grant, imported
/// tokens, a native app's credential — so the provider's identity rule, the credential, the identity, storage and the
/// `signedIn` event are written once, in the gate.
struct SignInEvidence: Sendable {
    /// How the tokens were obtained (what ``AuthProvider/resolveIdentity(_:)`` sees).
    let grant: IdentityContext.Grant
    /// The checked token response.
    let tokens: TokenResponse
    /// The validated ID token's claims; `nil` when the provider issued none.
    let claims: IDTokenClaims?
    /// The provider's endpoints the tokens were obtained from; its issuer is the credential's.
    let metadata: ProviderMetadata
    /// Whose the tokens are when no ID token says (a device sign-in's user info `sub`).
    var subject: String?
    /// The key the tokens are bound to (RFC 9449), `nil` for bearer tokens.
    var dpopKey: DPoPKey?
    /// The authorization response's other parameters (Apple's first-sign-in `user`), for the provider's identity.
    var authorizationResponse: [String: String] = [:]
    /// The account name the app chose to store the credential under, instead of the subject.
    var accountName: String?
    /// Provider-specific facts to keep with the credential (``Credential/annotations``).
    var annotations: [String: String]?
    /// The `signin.completed` log line's message: which entrance it was.
    var completion = "Signed in."
}
