/// A security profile the client holds itself to, beyond what the provider asks.
public enum ClientProfile: String, Sendable, Hashable {
    /// OAuth 2.0 and OpenID Connect as the provider offers them.
    case standard
    /// The FAPI 2.0 Security Profile: pushed authorization requests, PKCE S256, `private_key_jwt` client
    /// authentication, DPoP-bound tokens, RFC 9207 `iss` in every authorization response, and PS256, ES256 or EdDSA
    /// only for ID tokens and client assertions. A client or provider that breaks a rule cannot sign in
    /// (`fapi_profile_violation`, naming the rule). mTLS client authentication and certificate-bound tokens are not
    /// available in this package, so DPoP and `private_key_jwt` are required. The configuration key
    /// `profile: "fapi2"`.
    case fapi2
}
