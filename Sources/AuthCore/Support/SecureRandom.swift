package import Foundation

/// Random values for `state`, `nonce`, PKCE verifiers and keys' ids, from the system CSPRNG.
///
/// The bytes come from the entry point behind the standard library's `SystemRandomNumberGenerator`
/// (`getrandom(2)` on Linux, `arc4random_buf` on Apple platforms), called once per draw: `SystemRandomNumberGenerator`
/// itself — and swift-crypto's `SymmetricKey`, which uses it — makes one system call per 8 bytes, twelve for a
/// sign-in's three secrets.
package enum SecureRandom {
    /// `count` random bytes.
    package static func bytes(_ count: Int) -> Data {
        precondition(count > 0, "SecureRandom.bytes needs a positive count")
        var data = Data(count: count)
        data.withUnsafeMutableBytes { fill($0) }
        return data
    }

    /// Fills `buffer` with random bytes in one call to the system CSPRNG.
    package static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        systemRandom(base, buffer.count)
    }

    /// An unpadded base64url string carrying `byteCount` random bytes (32 bytes → 43 characters, 256 bits).
    package static func token(byteCount: Int = 32) -> String {
        tokens(1, byteCount: byteCount)[0]
    }

    /// `count` independent tokens of `byteCount` random bytes each, from one draw of the CSPRNG: a sign-in's PKCE
    /// verifier, `state` and `nonce` cost one system call. The tokens share no bytes.
    package static func tokens(_ count: Int, byteCount: Int = 32) -> [String] {
        precondition(count > 0 && byteCount > 0, "SecureRandom.tokens needs a positive count and byte count")
        return withUnsafeTemporaryAllocation(byteCount: count * byteCount, alignment: 8) { random in
            fill(random)
            defer { random.initializeMemory(as: UInt8.self, repeating: 0) }  // no secret left on the stack
            return (0..<count).map { index in
                Base64URL.encode(UnsafeRawBufferPointer(rebasing: random[(index * byteCount)..<((index + 1) * byteCount)]))
            }
        }
    }

    /// A string of `length` characters drawn uniformly from `alphabet` (rejection sampling, no modulo bias).
    package static func string(length: Int, alphabet: String) -> String {
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

/// The standard library's CSPRNG entry point (declared in SwiftShims' `Random.h` and part of the runtime's ABI: the
/// inlinable `SystemRandomNumberGenerator.next()` calls it from every module). It fills any length, retries
/// interrupted reads, and stops the process rather than return predictable bytes.
@_silgen_name("swift_stdlib_random")
private func systemRandom(_ buffer: UnsafeMutableRawPointer, _ count: Int)
