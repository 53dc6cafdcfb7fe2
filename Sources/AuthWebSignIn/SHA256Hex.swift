import Crypto

/// SHA-256 of `value`'s UTF-8 in lowercase hex: how session ids, sign-in cookies and states are kept (never the
/// values themselves), in every store.
///
/// Every request of a signed-in browser pays for this (its session cookie is looked up by digest), so the hex is
/// written with a table into one buffer: formatting each byte with `String(format:)` cost more than the hash.
package func sha256Hex(_ value: String) -> String {
    var value = value
    let digest = value.withUTF8 { SHA256.hash(data: UnsafeRawBufferPointer($0)) }
    return String(unsafeUninitializedCapacity: SHA256.byteCount * 2) { buffer in
        var index = 0
        for byte in digest {
            buffer[index] = hexDigits[Int(byte >> 4)]
            buffer[index + 1] = hexDigits[Int(byte & 0x0F)]
            index += 2
        }
        return index
    }
}

private let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
