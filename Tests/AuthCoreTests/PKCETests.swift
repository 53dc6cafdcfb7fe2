import AuthCore
import Testing

@Suite("PKCE (RFC 7636)")
struct PKCETests {
    @Test("The S256 challenge matches RFC 7636 appendix B")
    func appendixB() throws {
        let pkce = try PKCE(verifier: Secret("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"))
        #expect(pkce.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(pkce.method == "S256")
    }

    @Test("Generated verifiers are 43–128 unreserved characters and never repeat", arguments: [43, 64, 128])
    func generated(length: Int) {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        var seen = Set<String>()
        for _ in 0..<200 {
            let verifier = PKCE.generate(length: length).verifier.reveal()
            #expect(verifier.count == length)
            #expect(verifier.allSatisfy(allowed.contains))
            seen.insert(verifier)
        }
        #expect(seen.count == 200)
    }

    @Test("Verifiers that are too short, too long or use other characters are refused")
    func invalidVerifiers() {
        for bad in [String(repeating: "a", count: 42), String(repeating: "a", count: 129), String(repeating: "a", count: 42) + "+"] {
            #expect(throws: AuthError.self) { try PKCE(verifier: Secret(bad)) }
        }
    }
}
