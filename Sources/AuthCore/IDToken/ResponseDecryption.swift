package import Foundation

/// Encrypted ID tokens and user info for a client that registered for them (OpenID Connect Core §10.2, §3.1.3.7
/// step 1, §5.3.2): what arrives is decrypted before anything else is checked, and what it decrypts to is checked as if
/// it had arrived in the clear.
package enum ResponseDecryption {
    /// The signed ID token inside `idToken`, for a client that registered `id_token_encrypted_response_alg`; `idToken`
    /// itself for one that did not (and then a JWE is refused: nothing was registered to decrypt it with).
    ///
    /// OpenID Connect Core §3.1.3.7 step 1: "If the ID Token is encrypted, decrypt it using the keys and algorithms that
    /// the Client specified during Registration […] If encryption was negotiated with the OP at Registration time and
    /// the ID Token is not encrypted, the RP SHOULD reject it"; §10.2: the content is a nested JWT (RFC 7519 §5.2),
    /// signed.
    ///
    /// - Throws: `unencrypted_response` for a token in the clear though encryption was registered; `decryption_failed`
    ///   for one that does not decrypt; `unsigned_response` when the plaintext is not a signed JWT (an `alg: none`
    ///   token, or not a JWS at all); `unsupported_algorithm` for an `alg` / `enc` other than the registered one.
    package static func idToken(_ idToken: Secret, client: ClientRegistration) throws -> Secret {
        let token = idToken.reveal()
        guard CompactJWE.looksEncrypted(token) else {
            if let registered = client.idTokenEncryption {
                throw AuthError(
                    .unencryptedResponse,
                    "The ID token arrived in the clear, though this client registered for ID tokens encrypted with \(registered.algorithm)/\(registered.contentEncryption)."
                )
            }
            return idToken
        }
        guard let registered = client.idTokenEncryption else {
            throw AuthError(.decryptionFailed, "The ID token is encrypted, and this client registered for no encrypted ID tokens (id_token_encrypted_response_alg).")
        }
        let plaintext = try decrypt(token, expected: registered, client: client)
        return Secret(try signedJWT(plaintext, what: "ID token"))
    }

    /// The plaintext of the JWE `token`, decrypted with the client's keys (or secret) as `expected` says.
    package static func decrypt(_ token: String, expected: ResponseEncryption, client: ClientRegistration) throws -> Data {
        let jwe = try CompactJWE(parsing: token)
        return try JWEDecryptor(keys: client.decryptionKeys, clientSecret: client.clientSecret).decrypt(jwe, expected: expected)
    }

    /// `plaintext` as the text of a signed compact JWS (three segments, an `alg` other than `none`).
    ///
    /// - Throws: `unsigned_response` otherwise.
    package static func signedJWT(_ plaintext: Data, what: String) throws -> String {
        guard let text = String(data: plaintext, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
            let jws = try? CompactJWS(parsing: text)
        else {
            throw AuthError(.unsignedResponse, "The encrypted \(what) does not contain a signed JWT; it is refused unsigned.")
        }
        guard jws.header.algorithm.lowercased() != "none", !jws.signatureBytes.isEmpty else {
            throw AuthError(.unsignedResponse, "The encrypted \(what) contains an unsigned JWT (alg '\(jws.header.algorithm)'); unsigned tokens are refused always.")
        }
        return text
    }
}
