import Foundation

/// A strict JSON parser (RFC 8259) over UTF-8 bytes, producing ``JSONValue``.
///
/// Foundation's `JSONDecoder` made ID token validation spend most of its time decoding two small objects, so the
/// hot path parses here instead. It sees attacker input (token headers and payloads, provider responses), so it
/// caps nesting depth, rejects trailing garbage, control characters and invalid escapes, and is fuzzed.
/// It reads the bytes where they lie (no copy) and never lets the buffer escape a ``parse(_:)`` call.
struct JSONParser {
    struct Failure: Error, Sendable {}

    private let bytes: UnsafeRawBufferPointer
    private var index = 0
    private var depth = 0
    static let maximumDepth = 64
    /// Room reserved in each non-empty object, so that a claims set of a dozen members is one allocation
    /// rather than a dictionary regrown four times.
    private static let initialObjectCapacity = 12

    static func parse(_ data: Data) throws -> JSONValue {
        try data.withUnsafeBytes { try parse(bytes: $0) }
    }

    static func parse(bytes: UnsafeRawBufferPointer) throws -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw Failure() }
        return value
    }

    private init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    private mutating func parseValue() throws -> JSONValue {
        guard index < bytes.count else { throw Failure() }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expect("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expect("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expect("null")
            return .null
        default: return .number(try parseNumber())
        }
    }

    private mutating func parseObject() throws -> JSONValue {
        depth += 1
        guard depth <= Self.maximumDepth else { throw Failure() }
        defer { depth -= 1 }
        index += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return .object([:])
        }
        var object = [String: JSONValue](minimumCapacity: Self.initialObjectCapacity)
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw Failure() }
            let key = try parseString()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw Failure() }
            index += 1
            skipWhitespace()
            object[key] = try parseValue()
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .object(object)
            default: throw Failure()
            }
        }
    }

    private mutating func parseArray() throws -> JSONValue {
        depth += 1
        guard depth <= Self.maximumDepth else { throw Failure() }
        defer { depth -= 1 }
        index += 1
        var array: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            return .array(array)
        }
        while true {
            skipWhitespace()
            array.append(try parseValue())
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(array)
            default: throw Failure()
            }
        }
    }

    private mutating func parseString() throws -> String {
        index += 1  // the opening quote
        let start = index
        // Fast path: no escapes.
        var ascii = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                // RFC 8259 §8.1: text is UTF-8. Invalid sequences are refused, not replaced with U+FFFD, so two
                // different byte strings can never decode to the same claim value.
                let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                guard ascii || Self.isValidUTF8(raw) else { throw Failure() }
                let text = String(decoding: raw, as: UTF8.self)
                index += 1
                return text
            }
            if byte >= 0x80 { ascii = false }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw Failure() }
            index += 1
        }
        var scalars = [UInt8](bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard scalars.withUnsafeBytes({ Self.isValidUTF8($0) }) else { throw Failure() }
                return String(decoding: scalars, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw Failure() }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escape)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try parseHex4()
                    if (0xD800...0xDBFF).contains(code) {
                        // A high surrogate must be followed by an escaped low surrogate.
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else { throw Failure() }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw Failure() }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(code) {
                        throw Failure()
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw Failure() }
                    scalars.append(contentsOf: Array(String(scalar).utf8))
                default:
                    throw Failure()
                }
            default:
                guard byte >= 0x20 else { throw Failure() }
                scalars.append(byte)
            }
        }
        throw Failure()
    }

    private static func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        UTF8Validation.isValid(bytes)
    }

    private mutating func parseHex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw Failure() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            index += 1
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw Failure()
            }
            value = value << 4 | digit
        }
        return value
    }

    private mutating func parseNumber() throws -> Double {
        let start = index
        let negative = peek() == UInt8(ascii: "-")
        if negative { index += 1 }
        var integerOnly = true
        guard let first = peek(), first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9") else { throw Failure() }
        if first == UInt8(ascii: "0") {
            index += 1
        } else {
            skipDigits()
        }
        if peek() == UInt8(ascii: ".") {
            integerOnly = false
            index += 1
            guard skipDigits() > 0 else { throw Failure() }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            integerOnly = false
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() > 0 else { throw Failure() }
        }
        // Integers of up to 15 digits (every timestamp) are exact in a Double: no text conversion needed.
        if integerOnly, index - start <= 15 {
            var value = 0
            for offset in (negative ? start + 1 : start)..<index { value = value &* 10 &+ Int(bytes[offset] &- UInt8(ascii: "0")) }
            return Double(negative ? -value : value)
        }
        guard let value = Double(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)), value.isFinite
        else { throw Failure() }
        return value
    }

    @discardableResult
    private mutating func skipDigits() -> Int {
        let start = index
        while let byte = peek(), byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") { index += 1 }
        return index - start
    }

    private mutating func expect(_ literal: StaticString) throws {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw Failure() }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] { throw Failure() }
        index += count
    }

    private func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }
}
