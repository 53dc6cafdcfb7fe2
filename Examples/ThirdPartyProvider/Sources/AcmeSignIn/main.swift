// Signs in with Acme's provider against AuthTesting's in-process identity provider, through a transport written
// here against AuthCore's HTTPTypes seam. Linked with AuthCore, AuthOIDC and AuthTesting only: on Linux the binary
// needs no libcurl (Scripts/test.sh checks it with ldd).
import AcmeAuth
import AuthCore
import AuthTesting
import Foundation

/// A third party's transport: counts what it forwards, by method and path, and never sees a token in a log.
actor CountingTransport: HTTPTransport {
    private let base: any HTTPTransport
    private(set) var sent: [String] = []

    init(_ base: any HTTPTransport) { self.base = base }

    func send(_ request: HTTPRequest, body: Data?, limits: HTTPRequestLimits) async throws -> (Data, HTTPResponse) {
        sent.append("\(request.method.rawValue) \(request.url?.path ?? "?")")
        return try await base.send(request, body: body, limits: limits)
    }
}

var configuration = TestIdentityProvider.Configuration()
configuration.quirks.validateAuthorization = { query, _ in query["tenant"] == "acme-eu" ? nil : "tenant=acme-eu is required" }
let idp = TestIdentityProvider(configuration: configuration)
let transport = CountingTransport(idp.transport)
var registry = ProviderRegistry()
registry.registerAcme()
let provider = try registry.provider(
    named: "acme",
    configuration: ProviderConfiguration([
        "issuer": .string(TestIdentityProvider.defaultIssuer.absoluteString),
        "client_id": .string(TestIdentityProvider.defaultClientID),
        "redirect_uri": .string(TestIdentityProvider.defaultRedirectURI.absoluteString),
        "scope": "openid email offline_access",
        "tenant": "acme-eu"
    ]))
let client = AuthClient(provider: provider, transport: transport, logger: RecordingLogger(), clock: idp.clock)
let session = try await client.signIn(with: HeadlessUserAgent(transport: idp.transport))
print("signed in as \(await session.idTokenClaims?.subject ?? "?") with Acme's tenant parameter")
_ = try await session.refresh()
print("refreshed; the transport sent: \(await transport.sent.joined(separator: ", "))")
