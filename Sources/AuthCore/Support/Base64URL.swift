package import Foundation

/// Base64url without padding (RFC 4648 §5), as JOSE and PKCE use it.
///
/// Byte-level in both directions: every ID token decodes three segments and every sign-in encodes its three
/// secrets, and going through Foundation's standard base64 (with the alphabet swapped on a copy) was the largest
/// cost of parsing a token.
package enum Base64URL {
    /// Encodes bytes as unpadded base64url text.
    package static func encode(_ data: some DataProtocol) -> String {
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
        (count / 3) * 4 + (count % 3 == 0 ? 0 : count % 3 + 1)
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
    package static func decode(_ text: some StringProtocol) -> Data? {
        var text = String(text)
        return text.withUTF8 { decode(UnsafeRawBufferPointer($0)) }
    }

    /// Decodes the unpadded base64url text in `text`, with the rules of ``decode(_:)``.
    package static func decode(_ text: UnsafeRawBufferPointer) -> Data? {
        guard let count = decodedLength(text.count) else { return nil }
        guard count > 0 else { return Data() }
        var data = Data(count: count)
        let valid = data.withUnsafeMutableBytes { decode(text, into: $0) }
        return valid ? data : nil
    }

    /// The decoded length of `count` base64url characters, `nil` for a length no encoder produces.
    package static func decodedLength(_ count: Int) -> Int? {
        count % 4 == 1 ? nil : (count / 4) * 3 + max(0, count % 4 - 1)
    }

    /// Decodes `text` (whose length is not 1 modulo 4) into `output`, exactly its decoded length; `false` for a
    /// character outside the alphabet or a non-canonical final character.
    package static func decode(_ text: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Bool {
        guard let input = text.baseAddress, let out = output.baseAddress else { return text.isEmpty }
        return values.withUnsafeBufferPointer { table in
            // Unchecked pointer arithmetic: the bounds are the loop's, and this is the token path's inner loop.
            let value = { (offset: Int) -> UInt32 in UInt32(table[Int(input.load(fromByteOffset: offset, as: UInt8.self))]) }
            var written = 0
            var index = 0
            var invalid: UInt32 = 0
            while index + 4 <= text.count {
                let a = value(index)
                let b = value(index + 1)
                let c = value(index + 2)
                let d = value(index + 3)
                // A valid character's value is below 64; the table's 0xFF for any other byte is not.
                invalid |= a | b | c | d
                let chunk = a << 18 | b << 12 | c << 6 | d
                out.storeBytes(of: UInt8(truncatingIfNeeded: chunk >> 16), toByteOffset: written, as: UInt8.self)
                out.storeBytes(of: UInt8(truncatingIfNeeded: chunk >> 8), toByteOffset: written + 1, as: UInt8.self)
                out.storeBytes(of: UInt8(truncatingIfNeeded: chunk), toByteOffset: written + 2, as: UInt8.self)
                written += 3
                index += 4
            }
            guard invalid < 64 else { return false }
            switch text.count - index {
            case 2:
                let a = value(index)
                let b = value(index + 1)
                guard (a | b) < 64, b & 0x0F == 0 else { return false }
                out.storeBytes(of: UInt8(truncatingIfNeeded: a << 2 | b >> 4), toByteOffset: written, as: UInt8.self)
            case 3:
                let a = value(index)
                let b = value(index + 1)
                let c = value(index + 2)
                guard (a | b | c) < 64, c & 0x03 == 0 else { return false }
                let chunk = a << 12 | b << 6 | c
                out.storeBytes(of: UInt8(truncatingIfNeeded: chunk >> 10), toByteOffset: written, as: UInt8.self)
                out.storeBytes(of: UInt8(truncatingIfNeeded: chunk >> 2), toByteOffset: written + 1, as: UInt8.self)
            default: break
            }
            return true
        }
    }

    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Each byte's 6-bit value, or 0xFF for a byte outside the alphabet (padding included).
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
        return table
    }()
}
