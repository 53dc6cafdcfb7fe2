import Crypto
import Foundation

/// A PKCE verifier and its S256 challenge (RFC 7636). The `plain` method is never used.
package struct PKCE: Sendable {
    /// The code verifier: 43–128 characters from the unreserved set, kept secret until the token request.
    package let verifier: Secret
    /// `BASE64URL(SHA256(verifier))`.
    package let challenge: String
    /// Always `S256`.
    package let method = "S256"

    /// A fresh verifier of `length` characters from the system CSPRNG (43, the default, carries 256 bits).
    package static func generate(length: Int = 43) -> PKCE {
        precondition((43...128).contains(length), "A PKCE verifier has 43 to 128 characters (RFC 7636 §4.1)")
        let text =
            length == 43
            ? SecureRandom.token(byteCount: 32)
            : SecureRandom.string(length: length, alphabet: unreservedAlphabet)
        return PKCE(generated: text)
    }

    /// Wraps a verifier made by ``SecureRandom`` (valid by construction: base64url of 32 random bytes, or drawn
    /// from the unreserved alphabet).
    init(generated verifier: String) {
        self.verifier = Secret(verifier)
        self.challenge = Self.challenge(for: self.verifier)
    }

    /// Wraps an existing verifier, for example RFC 7636 appendix B's example.
    ///
    /// - Throws: `invalid_configuration` when the verifier is not 43–128 unreserved characters.
    package init(verifier: Secret) throws {
        let text = verifier.reveal()
        guard (43...128).contains(text.utf8.count), text.utf8.allSatisfy(FormEncoding.isUnreserved) else {
            throw AuthError(.invalidConfiguration, "A PKCE verifier must be 43–128 characters of [A-Za-z0-9-._~].")
        }
        self.verifier = verifier
        self.challenge = Self.challenge(for: verifier)
    }

    /// The S256 challenge of `verifier`.
    package static func challenge(for verifier: Secret) -> String {
        var text = verifier.reveal()
        let digest = text.withUTF8 { SHA256.hash(data: UnsafeRawBufferPointer($0)) }
        return digest.withUnsafeBytes { Base64URL.encode($0) }
    }

    static let unreservedAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
}
