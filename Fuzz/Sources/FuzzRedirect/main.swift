// Fuzzes the authorization response parser: redirect URL parsing, exact redirect matching, form decoding and
// the plain-text reduction of error descriptions. Any input must end in a value or an AuthError, never a crash.
import AuthCore
import CFuzzerDriver
import _AuthHarness
import Foundation

let registered = URL(string: "com.example.app:/oauth/callback")!
let loopback = URL(string: "http://127.0.0.1:53682/callback")!

/// Redirect matching as it was before the byte-level rewrite.
func componentsMatch(_ redirect: URL, _ registered: URL) -> Bool {
    guard let a = URLComponents(url: redirect, resolvingAgainstBaseURL: false),
        let b = URLComponents(url: registered, resolvingAgainstBaseURL: false)
    else { return false }
    return a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased()
        && a.port == b.port && a.percentEncodedPath == b.percentEncodedPath
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRedirect(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    _ = RedirectHarness.decodeForm(text)
    guard let url = URL(string: text) else { return 0 }
    // The byte-level matcher may be stricter than URLComponents (user info, escaped hosts), never looser.
    for expected in [registered, loopback] where RedirectHarness.redirect(url, matches: expected) {
        guard componentsMatch(url, expected) else { fatalError("byte-level match accepted \(url) for \(expected)") }
    }
    _ = RedirectHarness.parse(url)
    try? RedirectHarness.parse(url, expecting: registered)
    return 0
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { fuzzRedirect($0, $1) })
