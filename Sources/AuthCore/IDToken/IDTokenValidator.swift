import Crypto
package import Foundation

/// Validates an ID token as OpenID Connect Core §3.1.3.7 requires, with pinned algorithms.
///
/// The checks, in order: the JWS parses; `alg` is in the policy's pinned list (never `none`, never HMAC);
/// no unknown `crit`; the key comes only from the provider's JWKS (never from `jku`/`jwk`/`x5u`/`x5c`);
/// the signature verifies; then `iss`, `aud` (no untrusted extra audience), `azp`, `exp`, `iat`, `nbf`,
/// `nonce`, `sub` and, when present, `at_hash`.
package struct IDTokenValidator: Sendable {
    /// The validation policy.
    package var policy: IDTokenPolicy
    /// The expected issuer.
    package var issuer: String
    /// The client id, which must be an audience.
    package var clientID: String

    /// Creates a validator.
    package init(issuer: String, clientID: String, policy: IDTokenPolicy = .standard) {
        self.issuer = issuer
        self.clientID = clientID
        self.policy = policy
    }

    /// Parses `token` and checks its header against the pinned algorithms.
    ///
    /// - Returns: the parsed token and its algorithm, ready for key lookup.
    package func parse(_ token: String) throws -> (jws: CompactJWS, algorithm: JWSAlgorithm) {
        let jws = try CompactJWS(parsing: token)
        return (jws, try jws.pinnedAlgorithm(allowed: policy.allowedAlgorithms, tokenKind: "ID token"))
    }

    /// Validates `token` completely, taking keys from `keySet`.
    ///
    /// - Parameters:
    ///   - token: the ID token in compact serialization.
    ///   - keySet: the provider's current key set.
    ///   - nonce: the nonce sent in the authorization request; `nil` skips the check (refresh responses).
    ///   - accessToken: the access token issued with the ID token, to check `at_hash` when present.
    ///   - now: the current time from the injected clock.
    package func validate(
        _ token: String,
        keySet: JSONWebKeySet,
        nonce: String?,
        accessToken: Secret? = nil,
        now: Date
    ) throws -> IDTokenClaims {
        let (jws, algorithm) = try parse(token)
        let key = try keySet.key(id: jws.header.keyID, for: algorithm)
        return try validate(jws, algorithm: algorithm, key: key, nonce: nonce, accessToken: accessToken, now: now)
    }

    /// Verifies the signature of a parsed token with `key`, then validates its claims.
    package func validate(
        _ jws: CompactJWS,
        algorithm: JWSAlgorithm,
        key: JSONWebKey,
        nonce: String?,
        accessToken: Secret? = nil,
        now: Date
    ) throws -> IDTokenClaims {
        let object = try jws.verifiedClaims(with: key, algorithm: algorithm, tokenKind: "ID token", malformed: .malformedIDToken)
        let claims = try IDTokenClaims(object)
        try validateClaims(claims, algorithm: algorithm, nonce: nonce, accessToken: accessToken, now: now)
        return claims
    }

    /// The claim checks of §3.1.3.7 steps 2–5 and 9–11, plus `nbf` and `at_hash`.
    package func validateClaims(
        _ claims: IDTokenClaims,
        algorithm: JWSAlgorithm,
        nonce: String?,
        accessToken: Secret?,
        now: Date
    ) throws {
        guard policy.tokenIssuerMatches(claims.issuer, expected: issuer, claim: { claims[$0]?.stringValue }) else {
            throw AuthError(.invalidIssuer, "The ID token's issuer '\(claims.issuer)' is not '\(issuer)'.")
        }
        guard claims.audience.contains(clientID) else {
            throw AuthError(.invalidAudience, "The ID token is not issued for this client id.")
        }
        // One audience is this client (checked above); only several can include an untrusted one.
        if claims.audience.count > 1 {
            let untrusted = claims.audience.filter { $0 != clientID && !policy.trustedAudiences.contains($0) }
            guard untrusted.isEmpty else {
                throw AuthError(.invalidAudience, "The ID token also names audiences this client does not trust: \(untrusted.joined(separator: ", ")).")
            }
        }
        if let party = claims.authorizedParty, party != clientID {
            throw AuthError(.invalidAuthorizedParty, "The ID token's 'azp' is not this client id.")
        }
        if claims.audience.count > 1, claims.authorizedParty == nil {
            throw AuthError(.invalidAuthorizedParty, "The ID token has several audiences but no 'azp'.")
        }
        guard now.timeIntervalSince(claims.expiration) < policy.clockSkew else {
            throw AuthError(.tokenExpired, "The ID token expired at \(claims.expiration).")
        }
        guard claims.issuedAt.timeIntervalSince(now) <= policy.clockSkew else {
            throw AuthError(.invalidIssuedAt, "The ID token's 'iat' is in the future; check the device clock.")
        }
        guard now.timeIntervalSince(claims.issuedAt) <= policy.maximumIssuedAtAge + policy.clockSkew else {
            throw AuthError(.invalidIssuedAt, "The ID token was issued too long ago (\(claims.issuedAt)).")
        }
        if let notBefore = claims["nbf"], notBefore != .null {
            guard let date = notBefore.timestampValue else {
                throw AuthError(.malformedIDToken, "The ID token's 'nbf' is not a valid NumericDate.")
            }
            if date.timeIntervalSince(now) > policy.clockSkew {
                throw AuthError(.invalidIssuedAt, "The ID token is not valid yet ('nbf' is in the future).")
            }
        }
        if let nonce {
            guard let claimed = claims.nonce else {
                throw AuthError(.nonceMismatch, "The ID token has no 'nonce' though one was sent.")
            }
            guard claimed == nonce else {
                throw AuthError(.nonceMismatch, "The ID token's 'nonce' is not the one sent with this sign-in.")
            }
        }
        if let expectedHash = claims["at_hash"], let accessToken {
            guard expectedHash.stringValue == Self.accessTokenHash(accessToken, algorithm: algorithm) else {
                throw AuthError(.accessTokenHashMismatch, "The ID token's 'at_hash' does not match the access token.")
            }
        }
    }

    /// `at_hash`: the base64url left half of the access token's hash with the JWS algorithm's hash function.
    package static func accessTokenHash(_ accessToken: Secret, algorithm: JWSAlgorithm) -> String {
        let bytes = Data(accessToken.reveal().utf8)
        let digest: Data
        switch algorithm {
        case .rs384, .ps384, .es384: digest = Data(SHA384.hash(data: bytes))
        // EdDSA with Ed25519 hashes with SHA-512 (OpenID Connect Core's errata and FAPI 2.0's implementations).
        case .rs512, .ps512, .edDSA: digest = Data(SHA512.hash(data: bytes))
        default: digest = Data(SHA256.hash(data: bytes))
        }
        return Base64URL.encode(digest.prefix(digest.count / 2))
    }
}
