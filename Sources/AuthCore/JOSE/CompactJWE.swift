import Crypto
package import Foundation
import _CryptoExtras

/// A JWE in compact serialization (RFC 7516 §7.1: `header.encrypted_key.iv.ciphertext.tag`), parsed but not yet
/// decrypted.
///
/// Parsing never trusts the input: the length is capped, each of the five segments must be strict base64url, the
/// protected header must be a JSON object with string `alg` and `enc`. A `zip` member (RFC 7516 §4.1.3: compressed
/// plaintext, a decompression bomb in waiting) and any `crit` extension are refused: none is understood.
package struct CompactJWE: Sendable {
    /// The protected header's members.
    package let header: [String: JSONValue]
    /// The key management algorithm (`alg`, RFC 7518 §4.1).
    package let algorithm: String
    /// The content encryption algorithm (`enc`, RFC 7518 §5.1).
    package let contentEncryption: String
    /// The decoded JWE Encrypted Key (empty for ECDH-ES in direct key agreement mode).
    package let encryptedKey: Data
    /// The decoded initialization vector.
    package let initializationVector: Data
    /// The decoded ciphertext.
    package let ciphertext: Data
    /// The decoded authentication tag.
    package let tag: Data
    /// The additional authenticated data: the ASCII of the encoded protected header (RFC 7516 §5.2).
    package let additionalData: Data

    /// The largest JWE accepted, in bytes: four times a signed token's cap, enough for an encrypted ID token or
    /// user info answer with room for its base64url and key overhead.
    package static let maximumLength = 4 * CompactJWS.maximumLength

    /// Whether `token` has the shape of a compact JWE (five segments) rather than a JWS (three).
    package static func looksEncrypted(_ token: String) -> Bool {
        token.utf8.lazy.filter { $0 == UInt8(ascii: ".") }.count == 4
    }

    /// Parses `token`.
    ///
    /// - Throws: `decryption_failed` for an oversized token, a wrong segment count, invalid base64url or a header
    ///   that is not a JSON object with `alg` and `enc`; `unsupported_critical_header` for `crit`;
    ///   `unsupported_algorithm` for `zip`.
    package init(parsing token: String) throws {
        guard token.utf8.count <= Self.maximumLength else {
            throw AuthError(.decryptionFailed, "The encrypted token is larger than \(Self.maximumLength) bytes.")
        }
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 5 else {
            throw AuthError(.decryptionFailed, "The encrypted token has \(segments.count) segments; a compact JWE has 5.")
        }
        var decoded: [Data] = []
        for segment in segments {
            guard let data = Base64URL.decode(segment) else {
                throw AuthError(.decryptionFailed, "A segment of the encrypted token is not valid base64url.")
            }
            decoded.append(data)
        }
        guard let header = try? JSONValue.parseObject(decoded[0]),
            let algorithm = header["alg"]?.stringValue, let encryption = header["enc"]?.stringValue
        else {
            throw AuthError(.decryptionFailed, "The encrypted token's header is not a JSON object with 'alg' and 'enc'.")
        }
        if header["crit"] != nil {
            throw AuthError(.unsupportedCriticalHeader, "The encrypted token marks header extensions as critical, which this client does not understand.")
        }
        if header["zip"] != nil {
            throw AuthError(.unsupportedAlgorithm, "The encrypted token is compressed ('zip'), which this client does not accept.")
        }
        self.header = header
        self.algorithm = algorithm
        self.contentEncryption = encryption
        self.encryptedKey = decoded[1]
        self.initializationVector = decoded[2]
        self.ciphertext = decoded[3]
        self.tag = decoded[4]
        self.additionalData = Data(segments[0].utf8)
    }
}

/// The key management algorithms (RFC 7518 §4.1) the client decrypts with. `RSA1_5` is not among them: RSAES-PKCS1-v1_5
/// key transport is open to padding-oracle attacks (RFC 8725 §3.2), and neither are `dir`, the PBES2 and AES-GCM key
/// wrap families or 192-bit variants, which no OpenID Connect provider this package meets sends.
package enum JWEKeyManagement: String, Sendable, CaseIterable {
    /// RSAES OAEP with SHA-1 and MGF1 with SHA-1 (RFC 7518 §4.3).
    case rsaOAEP = "RSA-OAEP"
    /// RSAES OAEP with SHA-256 and MGF1 with SHA-256 (RFC 7518 §4.3).
    case rsaOAEP256 = "RSA-OAEP-256"
    /// ECDH-ES in direct key agreement mode (RFC 7518 §4.6): the Concat KDF output is the content key.
    case ecdhES = "ECDH-ES"
    /// ECDH-ES, then the content key unwrapped with AES-128 Key Wrap (RFC 7518 §4.6, RFC 3394).
    case ecdhESA128KW = "ECDH-ES+A128KW"
    /// ECDH-ES, then AES-256 Key Wrap.
    case ecdhESA256KW = "ECDH-ES+A256KW"
    /// AES-128 Key Wrap (RFC 7518 §4.4) with a key derived from the client secret (OpenID Connect Core §10.2).
    case a128KW = "A128KW"
    /// AES-256 Key Wrap with a key derived from the client secret.
    case a256KW = "A256KW"

    /// The key wrap key length in bytes, for the algorithms that wrap.
    package var wrapKeyLength: Int? {
        switch self {
        case .ecdhESA128KW, .a128KW: 16
        case .ecdhESA256KW, .a256KW: 32
        default: nil
        }
    }
}

