public import AuthCore

extension AuthError.Code {
    /// A token exchange answer (RFC 8693 §2.2.1) without the `issued_token_type` it requires; nothing was kept.
    public static let missingIssuedTokenType: Self = "missing_issued_token_type"
    /// A token exchange answer whose `issued_token_type` is not the `requested_token_type` asked for (RFC 8693 §2.1,
    /// §2.2.1), or one this client cannot use; nothing was kept.
    public static let issuedTokenTypeMismatch: Self = "issued_token_type_mismatch"
    /// A token exchange answer for another audience than the one asked for (RFC 8693 §2.1 `audience`): the issued
    /// JWT's `aud`, or the answer's own `audience`, names none of the audiences requested; nothing was kept.
    public static let exchangeAudienceMismatch: Self = "exchange_audience_mismatch"
    /// The ID token's `ds_hash` does not match the `device_secret` of the same answer (OpenID Connect Native SSO for
    /// Mobile Apps 1.0 §3.1): the secret is not this sign-in's; nothing was stored.
    public static let deviceSecretMismatch: Self = "device_secret_mismatch"
    /// The app family's shared store holds a device secret from another app family or another issuer (Native SSO
    /// §4: only the family's own apps may present it): nothing was sent, nothing stored.
    public static let foreignDeviceSecret: Self = "foreign_device_secret"
    /// The app family's shared store holds no device secret: the family's first app has not signed in with the
    /// `device_sso` scope (or a sign-out ended the family's session); sign in with a browser.
    public static let noSharedSignIn: Self = "no_shared_sign_in"
}
