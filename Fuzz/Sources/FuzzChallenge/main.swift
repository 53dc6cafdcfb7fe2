// Fuzzes the WWW-Authenticate fields of a resource's 401: the challenge reader, the step-up requirement (RFC 9470)
// and the DPoP nonce demand (RFC 9449 §9). One field value per line.
import CFuzzerDriver
import Foundation
import _AuthHarness

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChallenge(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    ChallengeHarness.parseAll(Data(bytes: bytes, count: count))
    return 0
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { fuzzChallenge($0, $1) })
