import AuthCore
import Foundation

extension HostileScenario {
    /// Misbehaving ID tokens (OIDC Core §3.1.3.7), and the helpers that build claim scenarios.
    static let idToken: [HostileScenario] = [
        claim("oidcc-client-test-invalid-iss", "iss is another issuer", "OIDC Core §3.1.3.7 step 2", .invalidIssuer) {
            $0.idTokenClaimOverrides["iss"] = "https://impostor.example.test"
        },
        claim("oidcc-client-test-missing-iss", "iss missing", "OIDC Core §3.1.3.7 step 2", .invalidIssuer) {
            $0.idTokenClaimRemovals = ["iss"]
        },
        claim("oidcc-client-test-invalid-aud", "aud is another client", "OIDC Core §3.1.3.7 step 3", .invalidAudience) {
            $0.idTokenClaimOverrides["aud"] = "another-client"
        },
        claim("oidcc-client-test-missing-aud", "aud missing", "OIDC Core §3.1.3.7 step 3", .invalidAudience) {
            $0.idTokenClaimRemovals = ["aud"]
        },
        claim("oidcc-client-test-untrusted-aud", "aud also names an untrusted audience", "OIDC Core §3.1.3.7 step 3", .invalidAudience) {
            $0.idTokenClaimOverrides["aud"] = ["test-client", "untrusted-client"]
            $0.idTokenClaimOverrides["azp"] = "test-client"
        },
        accepted("oidcc-client-test-aud-single-element-array", "aud is a one-element array", "OIDC Core §2") {
            $0.idTokenClaimOverrides["aud"] = ["test-client"]
        },
        claim("oidcc-client-test-invalid-azp", "azp is another client", "OIDC Core §3.1.3.7 step 5", .invalidAuthorizedParty) {
            $0.idTokenClaimOverrides["azp"] = "another-client"
        },
        claim("oidcc-client-test-missing-sub", "sub missing", "OIDC Core §2", .missingClaim) {
            $0.idTokenClaimRemovals = ["sub"]
        },
        claim("oidcc-client-test-missing-iat", "iat missing", "OIDC Core §2", .missingClaim) {
            $0.idTokenClaimRemovals = ["iat"]
        },
        claim("oidcc-client-test-iat-far-past", "iat a day in the past", "OIDC Core §3.1.3.7 step 10", .invalidIssuedAt) {
            $0.idTokenClaimOverrides["iat"] = .number(ManualClock.defaultEpoch - 86_400)
        },
        claim("oidcc-client-test-iat-future", "iat an hour in the future", "OIDC Core §3.1.3.7 step 10", .invalidIssuedAt) {
            $0.idTokenClaimOverrides["iat"] = .number(ManualClock.defaultEpoch + 3600)
        },
        claim("oidcc-client-test-expired-exp", "exp ten minutes ago", "OIDC Core §3.1.3.7 step 9", .tokenExpired) {
            $0.idTokenClaimOverrides["exp"] = .number(ManualClock.defaultEpoch - 600)
        },
        claim("oidcc-client-test-missing-exp", "exp missing", "OIDC Core §2", .missingClaim) {
            $0.idTokenClaimRemovals = ["exp"]
        },
        claim("oidcc-client-test-invalid-nonce", "nonce differs", "OIDC Core §3.1.3.7 step 11", .nonceMismatch) {
            $0.idTokenClaimOverrides["nonce"] = "replayed-nonce"
        },
        claim("oidcc-client-test-missing-nonce", "nonce missing", "OIDC Core §3.1.3.7 step 11", .nonceMismatch) {
            $0.idTokenClaimRemovals = ["nonce"]
        },
        claim("oidcc-client-test-invalid-sig-rs256", "RS256 signature over other bytes", "OIDC Core §3.1.3.7 step 6", .invalidSignature) {
            $0.signing = .corruptSignature
        },
        claim("oidcc-client-test-invalid-sig-es256", "ES256 signature over other bytes", "OIDC Core §3.1.3.7 step 6", .invalidSignature, algorithm: .es256) {
            $0.signing = .corruptSignature
        },
        claim("oidcc-client-test-es256-zero-r", "ES256 signature with r = 0", "FIPS 186-4 §6.4 (CVE-2022-21449)", .invalidSignature, algorithm: .es256) {
            $0.signing = .ecdsaZeroR
        },
        claim("oidcc-client-test-es256-zero-s", "ES256 signature with s = 0", "FIPS 186-4 §6.4 (CVE-2022-21449)", .invalidSignature, algorithm: .es256) {
            $0.signing = .ecdsaZeroS
        },
        claim("oidcc-client-test-idtoken-sig-none", "alg none, empty signature", "OIDC Core §3.1.3.7 step 7, RFC 8725 §3.1", .unsupportedAlgorithm) {
            $0.signing = .unsigned
        },
        claim("rfc8725-hs256-with-rsa-public-key", "HS256 keyed with the RSA public key", "RFC 8725 §2.1", .unsupportedAlgorithm) {
            $0.signing = .hmacWithRSAPublicKey
        },
        claim("rfc8725-alg-outside-pinned-list", "alg RS512, which the client did not pin", "RFC 8725 §3.1", .unsupportedAlgorithm) {
            $0.idTokenHeaderOverrides["alg"] = "RS512"
        },
        claim("rfc7515-unknown-crit", "crit names an unknown extension", "RFC 7515 §4.1.11", .unsupportedCriticalHeader) {
            $0.idTokenHeaderOverrides["crit"] = ["urn:example:unknown"]
            $0.idTokenHeaderOverrides["urn:example:unknown"] = true
        },
        accepted("oidcc-client-test-kid-absent-single-jwks", "no kid, one matching key", "OIDC Core §10.1") {
            $0.idTokenHeaderRemovals = ["kid"]
        },
        claim("oidcc-client-test-kid-absent-multiple-jwks", "no kid, several matching keys", "OIDC Core §10.1", .missingKeyID) {
            $0.idTokenHeaderRemovals = ["kid"]
            $0.publishRotatedKeys = true
        },
        accepted("rfc8725-embedded-keys-ignored", "jku, jwk, x5u and x5c headers point elsewhere", "RFC 8725 §3.10") {
            $0.idTokenHeaderOverrides["jku"] = "https://attacker.example/jwks"
            $0.idTokenHeaderOverrides["jwk"] = ["kty": "oct", "k": "c2VjcmV0"]
            $0.idTokenHeaderOverrides["x5u"] = "https://attacker.example/cert.pem"
            $0.idTokenHeaderOverrides["x5c"] = ["MIIB"]
        },
        claim("oidcc-client-test-unknown-kid", "kid not in the JWKS (even after a refetch)", "OIDC Core §10.1.1", .unknownKeyID) {
            $0.signing = .rotatedKey
        },
        claim("hostile-idtoken-exp-out-of-range", "exp 1e300 (no date can hold it)", "RFC 7519 §2 NumericDate", .missingClaim) {
            $0.idTokenClaimOverrides["exp"] = 1e300
        },
        claim("hostile-idtoken-iss-escape-sequences", "iss with ANSI escape and bidi characters", "RFC 9700 §4; sanitized in messages", .invalidIssuer) {
            $0.idTokenClaimOverrides["iss"] = "https://idp.example.test\u{1b}[2J\u{202e}"
        },
        HostileScenario(
            id: "oidcc-client-test-max-age-old-auth-time", summary: "max_age=300 sent, auth_time an hour old",
            reference: "OIDC Core §3.1.3.7 step 13", stage: .idToken, expectation: .rejected(.authenticationTooOld),
            options: SignInOptions(maxAge: 300)
        ) {
            $0.idTokenClaimOverrides["auth_time"] = .number(ManualClock.defaultEpoch - 3600)
        },
        HostileScenario(
            id: "oidcc-client-test-max-age-missing-auth-time", summary: "max_age sent, no auth_time",
            reference: "OIDC Core §3.1.2.1 (max_age)", stage: .idToken, expectation: .rejected(.missingClaim),
            options: SignInOptions(maxAge: 300)
        ) {
            $0.idTokenClaimRemovals = ["auth_time"]
        },
        HostileScenario(
            id: "oidcc-prompt-login-stale-auth-time", summary: "prompt=login sent, auth_time before the request",
            reference: "OIDC Core §3.1.2.1 (prompt=login)", stage: .idToken, expectation: .rejected(.authenticationTooOld),
            options: SignInOptions(prompt: ["login"])
        ) {
            $0.idTokenClaimOverrides["auth_time"] = .number(ManualClock.defaultEpoch - 3600)
        },
        HostileScenario(
            id: "oidcc-essential-acr-not-satisfied", summary: "an essential acr requested, another acr returned",
            reference: "OIDC Core §5.5.1.1", stage: .idToken, expectation: .rejected(.acrNotSatisfied),
            options: SignInOptions(acrValues: ["urn:example:loa:high"], requiresACR: true)
        ) {
            $0.idTokenClaimOverrides["acr"] = "urn:example:loa:low"
        },
        claim("oidcc-client-test-at-hash-mismatch", "at_hash of another access token", "OIDC Core §3.2.2.9", .accessTokenHashMismatch) {
            $0.idTokenClaimOverrides["at_hash"] = "AAAAAAAAAAAAAAAAAAAAAA"
        }
    ]

    private static func claim(
        _ id: String,
        _ summary: String,
        _ reference: String,
        _ code: AuthError.Code,
        algorithm: JWSAlgorithm = .rs256,
        _ configure: @escaping @Sendable (inout TestIdentityProvider.Behavior) -> Void
    ) -> HostileScenario {
        HostileScenario(
            id: id, summary: summary, reference: reference, stage: .idToken, algorithm: algorithm,
            expectation: .rejected(code), configure: configure)
    }

    private static func accepted(
        _ id: String,
        _ summary: String,
        _ reference: String,
        _ configure: @escaping @Sendable (inout TestIdentityProvider.Behavior) -> Void
    ) -> HostileScenario {
        HostileScenario(id: id, summary: summary, reference: reference, stage: .idToken, expectation: .accepted, configure: configure)
    }
}
