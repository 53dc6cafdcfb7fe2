/// What a client registered for encrypted ID tokens or user info (OpenID Connect Dynamic Client Registration §2:
/// `id_token_encrypted_response_alg` / `_enc`, `userinfo_encrypted_response_alg` / `_enc`).
///
/// The engine then refuses an answer in the clear (`unencrypted_response`) and a JWE with any other `alg` or `enc`
/// (`unsupported_algorithm`). Key management: `RSA-OAEP`, `RSA-OAEP-256`, `ECDH-ES`, `ECDH-ES+A128KW`,
/// `ECDH-ES+A256KW` (with ``ClientRegistration/decryptionKeys``), `A128KW`, `A256KW` (with a key derived from the
/// client secret, OpenID Connect Core §10.2); never `RSA1_5` (RFC 8725 §3.2). Content encryption: `A128CBC-HS256`,
/// `A256CBC-HS512`, `A128GCM`, `A256GCM`.
public struct ResponseEncryption: Sendable, Hashable {
    /// The key management algorithm (`alg`, RFC 7518 §4.1), such as `RSA-OAEP`.
    public var algorithm: String
    /// The content encryption algorithm (`enc`, RFC 7518 §5.1); `A128CBC-HS256` when the registration names none.
    public var contentEncryption: String

    /// Creates the registered pair; `contentEncryption` defaults as the registration specification does.
    public init(algorithm: String, contentEncryption: String = "A128CBC-HS256") {
        self.algorithm = algorithm
        self.contentEncryption = contentEncryption
    }
}
