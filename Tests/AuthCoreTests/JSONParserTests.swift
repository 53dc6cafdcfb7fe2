import AuthCore
import Foundation
import Testing

@Suite("JSON parsing of provider and token input")
struct JSONParserTests {
    private func parse(_ text: String) -> [String: JSONValue]? {
        try? JSONValue.parseObject(Data(text.utf8))
    }

    @Test("Values, escapes and surrogate pairs decode as RFC 8259 says")
    func values() throws {
        let object = try #require(
            parse(#" { "s": "a\"b\\c\/d\n\u00e9\ud83d\ude00", "n": -12.5e2, "i": 1795318517, "t": true, "f": false, "z": null, "a": [1, [], {}], "o": {"k": "v"} } "#))
        #expect(object["s"] == .string("a\"b\\c/d\né😀"))
        #expect(object["n"] == .number(-1250))
        #expect(object["i"] == .number(1_795_318_517))
        #expect(object["t"] == .bool(true) && object["f"] == .bool(false) && object["z"] == .null)
        #expect(object["a"] == .array([.number(1), .array([]), .object([:])]))
        #expect(object["o"]?["k"] == .string("v"))
        #expect(parse(#"{"raw":"ünïcødé"}"#)?["raw"] == .string("ünïcødé"))
    }

    @Test("Integers take the exact fast path up to 15 digits and the text conversion beyond, with the same values")
    func integers() throws {
        let cases: [(String, Double)] = [
            ("0", 0), ("-0", 0), ("7", 7), ("-42", -42), ("999999999999999", 999_999_999_999_999),
            ("-999999999999999", -999_999_999_999_999), ("1000000000000000", 1e15), ("9007199254740993", Double("9007199254740993")!),
            ("12345678901234567890", Double("12345678901234567890")!), ("1795318517", 1_795_318_517), ("2.5", 2.5), ("25e-1", 2.5)
        ]
        for (text, value) in cases {
            #expect(parse(#"{"n":\#(text)}"#)?["n"] == .number(value), "\(text)")
        }
    }

    @Test(
        "Malformed input is refused, never a crash",
        arguments: [
            "", "[]", "\"s\"", "{", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{\"a\":1} x", "{\"a\":01}", "{\"a\":1.}",
            "{\"a\":-}", "{\"a\":1e}", "{\"a\":tru}", "{\"a\":\"\\x\"}", "{\"a\":\"\\ud800\"}", "{\"a\":\"\\udc00\"}",
            "{\"a\":\"\u{01}\"}", "{\"a\":\"unterminated}", "{a:1}", "{\"a\":NaN}", "{\"a\":1e999}"
        ])
    func malformed(text: String) {
        #expect(parse(text) == nil)
    }

    @Test(
        "Invalid UTF-8 in a string is refused, not replaced",
        arguments: [
            [0xFF], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC3], [0x80]
        ] as [[UInt8]])
    func invalidUTF8(bytes: [UInt8]) {
        for prefix in ["", "a\\n"] {  // the fast path and the path after an escape
            var data = Data(#"{"k":""#.utf8) + Data(prefix.utf8)
            data.append(contentsOf: bytes)
            data.append(contentsOf: Data(#""}"#.utf8))
            #expect((try? JSONValue.parseObject(data)) == nil, "\(bytes) after \(prefix.debugDescription)")
        }
        #expect((try? JSONValue.parseObject(Data(#"{"k":"é€😀"}"#.utf8)))?["k"] == .string("é€😀"))
    }

    @Test("Nesting deeper than 64 levels is refused")
    func depthLimit() {
        let deep = String(repeating: "{\"a\":", count: 70) + "1" + String(repeating: "}", count: 70)
        #expect(parse(deep) == nil)
        let fine = String(repeating: "{\"a\":", count: 60) + "1" + String(repeating: "}", count: 60)
        #expect(parse(fine) != nil)
        let arrays = "{\"a\":" + String(repeating: "[", count: 100_000) + "}"
        #expect(parse(arrays) == nil)
    }
}
