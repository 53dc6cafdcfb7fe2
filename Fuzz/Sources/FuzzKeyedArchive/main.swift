// Fuzzes the binary property list and NSKeyedArchiver reader that vendor-session adoption runs on items another app
// can plant (UserDefaults, Keychain). Any input must end in a value or storage_corrupted within the budgets — never a
// trap, never gigabytes. Seeds: the security review's overflowing trailer and 49,000-fold amplification.
import CFuzzerDriver
import _AuthHarness
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeyedArchive(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    ArchiveHarness.decode(Data(bytes: bytes, count: count))
    return 0
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { fuzzKeyedArchive($0, $1) })
