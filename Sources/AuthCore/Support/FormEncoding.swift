package import Foundation

/// `application/x-www-form-urlencoded` encoding and decoding, strict enough for OAuth.
///
/// Everything outside RFC 3986's unreserved set is percent-encoded, so `+`, `&`, `=` and `/` in values (base64
/// login hints, JSON `vtr` arrays, URLs) survive both query strings and form bodies unchanged. Both directions work
/// on UTF-8 bytes: every authorization request is built here and every redirect read here, and Foundation's
/// character-set percent-encoding and `URLComponents` were most of their cost.
package enum FormEncoding {
    /// Percent-encodes one key or value.
    package static func escape(_ value: String) -> String {
        var value = value
        return value.withUTF8 { bytes in
            String(unsafeUninitializedCapacity: escapedLength(bytes)) { output in
                var position = 0
                write(bytes, to: output, at: &position)
                return position
            }
        }
    }

    /// Encodes a dictionary with keys sorted, so the output is deterministic.
    package static func encode(_ parameters: [String: String]) -> String {
        encode(parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    /// Encodes ordered pairs as `k=v&k=v`: measured first, then written once into one string.
    package static func encode(_ pairs: [(String, String)]) -> String {
        encode(pairs, after: "", separator: nil)
    }

    /// `prefix` and `separator` (written as they are) followed by the encoded `pairs`, in one string: a URL, its
    /// `?` or `&`, and its query.
    static func encode(_ pairs: [(String, String)], after prefix: String, separator: UInt8?) -> String {
        var prefix = prefix
        return prefix.withUTF8 { head in
            var length = head.count + (separator == nil ? 0 : 1) + max(0, pairs.count - 1)
            for (key, value) in pairs {
                length += escapedLength(key) + 1 + escapedLength(value)
            }
            return String(unsafeUninitializedCapacity: length) { output in
                var position = head.count
                if let source = head.baseAddress, let target = output.baseAddress {
                    target.update(from: source, count: head.count)
                }
                if let separator {
                    output[position] = separator
                    position += 1
                }
                for (index, (key, value)) in pairs.enumerated() {
                    if index > 0 {
                        output[position] = UInt8(ascii: "&")
                        position += 1
                    }
                    write(key, to: output, at: &position)
                    output[position] = UInt8(ascii: "=")
                    position += 1
                    write(value, to: output, at: &position)
                }
                return position
            }
        }
    }

    private static func escapedLength(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { escapedLength($0) }
    }

    private static func escapedLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var length = bytes.count
        for byte in bytes where !isUnreserved(byte) { length += 2 }
        return length
    }

    private static func write(_ text: String, to output: UnsafeMutableBufferPointer<UInt8>, at position: inout Int) {
        var text = text
        text.withUTF8 { write($0, to: output, at: &position) }
    }

    private static func write(_ bytes: UnsafeBufferPointer<UInt8>, to output: UnsafeMutableBufferPointer<UInt8>, at position: inout Int) {
        for byte in bytes {
            if isUnreserved(byte) {
                output[position] = byte
                position += 1
            } else {
                output[position] = UInt8(ascii: "%")
                output[position + 1] = hexDigit(byte >> 4)
                output[position + 2] = hexDigit(byte & 0x0F)
                position += 3
            }
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }

    /// Whether `byte` is in RFC 3986's unreserved set `A-Z a-z 0-9 - . _ ~`.
    package static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// Decodes `k=v&k=v` into ordered pairs (`+` is a space; a part with an invalid percent-escape, or one that
    /// decodes to invalid UTF-8, is kept literally).
    package static func decode(_ text: String) -> [(String, String)] {
        var text = text
        return text.withUTF8 { decode(UnsafeRawBufferPointer($0)) }
    }

    /// Decodes the query bytes `text` (see ``decode(_:)``).
    package static func decode(_ text: UnsafeRawBufferPointer) -> [(String, String)] {
        var pairs: [(String, String)] = []
        var start = 0
        while start <= text.count {
            var end = start
            while end < text.count, text[end] != UInt8(ascii: "&") { end += 1 }
            if end > start {
                var equals = start
                while equals < end, text[equals] != UInt8(ascii: "=") { equals += 1 }
                let key = unescape(UnsafeRawBufferPointer(rebasing: text[start..<equals]))
                let value = equals < end ? unescape(UnsafeRawBufferPointer(rebasing: text[(equals + 1)..<end])) : ""
                pairs.append((key, value))
            }
            start = end + 1
        }
        return pairs
    }

    /// `+` to space and `%XX` to its byte; the text with only `+` replaced when an escape is invalid or the
    /// result is not UTF-8 (as `removingPercentEncoding` returning `nil` left it).
    private static func unescape(_ part: UnsafeRawBufferPointer) -> String {
        guard part.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
            return String(decoding: part, as: UTF8.self)
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(part.count)
        var valid = true
        var index = 0
        while index < part.count {
            let byte = part[index]
            if byte == UInt8(ascii: "%"), valid {
                if index + 2 < part.count, let high = hexValue(part[index + 1]), let low = hexValue(part[index + 2]) {
                    bytes.append(high << 4 | low)
                    index += 3
                    continue
                }
                valid = false
            }
            bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        if valid, UTF8Validation.isValid(bytes) { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: part.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension URL {
    /// This URL with `pairs` appended to its query, strictly encoded.
    package func appendingQuery(_ pairs: [(String, String)]) -> URL {
        guard !pairs.isEmpty else { return self }
        var text = absoluteString
        let (hasQuery, hasFragment) = text.withUTF8 { bytes in
            (bytes.contains(UInt8(ascii: "?")), bytes.contains(UInt8(ascii: "#")))
        }
        // The common case, without a fragment: the query goes at the end of the text, written with it into one
        // string, and the URL is parsed once.
        if !hasFragment {
            let separator: UInt8? = !hasQuery ? UInt8(ascii: "?") : text.utf8.last == UInt8(ascii: "?") ? nil : UInt8(ascii: "&")
            return URL(string: FormEncoding.encode(pairs, after: text, separator: separator)) ?? self
        }
        let encoded = FormEncoding.encode(pairs)
        guard var components = URLComponents(url: self, resolvingAgainstBaseURL: false) else { return self }
        if let existing = components.percentEncodedQuery, !existing.isEmpty {
            components.percentEncodedQuery = existing + "&" + encoded
        } else {
            components.percentEncodedQuery = encoded
        }
        return components.url ?? self
    }
}
