// Fuzzes the JSON the provider sends: discovery documents, token responses, JWK sets, ID token claims.
import AuthCore
import CFuzzerDriver
import _AuthHarness
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    let data = Data(bytes: bytes, count: count)
    JSONHarness.parseAll(data)
    return 0
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { fuzzJSON($0, $1) })
