package import Foundation

/// An RFC 7523 client assertion: a short-lived JWT, signed with the client's private key, that authenticates the
/// client at the token (and revocation, introspection, PAR) endpoint instead of a shared secret.
///
/// Claims: `iss` = `sub` = the client id, `aud` = the token endpoint, a fresh random `jti` (so a captured assertion
/// cannot be replayed where the server remembers them), `iat`, and `exp` one minute later.
package enum ClientAssertion {
    /// `client_assertion_type` for a JWT bearer assertion (RFC 7523 §2.2).
    package static let type = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

    /// How long an assertion is valid.
    package static let lifetime: TimeInterval = 60

    /// A signed assertion for `clientID` addressed to `audience`, issued at `now`.
    package static func make(clientID: String, audience: String, key: ClientSigningKey, now: Date) throws -> Secret {
        let issuedAt = now.timeIntervalSince1970.rounded(.down)
        let claims: [String: JSONValue] = [
            "iss": .string(clientID), "sub": .string(clientID), "aud": .string(audience),
            "jti": .string(SecureRandom.token()), "iat": .number(issuedAt), "exp": .number(issuedAt + lifetime)
        ]
        return Secret(try key.signedJWT(type: "JWT", claims: claims))
    }
}
