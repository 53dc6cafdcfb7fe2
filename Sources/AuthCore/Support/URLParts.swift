import Foundation

/// The RFC 3986 components of an absolute URL's text, as byte ranges into it: what exact redirect matching and
/// response parsing need, without building a `URLComponents` (which made reading a redirect cost tens of
/// microseconds and dozens of allocations).
///
/// It splits text that `URL` has already accepted; it does not validate. The host is compared as written
/// (percent-escapes are not decoded), which only makes matching stricter.
struct URLParts {
    var scheme: Range<Int>
    /// `nil` when the URL has no authority (`com.example.app:/callback`).
    var userInfo: Range<Int>?
    var host: Range<Int>?
    var port: Range<Int>?
    var path: Range<Int>
    var query: Range<Int>?

    /// Splits `text`; `nil` when it has no scheme.
    init?(_ text: UnsafeRawBufferPointer) {
        let end = text.count
        var index = 0
        while index < end, text[index] != UInt8(ascii: ":") {
            let byte = text[index]
            // A '/', '?' or '#' before any ':' means a relative reference, which has no scheme.
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { return nil }
            index += 1
        }
        guard index > 0, index < end else { return nil }
        scheme = 0..<index
        index += 1
        if index + 1 < end, text[index] == UInt8(ascii: "/"), text[index + 1] == UInt8(ascii: "/") {
            index += 2
            let authorityStart = index
            while index < end, !Self.endsAuthority(text[index]) { index += 1 }
            var hostStart = authorityStart
            // The last '@' ends the user info (a password may not contain one unescaped, a host never does).
            if let at = (authorityStart..<index).last(where: { text[$0] == UInt8(ascii: "@") }) {
                userInfo = authorityStart..<at
                hostStart = at + 1
            }
            var hostEnd = index
            if hostStart < index, text[hostStart] == UInt8(ascii: "[") {
                // An IP literal: the port colon comes after the closing bracket.
                var close = hostStart
                while close < index, text[close] != UInt8(ascii: "]") { close += 1 }
                hostEnd = min(close + 1, index)
            } else if let colon = (hostStart..<index).first(where: { text[$0] == UInt8(ascii: ":") }) {
                hostEnd = colon
            }
            host = hostStart..<hostEnd
            if hostEnd < index, text[hostEnd] == UInt8(ascii: ":") { port = (hostEnd + 1)..<index }
        }
        let pathStart = index
        while index < end, text[index] != UInt8(ascii: "?"), text[index] != UInt8(ascii: "#") { index += 1 }
        path = pathStart..<index
        if index < end, text[index] == UInt8(ascii: "?") {
            let queryStart = index + 1
            index = queryStart
            while index < end, text[index] != UInt8(ascii: "#") { index += 1 }
            query = queryStart..<index
        }
    }

    private static func endsAuthority(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
    }

    /// The port as a number: `nil` when absent or empty, `-1` when not decimal digits (it then equals no port).
    func portNumber(in text: UnsafeRawBufferPointer) -> Int? {
        guard let port, !port.isEmpty else { return nil }
        guard port.count <= 5 else { return -1 }
        var value = 0
        for index in port {
            let byte = text[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return -1 }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// Whether the same scheme, user info, host (both case-insensitively) and port are in `self` over `text` and
    /// in `other` over `otherText`.
    func hasSameOrigin(in text: UnsafeRawBufferPointer, as other: URLParts, in otherText: UnsafeRawBufferPointer) -> Bool {
        Self.equalIgnoringASCIICase(scheme, in: text, other.scheme, in: otherText)
            && Self.equal(userInfo, in: text, other.userInfo, in: otherText, ignoringCase: false)
            && Self.equal(host, in: text, other.host, in: otherText, ignoringCase: true)
            && portNumber(in: text) == other.portNumber(in: otherText)
    }

    /// ``hasSameOrigin(in:as:in:)`` and the same path, byte for byte: exact redirect matching (RFC 9700 §4.1.3).
    func isSameEndpoint(in text: UnsafeRawBufferPointer, as other: URLParts, in otherText: UnsafeRawBufferPointer) -> Bool {
        hasSameOrigin(in: text, as: other, in: otherText) && Self.equalBytes(path, in: text, other.path, in: otherText)
    }

    static func equal(_ a: Range<Int>?, in textA: UnsafeRawBufferPointer, _ b: Range<Int>?, in textB: UnsafeRawBufferPointer, ignoringCase: Bool) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let a?, let b?):
            return ignoringCase ? equalIgnoringASCIICase(a, in: textA, b, in: textB) : equalBytes(a, in: textA, b, in: textB)
        default: return false
        }
    }

    static func equalBytes(_ a: Range<Int>, in textA: UnsafeRawBufferPointer, _ b: Range<Int>, in textB: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { textA[$0] == textB[$1] }
    }

    static func equalIgnoringASCIICase(_ a: Range<Int>, in textA: UnsafeRawBufferPointer, _ b: Range<Int>, in textB: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { lowercase(textA[$0]) == lowercase(textB[$1]) }
    }

    private static func lowercase(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}

extension URL {
    /// Calls `body` with this URL's absolute text as contiguous UTF-8 and its parts.
    func withParts<Result>(_ body: (UnsafeRawBufferPointer, URLParts?) throws -> Result) rethrows -> Result {
        var text = absoluteString
        return try text.withUTF8 { bytes in
            let raw = UnsafeRawBufferPointer(bytes)
            return try body(raw, URLParts(raw))
        }
    }
}
