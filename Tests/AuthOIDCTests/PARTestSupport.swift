import AuthCore
import AuthOIDC
import AuthTesting
import Foundation

/// An in-process identity provider and an `oidc` client wired to it through a recording transport, for the pushed
/// authorization request (RFC 9126), FAPI 2.0 and EdDSA tests.
struct PARHarness {
    let idp: TestIdentityProvider
    let transport: RecordingTransport
    let storage: any TokenStorage = InMemoryTokenStorage()
    let client: AuthClient
    let agent: HeadlessUserAgent
    let clock: ManualClock

    /// `configure` changes the provider's settings; `values` are the `oidc` configuration keys beyond issuer, client
    /// id and redirect URI; `privateJWK` is configured as the client's key (`private_key_jwk`) and its public half
    /// registered with the provider when given.
    init(
        values: [String: JSONValue] = [:],
        privateJWK: [String: JSONValue]? = nil,
        secret: String? = nil,
        policy: IDTokenPolicy? = nil,
        configure: (inout TestIdentityProvider.Configuration) -> Void = { _ in }
    ) throws {
        let clock = ManualClock()
        var configuration = TestIdentityProvider.Configuration(
            clients: [
                TestIdentityProvider.Client(
                    id: TestIdentityProvider.defaultClientID, secret: secret, redirectURIs: [TestIdentityProvider.defaultRedirectURI],
                    publicKey: try privateJWK.map { try ClientSigningKey(jwk: $0).publicJWK() })
            ])
        configuration.pushedAuthorization = .init()
        configure(&configuration)
        idp = TestIdentityProvider(configuration: configuration, clock: clock)
        transport = RecordingTransport(idp.transport)
        agent = HeadlessUserAgent(transport: idp.transport)
        self.clock = clock
        var settings: [String: JSONValue] = [
            "issuer": .string(TestIdentityProvider.defaultIssuer.absoluteString),
            "client_id": .string(TestIdentityProvider.defaultClientID),
            "redirect_uri": .string(TestIdentityProvider.defaultRedirectURI.absoluteString),
            "scope": "openid email offline_access"
        ]
        if let secret { settings["client_secret"] = .string(secret) }
        if let privateJWK { settings["private_key_jwk"] = .object(privateJWK) }
        settings.merge(values) { _, new in new }
        var provider = try OpenIDProvider(configuration: ProviderConfiguration(settings))
        if let policy {
            provider = OpenIDProvider(
                issuer: provider.issuer, client: provider.client, idTokenPolicy: policy, usesSignedRequestObject: provider.usesSignedRequestObject)
        }
        client = AuthClient(provider: provider, storage: storage, transport: transport, clock: clock)
    }

    /// The pushed authorization requests the client sent.
    func pushes() async -> [RecordingTransport.Exchange] { await transport.exchanges(pathSuffix: "/par") }

    /// Whether nothing is stored and no sign-in is pending.
    func nothingKept() async throws -> Bool {
        let keys = try await storage.storedKeys()
        let held = await client.heldAuthorizationCount()
        return keys.isEmpty && held == 0
    }

    /// The names of `url`'s query parameters, sorted.
    static func queryNames(_ url: URL) -> [String] {
        (URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []).map(\.name).sorted()
    }

    /// A fresh Ed25519 private JWK (`kty: OKP`, `crv: Ed25519`).
    static func ed25519JWK(id: String = "client-ed") -> [String: JSONValue] {
        ["kty": "OKP", "crv": "Ed25519", "kid": .string(id), "d": .string(Base64URL.encode(SecureRandom.bytes(32)))]
    }

    /// A fresh P-256 private JWK with `alg`.
    static func p256JWK(id: String = "client-ec") -> [String: JSONValue] {
        ["kty": "EC", "crv": "P-256", "kid": .string(id), "d": .string(Base64URL.encode(SecureRandom.bytes(32)))]
    }
}
