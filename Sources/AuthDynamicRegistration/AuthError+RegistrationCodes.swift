public import AuthCore

extension AuthError.Code {
    /// The registration answer lists other redirect URIs than the ones asked for.
    public static let registrationRedirectMismatch: Self = "registration_redirect_mismatch"
    /// The registration answer names another token endpoint authentication method than the one asked for.
    public static let registrationAuthMethodChanged: Self = "registration_auth_method_changed"
    /// The registration answer turned a public client (method `none`) into a confidential one, or the reverse.
    public static let registrationClientTypeChanged: Self = "registration_client_type_changed"
    /// The registration answer lists other grant types than the ones asked for.
    public static let registrationGrantTypesChanged: Self = "registration_grant_types_changed"
    /// The registration answer lists other response types than the ones asked for.
    public static let registrationResponseTypesChanged: Self = "registration_response_types_changed"
    /// The registration answer's `code_challenge_method` (a server's per-client PKCE setting) does not include
    /// `S256`: the S256 challenge the engine sends would not bind the code to this client.
    public static let registrationPKCEDropped: Self = "registration_pkce_dropped"
    /// The registration answer names another application type (`native` or `web`) than the one asked for.
    public static let registrationApplicationTypeChanged: Self = "registration_application_type_changed"
    /// The registration answer has no `client_id`, or (read or updated) another one than the client's.
    public static let registrationMissingClientID: Self = "registration_missing_client_id"
    /// The registration answer has no `client_secret` for a client that authenticates with one.
    public static let registrationMissingClientSecret: Self = "registration_missing_client_secret"
    /// The registration answer's `client_secret_expires_at` is already past.
    public static let registrationSecretExpired: Self = "registration_secret_expired"
    /// The registration answer registers other signed or encrypted response algorithms (`id_token_encrypted_response_*`,
    /// `userinfo_encrypted_response_*`, `userinfo_signed_response_alg`) than the ones asked for.
    public static let registrationResponseProtectionChanged: Self = "registration_response_protection_changed"
    /// The registration endpoint refused the request (RFC 7591 §3.2.2: `invalid_redirect_uri`, …).
    public static let registrationRefused: Self = "registration_refused"
    /// The WebFinger answer names an issuer that is not https (or loopback-IP http), or none.
    public static let webFingerInsecureIssuer: Self = "webfinger_insecure_issuer"
}