/// The content encryption algorithms (RFC 7518 §5.1) the client decrypts.
package enum JWEContentEncryption: String, Sendable, CaseIterable {
    /// AES-128 in CBC mode with HMAC SHA-256, truncated to 128 bits (RFC 7518 §5.2.3): the default of OpenID Connect
    /// Dynamic Client Registration §2 when a client registers an `alg` without an `enc`.
    case a128CBCHS256 = "A128CBC-HS256"
    /// AES-256 in CBC mode with HMAC SHA-512, truncated to 256 bits (RFC 7518 §5.2.5).
    case a256CBCHS512 = "A256CBC-HS512"
    /// AES-128 GCM (RFC 7518 §5.3).
    case a128GCM = "A128GCM"
    /// AES-256 GCM (RFC 7518 §5.3).
    case a256GCM = "A256GCM"

    /// The content encryption key length in bytes (for CBC-HMAC, the MAC key and the encryption key together).
    package var keyLength: Int {
        switch self {
        case .a128CBCHS256: 32
        case .a256CBCHS512: 64
        case .a128GCM: 16
        case .a256GCM: 32
        }
    }

    /// Decrypts and authenticates `jwe` with the content encryption key `key`.
    ///
    /// - Throws: `decryption_failed` when the key, IV or tag has the wrong length or the tag does not verify.
    func open(_ jwe: CompactJWE, key: Data) throws -> Data {
        let failed = AuthError(.decryptionFailed, "The encrypted token does not decrypt with the client's key: its authentication tag does not verify.")
        guard key.count == keyLength else { throw failed }
        switch self {
        case .a128GCM, .a256GCM:
            // RFC 7518 §5.3: a 96-bit IV and a 128-bit tag, the protected header as additional data.
            guard jwe.initializationVector.count == 12, jwe.tag.count == 16,
                let nonce = try? AES.GCM.Nonce(data: jwe.initializationVector),
                let box = try? AES.GCM.SealedBox(nonce: nonce, ciphertext: jwe.ciphertext, tag: jwe.tag),
                let plaintext = try? AES.GCM.open(box, using: SymmetricKey(data: key), authenticating: jwe.additionalData)
            else { throw failed }
            return plaintext
        case .a128CBCHS256, .a256CBCHS512:
            // RFC 7518 §5.2.2.2: MAC_KEY is the first half, ENC_KEY the second; the tag is the first half of
            // HMAC(MAC_KEY, AAD ‖ IV ‖ ciphertext ‖ AL), AL the AAD's length in bits as a 64-bit big-endian integer.
            // The tag is checked before anything is decrypted, in constant time.
            let half = keyLength / 2
            guard jwe.initializationVector.count == 16, jwe.tag.count == half else { throw failed }
            let macKey = SymmetricKey(data: key.prefix(half))
            let encryptionKey = SymmetricKey(data: key.suffix(half))
            var macInput = jwe.additionalData
            macInput.append(jwe.initializationVector)
            macInput.append(jwe.ciphertext)
            withUnsafeBytes(of: UInt64(jwe.additionalData.count * 8).bigEndian) { macInput.append(contentsOf: $0) }
            let mac: Data =
                self == .a128CBCHS256
                ? Data(HMAC<SHA256>.authenticationCode(for: macInput, using: macKey))
                : Data(HMAC<SHA512>.authenticationCode(for: macInput, using: macKey))
            guard Self.constantTimeEqual(mac.prefix(half), jwe.tag),
                let iv = try? AES._CBC.IV(ivBytes: Array(jwe.initializationVector)),
                let plaintext = try? AES._CBC.decrypt(jwe.ciphertext, using: encryptionKey, iv: iv)
            else { throw failed }
            return plaintext
        }
    }

    /// Whether `lhs` and `rhs` are equal, in time that depends only on their lengths.
    static func constantTimeEqual(_ lhs: some Collection<UInt8>, _ rhs: some Collection<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for (left, right) in zip(lhs, rhs) { difference |= left ^ right }
        return difference == 0
    }
}
