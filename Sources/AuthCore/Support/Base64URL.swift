public import Foundation

/// Base64url without padding (RFC 4648 §5), as JOSE and PKCE use it.
///
/// Byte-level in both directions: every ID token decodes three segments and every sign-in encodes its three
/// secrets, and going through Foundation's standard base64 (with the alphabet swapped on a copy) was the largest
/// cost of parsing a token.
public enum Base64URL {
    /// Encodes bytes as unpadded base64url text.
    public static func encode(_ data: some DataProtocol) -> String {
        if let text = data.withContiguousStorageIfAvailable({ encode(UnsafeRawBufferPointer($0)) }) { return text }
        return [UInt8](data).withUnsafeBytes { encode($0) }
    }

    /// Encodes the bytes in `bytes` as unpadded base64url text.
    package static func encode(_ bytes: UnsafeRawBufferPointer) -> String {
        String(unsafeUninitializedCapacity: encodedLength(bytes.count)) { output in
            encode(bytes, into: UnsafeMutableRawBufferPointer(output))
        }
    }

    /// The length of the unpadded encoding of `count` bytes.
    package static func encodedLength(_ count: Int) -> Int {
        (count / 3) * 4 + [0, 2, 3][count % 3]
    }

    /// Writes the unpadded encoding of `bytes` at the start of `output` (at least ``encodedLength(_:)`` bytes).
    ///
    /// - Returns: the number of bytes written.
    @discardableResult
    package static func encode(_ bytes: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Int {
        var out = 0
        var index = 0
        while index + 3 <= bytes.count {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            output[out] = alphabet[Int(chunk >> 18)]
            output[out + 1] = alphabet[Int(chunk >> 12 & 0x3F)]
            output[out + 2] = alphabet[Int(chunk >> 6 & 0x3F)]
            output[out + 3] = alphabet[Int(chunk & 0x3F)]
            out += 4
            index += 3
        }
        switch bytes.count - index {
        case 1:
            let chunk = UInt32(bytes[index]) << 16
            output[out] = alphabet[Int(chunk >> 18)]
            output[out + 1] = alphabet[Int(chunk >> 12 & 0x3F)]
            out += 2
        case 2:
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            output[out] = alphabet[Int(chunk >> 18)]
            output[out + 1] = alphabet[Int(chunk >> 12 & 0x3F)]
            output[out + 2] = alphabet[Int(chunk >> 6 & 0x3F)]
            out += 3
        default: break
        }
        return out
    }

    /// Decodes unpadded base64url text; `nil` for any character outside the base64url alphabet, for padding,
    /// for a length no encoder can produce, or for a final character whose unused bits are not zero (a
    /// non-canonical encoding: two different texts must never decode to the same bytes).
    public static func decode(_ text: some StringProtocol) -> Data? {
        var text = String(text)
        return text.withUTF8 { decode(UnsafeRawBufferPointer($0)) }
    }

    /// Decodes the unpadded base64url text in `text`, with the rules of ``decode(_:)``.
    package static func decode(_ text: UnsafeRawBufferPointer) -> Data? {
        let remainder = text.count % 4
        guard remainder != 1 else { return nil }
        let count = (text.count / 4) * 3 + [0, 0, 1, 2][remainder]
        guard count > 0 else { return Data() }
        var data = Data(count: count)
        let valid = data.withUnsafeMutableBytes { decode(text, into: $0) }
        return valid ? data : nil
    }

    /// Decodes `text` (whose length is not 1 modulo 4) into `output`, exactly its decoded length.
    private static func decode(_ text: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Bool {
        var out = 0
        var index = 0
        var invalid: UInt8 = 0
        while index + 4 <= text.count {
            let a = values[Int(text[index])], b = values[Int(text[index + 1])]
            let c = values[Int(text[index + 2])], d = values[Int(text[index + 3])]
            invalid |= (a | b | c | d) & 0x80
            let chunk = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
            output[out] = UInt8(truncatingIfNeeded: chunk >> 16)
            output[out + 1] = UInt8(truncatingIfNeeded: chunk >> 8)
            output[out + 2] = UInt8(truncatingIfNeeded: chunk)
            out += 3
            index += 4
        }
        switch text.count - index {
        case 2:
            let a = values[Int(text[index])], b = values[Int(text[index + 1])]
            invalid |= (a | b) & 0x80
            guard invalid == 0, b & 0x0F == 0 else { return false }
            output[out] = a << 2 | b >> 4
        case 3:
            let a = values[Int(text[index])], b = values[Int(text[index + 1])], c = values[Int(text[index + 2])]
            invalid |= (a | b | c) & 0x80
            guard invalid == 0, c & 0x03 == 0 else { return false }
            let chunk = UInt32(a) << 12 | UInt32(b) << 6 | UInt32(c)
            output[out] = UInt8(truncatingIfNeeded: chunk >> 10)
            output[out + 1] = UInt8(truncatingIfNeeded: chunk >> 2)
        default: break
        }
        return invalid == 0
    }

    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Each byte's 6-bit value, or 0xFF for a byte outside the alphabet (padding included).
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
        return table
    }()
}
