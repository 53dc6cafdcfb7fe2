extension AuthError.Code {
    // MARK: Configuration and registry

    /// The configuration is missing, malformed, or inconsistent.
    public static let invalidConfiguration: Self = "invalid_configuration"
    /// A required configuration key is absent or empty.
    public static let missingConfigurationKey: Self = "missing_configuration_key"
    /// The configuration file does not exist.
    public static let configurationFileNotFound: Self = "configuration_file_not_found"
    /// The configuration file exists but is not a JSON object or property-list dictionary.
    public static let configurationFileInvalid: Self = "configuration_file_invalid"
    /// No provider with the requested id is registered.
    public static let unknownProvider: Self = "unknown_provider"

    // MARK: Endpoints

    /// The discovery document could not be fetched or is invalid.
    public static let discoveryFailed: Self = "discovery_failed"
    /// The discovery document's `issuer` is not the issuer that was asked for.
    public static let discoveryIssuerMismatch: Self = "discovery_issuer_mismatch"
    /// An endpoint uses plain `http` for a non-loopback host.
    public static let insecureEndpoint: Self = "insecure_endpoint"
    /// The provider has no endpoint for the requested operation.
    public static let endpointUnavailable: Self = "endpoint_unavailable"

    // MARK: Authorization response

    /// The user (or the system) cancelled the sign-in.
    public static let userCancelled: Self = "user_cancelled"
    /// The user did not complete the sign-in in time.
    public static let timedOut: Self = "timed_out"
    /// The redirect does not match the registered redirect URI exactly.
    public static let redirectMismatch: Self = "redirect_mismatch"
    /// The authorization response carries no `state`.
    public static let missingState: Self = "missing_state"
    /// The `state` is unknown, already used, or expired (a forged, replayed or unsolicited response).
    public static let stateMismatch: Self = "state_mismatch"
    /// The RFC 9207 `iss` parameter is missing though the provider declares it supports it.
    public static let missingIssuerParameter: Self = "missing_issuer_parameter"
    /// The RFC 9207 `iss` parameter names another issuer (a mix-up attack).
    public static let issuerParameterMismatch: Self = "issuer_parameter_mismatch"
    /// A response parameter appears more than once.
    public static let duplicateParameter: Self = "duplicate_parameter"
    /// The authorization server answered with an OAuth error (see ``AuthError/oauthError``).
    public static let authorizationFailed: Self = "authorization_failed"
    /// The user declined a device sign-in on the verification page (RFC 8628 `access_denied`).
    public static let accessDenied: Self = "access_denied"
    /// A device sign-in was not approved before its code expired (RFC 8628 `expired_token`, or the code's lifetime).
    public static let deviceCodeExpired: Self = "device_code_expired"
    /// The authorization response has neither a `code` nor an `error`.
    public static let missingAuthorizationCode: Self = "missing_authorization_code"

    // MARK: Pushed authorization requests and profiles

    /// The pushed authorization request endpoint (RFC 9126 §2.3) refused the request with an OAuth error or an HTTP
    /// error status; the sign-in did not start (see ``AuthError/oauthError``).
    public static let pushedAuthorizationFailed: Self = "pushed_authorization_failed"
    /// The pushed authorization request endpoint answered without the `request_uri` RFC 9126 §2.2 requires.
    public static let missingRequestURI: Self = "missing_request_uri"
    /// The pushed authorization request's `expires_in` is missing, not a positive whole number of seconds, or longer
    /// than an hour (RFC 9126 §2.2: a short lifetime, typically 5 to 600 seconds).
    public static let invalidRequestURILifetime: Self = "invalid_request_uri_lifetime"
    /// A rule of the FAPI 2.0 Security Profile does not hold for this client or provider; the message names the rule.
    public static let fapiProfileViolation: Self = "fapi_profile_violation"

    // MARK: Token endpoint

    /// The token endpoint answered with an OAuth error other than `invalid_grant`.
    public static let tokenRequestFailed: Self = "token_request_failed"
    /// The grant (code or refresh token) is invalid, expired or revoked; the user must sign in again.
    public static let invalidGrant: Self = "invalid_grant"
    /// A response is not the JSON the protocol requires.
    public static let invalidResponse: Self = "invalid_response"
    /// A response body exceeds the size limit.
    public static let responseTooLarge: Self = "response_too_large"
    /// An endpoint answered with a redirect, which is never followed for back-channel calls.
    public static let unexpectedRedirect: Self = "unexpected_redirect"
    /// The token response's `token_type` is not one this client can use.
    public static let unsupportedTokenType: Self = "unsupported_token_type"
    /// DPoP was requested but the provider issued a bearer token (RFC 9449 §5): not stored, since anyone holding a
    /// bearer token can use it.
    public static let dpopNotBound: Self = "dpop_not_bound"
    /// The server refused this client's DPoP proof (`invalid_dpop_proof`), or still demanded a nonce
    /// (`use_dpop_nonce`) after the one retry with the nonce it sent.
    public static let dpopProofRejected: Self = "dpop_proof_rejected"

    // MARK: ID token

    /// The token response has no ID token though `openid` was requested.
    public static let missingIDToken: Self = "missing_id_token"
    /// The ID token is not a well-formed JWS compact serialization.
    public static let malformedIDToken: Self = "malformed_id_token"
    /// The JWS `alg` is not in the pinned list (this includes `none` and every HMAC algorithm).
    public static let unsupportedAlgorithm: Self = "unsupported_algorithm"
    /// An encrypted ID token or user info answer (a JWE, RFC 7516) does not decrypt with the client's keys: no key
    /// fits, the key management fails, or the authentication tag does not verify. Nothing is stored.
    public static let decryptionFailed: Self = "decryption_failed"
    /// A response that must be signed is not: a JWE whose content is not a signed JWT (an unsigned token inside),
    /// or a user info answer that is unsigned though the client registered `userinfo_signed_response_alg`.
    public static let unsignedResponse: Self = "unsigned_response"
    /// The client registered for encrypted ID tokens or user info (`*_encrypted_response_alg`) and the provider
    /// answered in the clear.
    public static let unencryptedResponse: Self = "unencrypted_response"
    /// The JWS header lists a `crit` extension this client does not understand.
    public static let unsupportedCriticalHeader: Self = "unsupported_critical_header"
    /// The JWS has no `kid` and the key set holds several candidate keys.
    public static let missingKeyID: Self = "missing_key_id"
    /// No key in the provider's key set (even after one refetch) has the JWS's `kid`.
    public static let unknownKeyID: Self = "unknown_key_id"
    /// A key in the key set cannot be used (unsupported type, curve, or too small).
    public static let unsupportedKey: Self = "unsupported_key"
    /// The JWS signature does not verify.
    public static let invalidSignature: Self = "invalid_signature"
    /// The ID token's `iss` is missing or not the provider's issuer.
    public static let invalidIssuer: Self = "invalid_issuer"
    /// The ID token's `aud` is missing, does not contain the client id, or contains an untrusted audience.
    public static let invalidAudience: Self = "invalid_audience"
    /// The ID token's `azp` is present and is not the client id.
    public static let invalidAuthorizedParty: Self = "invalid_authorized_party"
    /// The ID token has expired (or has no `exp`).
    public static let tokenExpired: Self = "token_expired"
    /// The ID token's `iat` is missing, in the future, or too far in the past.
    public static let invalidIssuedAt: Self = "invalid_issued_at"
    /// The ID token's `nonce` is missing or does not match the one sent.
    public static let nonceMismatch: Self = "nonce_mismatch"
    /// A claim the client needs is missing or has the wrong type.
    public static let missingClaim: Self = "missing_claim"
    /// The `at_hash` claim does not match the access token.
    public static let accessTokenHashMismatch: Self = "access_token_hash_mismatch"
    /// A back-channel logout token failed verification (OpenID Connect Back-Channel Logout 1.0 §2.6); answer 400.
    public static let invalidLogoutToken: Self = "invalid_logout_token"
    /// The user authenticated longer ago than `max_age` allows, or before a `prompt=login` request was made
    /// (OpenID Connect Core §3.1.2.1, §3.1.3.7 step 13).
    public static let authenticationTooOld: Self = "authentication_too_old"
    /// The ID token's `acr` is not one of the values the app required as essential (OpenID Connect Core §5.5.1.1).
    public static let acrNotSatisfied: Self = "acr_not_satisfied"
    /// A new ID token (refresh) or user info names another subject or issuer than the signed-in user.
    public static let subjectMismatch: Self = "subject_mismatch"
    /// The provider's own rules for the result failed (for example a required MFA method is missing).
    public static let providerValidationFailed: Self = "provider_validation_failed"

    // MARK: Step-up (RFC 9470)

    /// A resource answered `401` with an `insufficient_user_authentication` challenge: the user must authenticate
    /// again as ``AuthError/stepUp`` says (``Session/send(_:body:steppingUpWith:redirectURI:)`` does it).
    public static let stepUpRequired: Self = "step_up_required"
    /// The resource challenged the request again after the one step-up it was allowed: never a second sign-in.
    public static let stepUpLoop: Self = "step_up_loop"
    /// The step-up sign-in's ID token does not meet the challenge: its `acr` is not one of the `acr_values`, or its
    /// `auth_time` is missing or older than `max_age`. Nothing was stored.
    public static let stepUpNotSatisfied: Self = "step_up_not_satisfied"
    /// A resource's step-up challenge cannot be read (RFC 9110 §11.6.1 grammar, RFC 9470 §3 parameters).
    public static let invalidStepUpChallenge: Self = "invalid_step_up_challenge"

    // MARK: Transport

    /// The request could not be sent or no response arrived (retryable).
    public static let network: Self = "network_error"
    /// The server answered with a 5xx status (retryable).
    public static let serverError: Self = "server_error"
    /// The server answered HTTP 429 (too many requests) and asked for a wait longer than the engine waits on its own
    /// (``AuthError/retryAfter`` says how long, when the server said); retryable, never a sign-out.
    public static let rateLimited: Self = "rate_limited"
    /// The server answered with an unexpected HTTP status.
    public static let httpError: Self = "http_error"

    // MARK: Sessions and storage

    /// There is no signed-in session (or it has no refresh token) for the operation.
    public static let notSignedIn: Self = "not_signed_in"
    /// Stored credentials could not be read or written.
    public static let storageFailed: Self = "storage_failed"
    /// A stored credential is truncated or corrupted; other accounts are unaffected.
    public static let storageCorrupted: Self = "storage_corrupted"
    /// The storage is temporarily unavailable (for example a locked device); retry later.
    public static let storageUnavailable: Self = "storage_unavailable"
}
