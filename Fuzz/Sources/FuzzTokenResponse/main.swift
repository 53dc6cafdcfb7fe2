// Fuzzes a token endpoint's answer through the whole engine path that once trapped after storing: a sign-in
// whose token response is the fuzz input, the credential it stores, its log line, the stored file's encoding
// and decoding, and restoring and using the session. Any trap is a finding; errors are fine.
import AuthCore
import AuthTesting
import CFuzzerDriver
import _AuthHarness
import Foundation

/// A provider without `openid`, so a fuzzed response needs no valid ID token to reach storage.
struct FuzzProvider: AuthProvider {
    static let id: ProviderID = "fuzz"
    let client = ClientRegistration(
        clientID: TestIdentityProvider.defaultClientID, redirectURI: TestIdentityProvider.defaultRedirectURI, scopes: ["email"]
    )
    init() {}
    init(configuration: ProviderConfiguration) throws {}
    var endpointSource: EndpointSource { .discovery(issuer: TestIdentityProvider.defaultIssuer) }
}

let idp = TestIdentityProvider()

/// Runs `operation` to completion from the synchronous fuzzer callback (the harness's main thread, never a
/// thread of the concurrency pool, so blocking it cannot starve the work it waits for).
func runBlocking(_ operation: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task {
        await operation()
        done.signal()
    }
    done.wait()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTokenResponse(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    let body = Data(bytes: bytes, count: count)
    runBlocking {
        await idp.update { $0.tokenResponseReplacement = (200, body, ["Content-Type": "application/json"]) }
        let storage = InMemoryTokenStorage()
        let client = AuthClient(provider: FuzzProvider(), storage: storage, transport: idp.transport, logger: RecordingLogger(), clock: idp.clock)
        guard let session = try? await client.signIn(with: HeadlessUserAgent(transport: idp.transport)) else { return }
        let credential = await session.credential
        // What FileTokenStorage and auth-cli do with it.
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        if let data = try? encoder.encode(credential), let decoded = try? decoder.decode(Credential.self, from: data) {
            try? JSONHarness.validateForUse(decoded)
        }
        _ = JSONHarness.isExpired(credential, at: idp.clock.now(), margin: 60)
        _ = credential.expiresAt.flatMap { Int(exactly: $0.timeIntervalSince(idp.clock.now()).rounded()) }
        if let restored = try? await client.restoreSession() { _ = try? await restored.validAccessToken() }
    }
    return 0
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { fuzzTokenResponse($0, $1) })
