public import Foundation
import Crypto

/// Random values for `state`, `nonce` and PKCE verifiers, from the system CSPRNG through swift-crypto.
public enum SecureRandom {
    /// `count` random bytes.
    public static func bytes(_ count: Int) -> Data {
        precondition(count > 0, "SecureRandom.bytes needs a positive count")
        // SymmetricKey draws its bytes from the platform CSPRNG (BoringSSL's RAND_bytes / SecRandomCopyBytes).
        let key = SymmetricKey(size: SymmetricKeySize(bitCount: count * 8))
        return key.withUnsafeBytes { Data($0) }
    }

    /// An unpadded base64url string carrying `byteCount` random bytes (32 bytes → 43 characters, 256 bits).
    public static func token(byteCount: Int = 32) -> String {
        tokens(1, byteCount: byteCount)[0]
    }

    /// `count` independent tokens of `byteCount` random bytes each, from one draw of the CSPRNG: a sign-in's PKCE
    /// verifier, `state` and `nonce` cost one system call instead of three. The tokens share no bytes.
    public static func tokens(_ count: Int, byteCount: Int = 32) -> [String] {
        precondition(count > 0 && byteCount > 0, "SecureRandom.tokens needs a positive count and byte count")
        let key = SymmetricKey(size: SymmetricKeySize(bitCount: count * byteCount * 8))
        return key.withUnsafeBytes { random in
            (0..<count).map { index in
                Base64URL.encode(UnsafeRawBufferPointer(rebasing: random[(index * byteCount)..<((index + 1) * byteCount)]))
            }
        }
    }

    /// A string of `length` characters drawn uniformly from `alphabet` (rejection sampling, no modulo bias).
    public static func string(length: Int, alphabet: String) -> String {
        let characters = Array(alphabet)
        precondition(!characters.isEmpty && characters.count <= 256, "alphabet must have 1…256 characters")
        let limit = 256 - (256 % characters.count)
        var result = ""
        result.reserveCapacity(length)
        while result.count < length {
            for byte in bytes(max(16, length * 2)) where Int(byte) < limit && result.count < length {
                result.append(characters[Int(byte) % characters.count])
            }
        }
        return result
    }
}
