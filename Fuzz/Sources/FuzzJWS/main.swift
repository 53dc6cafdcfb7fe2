// Fuzzes JWS compact parsing and full ID token validation (header checks, key selection, RS256/ES256
// signature verification, claims) against the in-process identity provider's published keys.
import AuthCore
import AuthTesting
import _AuthHarness
import CFuzzerDriver
import Foundation

let harness: IDTokenHarness = {
    let document = JSONValue.object(["keys": .array(TestSigningKeys.primary.publicJWKs)])
    // The test keys always encode and parse.
    return try! IDTokenHarness(
        issuer: "https://idp.example.test",
        clientID: "test-client",
        policy: IDTokenPolicy(allowedAlgorithms: [.rs256, .es256, .ps256, .es384]),
        jwks: try! JSONHarness.data(document)
    )
}()
let now = Date(timeIntervalSince1970: ManualClock.defaultEpoch)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJWS(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    let token = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    _ = IDTokenHarness.parseJWS(token)
    _ = try? harness.validate(token, nonce: "nonce", accessToken: Secret("access"), now: now)
    return 0
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { fuzzJWS($0, $1) })
