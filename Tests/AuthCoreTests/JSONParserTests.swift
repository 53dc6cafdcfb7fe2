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
        let object = try #require(parse(#" { "s": "a\"b\\c\/d\n\u00e9\ud83d\ude00", "n": -12.5e2, "i": 1795318517, "t": true, "f": false, "z": null, "a": [1, [], {}], "o": {"k": "v"} } "#))
        #expect(object["s"] == .string("a\"b\\c/d\né😀"))
        #expect(object["n"] == .number(-1250))
        #expect(object["i"] == .number(1_795_318_517))
        #expect(object["t"] == .bool(true) && object["f"] == .bool(false) && object["z"] == .null)
        #expect(object["a"] == .array([.number(1), .array([]), .object([:])]))
        #expect(object["o"]?["k"] == .string("v"))
        #expect(parse(#"{"raw":"ünïcødé"}"#)?["raw"] == .string("ünïcødé"))
    }

    @Test("Malformed input is refused, never a crash", arguments: [
        "", "[]", "\"s\"", "{", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{\"a\":1} x", "{\"a\":01}", "{\"a\":1.}",
        "{\"a\":-}", "{\"a\":1e}", "{\"a\":tru}", "{\"a\":\"\\x\"}", "{\"a\":\"\\ud800\"}", "{\"a\":\"\\udc00\"}",
        "{\"a\":\"\u{01}\"}", "{\"a\":\"unterminated}", "{a:1}", "{\"a\":NaN}", "{\"a\":1e999}",
    ])
    func malformed(text: String) {
        #expect(parse(text) == nil)
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
