import Foundation

/// One challenge of a `WWW-Authenticate` field (RFC 9110 §11.6.1): its scheme and either its auth-params or a token68.
///
/// The grammar, from RFC 9110 §11.2 and §5.6:
///
///     challenge   = auth-scheme [ 1*SP ( token68 / #auth-param ) ]
///     auth-param  = token BWS "=" BWS ( token / quoted-string )
///     token68     = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
///
/// A field may carry several challenges separated by commas, and a response several fields; `parse` reads them all.
/// Scheme and parameter names are case-insensitive (kept lowercased); a parameter named twice in one challenge is
/// malformed (RFC 9110 §11.2: "each parameter name MUST only occur once per challenge").
package struct AuthenticationChallenge: Sendable, Hashable {
    /// The scheme, lowercased (`bearer`, `dpop`, `basic`).
    package var scheme: String
    /// The auth-params by lowercased name, quoted strings unescaped.
    package var parameters: [String: String]
    /// The token68 form, when the challenge carries one instead of parameters.
    package var token68: String?

    /// Why a `WWW-Authenticate` value could not be read.
    package struct Malformed: Error, Sendable, Equatable {
        /// What was wrong, for a message (no header text is quoted).
        package let reason: String
    }

    /// The challenges of every `WWW-Authenticate` field value, in order.
    ///
    /// - Throws: ``Malformed`` when a value does not follow the grammar.
    package static func parse(_ fieldValues: [String]) throws(Malformed) -> [AuthenticationChallenge] {
        var challenges: [AuthenticationChallenge] = []
        for value in fieldValues {
            var reader = Reader(Array(value.utf8))
            challenges += try reader.challenges()
        }
        return challenges
    }

    /// The reader over one field value's bytes.
    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        static let tokenBytes = Set("!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
        static let token68Bytes = Set("-._~+/0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
        static let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), comma = UInt8(ascii: ","), equals = UInt8(ascii: "=")
        static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")

        var atEnd: Bool { index >= bytes.count }
        var current: UInt8? { atEnd ? nil : bytes[index] }

        mutating func skipWhitespace() { while let byte = current, byte == Self.space || byte == Self.tab { index += 1 } }

        /// Skips whitespace and empty list elements (RFC 9110 §5.6.1: a recipient accepts `, ,`).
        mutating func skipSeparators() { while let byte = current, byte == Self.space || byte == Self.tab || byte == Self.comma { index += 1 } }

        mutating func token() -> String? {
            let start = index
            while let byte = current, Self.tokenBytes.contains(byte) { index += 1 }
            return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
        }

        mutating func quotedString() throws(Malformed) -> String {
            index += 1  // the opening quote
            var text: [UInt8] = []
            while let byte = current {
                index += 1
                switch byte {
                case Self.quote: return String(decoding: text, as: UTF8.self)
                case Self.backslash:
                    guard let escaped = current, escaped == Self.tab || (0x20...0x7E).contains(escaped) || escaped >= 0x80 else {
                        throw Malformed(reason: "a quoted string ends in an unfinished escape")
                    }
                    text.append(escaped)
                    index += 1
                case Self.tab, 0x20...0x7E, 0x80...0xFF: text.append(byte)
                default: throw Malformed(reason: "a quoted string holds a control character")
                }
            }
            throw Malformed(reason: "a quoted string is not closed")
        }

        mutating func challenges() throws(Malformed) -> [AuthenticationChallenge] {
            var result: [AuthenticationChallenge] = []
            skipSeparators()
            while !atEnd {
                guard let scheme = token() else { throw Malformed(reason: "a challenge does not start with a scheme name") }
                var challenge = AuthenticationChallenge(scheme: scheme.lowercased(), parameters: [:], token68: nil)
                let afterScheme = index
                skipWhitespace()
                if atEnd || current == Self.comma {
                    result.append(challenge)
                    skipSeparators()
                    continue
                }
                guard index > afterScheme else { throw Malformed(reason: "a scheme name is followed by something other than a space") }
                if let token68 = token68IfPresent() {
                    challenge.token68 = token68
                } else {
                    try parameters(into: &challenge)
                }
                result.append(challenge)
                skipSeparators()
            }
            return result
        }

        /// A token68 here (not followed by `=` and a value, which would make it a parameter), consumed.
        mutating func token68IfPresent() -> String? {
            let start = index
            while let byte = current, Self.token68Bytes.contains(byte) { index += 1 }
            guard index > start else { return nil }
            while current == Self.equals { index += 1 }
            let end = index
            skipWhitespace()
            // A token68 ends its challenge: the field ends or the next challenge follows a comma. Otherwise what was read
            // is the first auth-param's name (`realm=…`), read again as one.
            if atEnd || current == Self.comma { return String(decoding: bytes[start..<end], as: UTF8.self) }
            index = start
            return nil
        }

        /// The comma-separated auth-params of one challenge, up to the next challenge's scheme or the end.
        mutating func parameters(into challenge: inout AuthenticationChallenge) throws(Malformed) {
            while true {
                guard let name = token() else { throw Malformed(reason: "an auth-param has no name") }
                skipWhitespace()
                guard current == Self.equals else { throw Malformed(reason: "an auth-param has no '='") }
                index += 1
                skipWhitespace()
                let value: String
                if current == Self.quote {
                    value = try quotedString()
                } else if let bare = token() {
                    value = bare
                } else {
                    throw Malformed(reason: "an auth-param has no value")
                }
                let key = name.lowercased()
                guard challenge.parameters[key] == nil else { throw Malformed(reason: "an auth-param is named twice in one challenge") }
                challenge.parameters[key] = value
                skipWhitespace()
                if atEnd { return }
                guard current == Self.comma else { throw Malformed(reason: "auth-params are not separated by commas") }
                skipSeparators()
                if atEnd { return }
                // The next element is another parameter (`name =`) or the next challenge's scheme (`name SP …` or `name` alone).
                let mark = index
                _ = token()
                skipWhitespace()
                let isParameter = current == Self.equals
                index = mark
                if !isParameter { return }
            }
        }
    }
}
