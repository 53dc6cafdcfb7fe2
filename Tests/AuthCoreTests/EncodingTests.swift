import AuthCore
import Foundation
import Testing

@Suite("Encodings")
struct EncodingTests {
    @Test("Base64url round-trips and rejects the standard alphabet and padding")
    func base64URL() {
        let bytes = Data([0xfb, 0xff, 0xbf, 0x00, 0x10])
        let text = Base64URL.encode(bytes)
        #expect(text == "-_-_ABA")
        #expect(Base64URL.decode(text) == bytes)
        #expect(Base64URL.decode("+/+/ABA") == nil)
        #expect(Base64URL.decode("AA==") == nil)
        #expect(Base64URL.decode("A") == nil)
        #expect(Base64URL.decode("") == Data())
    }

    @Test("Base64url agrees with Foundation's base64 for every length, and refuses non-canonical final characters")
    func base64URLAgreesWithFoundation() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<70 {
            let bytes = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let expected = bytes.base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(bytes) == expected)
            #expect(Base64URL.decode(expected) == bytes)
            #expect(Base64URL.decode(Substring(expected)) == bytes)
        }
        // "QQ" is the canonical encoding of "A"; "QR" carries the same byte with non-zero unused bits, which
        // Foundation accepts. Two texts for one value would let a token be altered without touching its signature.
        #expect(Base64URL.decode("QQ") == Data("A".utf8))
        #expect(Base64URL.decode("QR") == nil)
        #expect(Base64URL.decode("QUI") == Data("AB".utf8))
        #expect(Base64URL.decode("QUJ") == nil)
        #expect(Base64URL.decode("QUJD=") == nil)
        #expect(Base64URL.decode("QU\u{0}D") == nil)
        #expect(Base64URL.decode("QUé") == nil)
    }

    @Test("Form encoding escapes everything outside the unreserved set and decodes + as space")
    func formEncoding() {
        let encoded = FormEncoding.encode([("vtr", #"["Cl.Cm.P0"]"#), ("hint", "a+b/c=="), ("s", "x y")])
        #expect(encoded == "vtr=%5B%22Cl.Cm.P0%22%5D&hint=a%2Bb%2Fc%3D%3D&s=x%20y")
        let decoded = FormEncoding.decode(encoded + "&plus=a+b")
        #expect(decoded.map(\.1) == [#"["Cl.Cm.P0"]"#, "a+b/c==", "x y", "a b"])
    }

    @Test("Redirect matching is exact on scheme, host, port and path")
    func redirectMatching() {
        let registered = URL(string: "http://127.0.0.1:53682/callback")!
        #expect(AuthorizationResponse.redirect(URL(string: "http://127.0.0.1:53682/callback?code=x")!, matches: registered))
        #expect(AuthorizationResponse.redirect(URL(string: "HTTP://127.0.0.1:53682/callback?code=x")!, matches: registered))
        #expect(!AuthorizationResponse.redirect(URL(string: "http://127.0.0.1:53683/callback")!, matches: registered))
        #expect(!AuthorizationResponse.redirect(URL(string: "http://127.0.0.1:53682/callback/")!, matches: registered))
        #expect(!AuthorizationResponse.redirect(URL(string: "http://localhost:53682/callback")!, matches: registered))
        #expect(!AuthorizationResponse.redirect(URL(string: "https://127.0.0.1:53682/callback")!, matches: registered))
    }

    @Test("AuthError descriptions carry code, provider and message, and never the underlying error")
    func errorDescription() {
        let error = AuthError(.network, "The request failed.", providerID: "grab", underlying: URLError(.timedOut))
        #expect(error.description == "AuthError(network_error) [grab]: The request failed.")
        #expect(error.isRetryable)
        #expect(!AuthError(.invalidGrant, "x").isRetryable)
    }
}
