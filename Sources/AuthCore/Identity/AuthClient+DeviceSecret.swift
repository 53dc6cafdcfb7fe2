import Crypto
import Foundation

// OpenID Connect Native SSO for Mobile Apps 1.0 (draft 07): a token answer to a request with the `device_sso` scope
// carries a `device_secret` (§3.2) and an ID token whose `ds_hash` claim binds the two (§3.1). The secret is what a
// second app of the same family presents to sign in without a browser, so one that the ID token does not vouch for
// is never kept: the sign-in (or refresh) is refused before anything is stored.
extension AuthClient {
    /// The stable code of a device secret the ID token's `ds_hash` does not match (declared publicly by
    /// AuthTokenExchange as `AuthError.Code.deviceSecretMismatch`).
    package static let deviceSecretMismatchCode = AuthError.Code(rawValue: "device_secret_mismatch")

    /// The device secret of `tokens` to keep, checked against the ID token's `ds_hash`.
    ///
    /// Native SSO §3.1 leaves "the exact binding between the ds_hash and device_secret" to the authorization server;
    /// the constructions servers use are accepted: the `at_hash` one (OpenID Connect Core §3.1.3.6: the base64url left
    /// half of the hash of the ID token's `alg`; Okta), the base64url SHA-256 (Authlete) and its hex (Authgear).
    /// Without an ID token or a `ds_hash`, nothing binds the secret to the sign-in: it is dropped (logged, never its
    /// value) and the sign-in goes on without Native SSO.
    ///
    /// - Throws: `device_secret_mismatch` when `ds_hash` is there and matches none of them.
    package func checkedDeviceSecret(_ tokens: TokenResponse, claims: IDTokenClaims?) throws -> Secret? {
        guard let deviceSecret = tokens.deviceSecret else { return nil }
        guard let idToken = tokens.idToken, let claims, let expected = claims["ds_hash"]?.stringValue else {
            log(.notice, "native_sso.unbound_device_secret", "The token answer has a device_secret but no ID token 'ds_hash' binding it; it is not kept.")
            return nil
        }
        let algorithm = (try? CompactJWS(parsing: idToken.reveal())).flatMap { JWSAlgorithm(rawValue: $0.header.algorithm) } ?? .rs256
        guard Self.deviceSecretHashes(deviceSecret, algorithm: algorithm).contains(expected) else {
            throw AuthError(
                Self.deviceSecretMismatchCode,
                "The ID token's 'ds_hash' does not match the device_secret (OpenID Connect Native SSO §3.1): the secret is not this sign-in's; nothing was stored.",
                providerID: provider.id)
        }
        return deviceSecret
    }

    /// The `ds_hash` values a device secret may have (see ``checkedDeviceSecret(_:claims:)``).
    package static func deviceSecretHashes(_ deviceSecret: Secret, algorithm: JWSAlgorithm) -> [String] {
        let digest = Data(SHA256.hash(data: Data(deviceSecret.reveal().utf8)))
        return [
            IDTokenValidator.accessTokenHash(deviceSecret, algorithm: algorithm),
            Base64URL.encode(digest),
            digest.map { String(format: "%02x", $0) }.joined()
        ]
    }
}
