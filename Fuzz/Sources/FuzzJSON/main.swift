// Fuzzes the JSON the provider sends: discovery documents, token responses, JWK sets, ID token claims.
import AuthCore
import CFuzzerDriver
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    let data = Data(bytes: bytes, count: count)
    _ = try? TokenResponse(json: data)
    _ = try? JSONWebKeySet(data: data)
    if let object = try? JSONValue.parseObject(data) {
        _ = try? ProviderMetadata(document: object)
        _ = try? IDTokenClaims(object)
        _ = try? JSONValue.object(object).jsonData()
    }
    return 0
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { fuzzJSON($0, $1) })
