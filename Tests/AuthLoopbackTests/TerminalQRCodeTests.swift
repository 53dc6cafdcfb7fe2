import AuthLoopback
import Crypto
import Foundation
import Testing

/// The encoder against a reference: SHA-256 of each symbol's modules (rows of 0/1 joined by newlines) as the Python
/// `qrcode` package (8.x, byte mode, level L, the same mask) produces them. Versions 3, 6 (two blocks), 9 (version
/// information) and 10 (16-bit length, blocks of two sizes).
@Suite("a terminal QR code of verification_uri_complete")
struct TerminalQRCodeTests {
    private static let texts = [
        "http://127.0.0.1:8775/o/device/?user_code=H58QIJ41",
        "https://login.example.com/device?user_code=BCDF-GHJK&client=" + String(repeating: "x", count: 60),
        "https://accounts.example.org/activate?user_code=WDJB-MJHT&" + String(repeating: "a=b&", count: 35),
        "https://id.example.net/device?user_code=QRST-VWXZ&pad=" + String(repeating: "0123456789", count: 21)
    ]

    private static let reference: [(text: Int, version: Int, mask: Int, sha256: String)] = [
        (0, 3, 0, "932b0f9145542adbd8c9a4330a3974bcdc43707c138ca6a6db7baadf0d97b073"),
        (0, 3, 5, "a01dbf0ddd8f89ea57325db86070121681902508402609fdb6fe8f33c2dd3768"),
        (0, 3, 7, "5b27f16b58aca7863ef530a3fbde10fefda65f2e76df7f7d340b85d5125274f7"),
        (1, 6, 0, "e0a977ddb44753b236048727ee08f2a41f826853354730b371402ace10a387de"),
        (1, 6, 5, "c153a98bd16532142a6176457a714d89bdeb6d4ef822e6a0b07f4de3ae90282f"),
        (1, 6, 7, "6dd47a914af059b2a801c99414e1657ac9f500501303895d3b229ec9ae7511b0"),
        (2, 9, 0, "dd9a4808f6d1f8653b54297b1b4537e1f9e8ca2433f2fd7472aacd8547860a1d"),
        (2, 9, 5, "114fd97f6e65d2c05e402924dc6d0986fbc8b7c6921e4f96b22736bc5204ad89"),
        (2, 9, 7, "8519823f28b4e9cfff1eb955f44b09c869c42c84909304010e472108315e8253"),
        (3, 10, 0, "e8bdb100c8d161544d505d675d6485796f94f594221f039d5da6e5c139f5a062"),
        (3, 10, 5, "af9bd10d8f03687ff3d1f0e260acf95a0f843336576f64802126f309b2953056"),
        (3, 10, 7, "346a8feeaf841ce637cbe1edb75904c55d1b64a54ed3d1041499d19e05cdcde3")
    ]

    private func digest(_ code: TerminalQRCode) -> String {
        let text = code.modules.map { row in String(row.map { $0 ? "1" : "0" }) }.joined(separator: "\n")
        return SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    @Test("Every module matches the reference encoder, for each version and mask", arguments: Self.reference)
    func matchesReference(_ vector: (text: Int, version: Int, mask: Int, sha256: String)) throws {
        let code = try #require(TerminalQRCode(Self.texts[vector.text], mask: vector.mask))
        #expect(code.version == vector.version)
        #expect(code.modules.count == 17 + 4 * vector.version)
        #expect(digest(code) == vector.sha256)
    }

    @Test("The chosen mask scores lowest; text longer than version 10 holds is refused")
    func bestMaskAndLimit() throws {
        let text = Self.texts[0]
        let code = try #require(TerminalQRCode(text))
        for mask in 0..<8 {
            let other = try #require(TerminalQRCode(text, mask: mask))
            #expect(other.penalty >= code.penalty, "mask \(mask)")
            if mask == code.mask { #expect(other.modules == code.modules) }
        }
        #expect(TerminalQRCode(String(repeating: "x", count: 272)) == nil)
        #expect(TerminalQRCode(String(repeating: "x", count: 271)) != nil)
    }

    @Test("Rendered with half blocks: two rows per line, a quiet zone, light modules drawn")
    func rendering() throws {
        let code = try #require(TerminalQRCode(Self.texts[0]))
        let lines = code.rendered.split(separator: "\n", omittingEmptySubsequences: false)
        let width = code.modules.count + 4
        #expect(lines.count == (width + 1) / 2)
        #expect(lines.allSatisfy { $0.count == width })
        #expect(lines.first?.allSatisfy { $0 == "█" } == true)  // the quiet zone is light
        // The second line holds rows 0 and 1: two quiet (light) columns, then the top-left finder's dark edge (blank),
        // and in row 1 the finder's light inner ring under its dark top edge ("▄").
        let second = Array(lines[1])
        #expect(second[0] == "█" && second[1] == "█" && second[2] == " " && second[3] == "▄")
    }
}
