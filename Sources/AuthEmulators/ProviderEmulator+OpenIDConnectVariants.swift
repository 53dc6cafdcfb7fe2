public import AuthCore
public import AuthTesting
public import Foundation

extension ProviderEmulator {
    /// The emulators `auth-emulator emulate` serves by name besides ``servedEmulatorNames`` (they are not part of
    /// `all`): `oidc-par`, an OpenID Connect issuer that requires pushed authorization requests (RFC 9126), and
    /// `oidc-fapi`, one whose client holds itself to the FAPI 2.0 Security Profile.
    public static let servedVariantNames = ["oidc-par", "oidc-fapi"]

    /// The client id of the `oidc-fapi` emulator's client (`private_key_jwt` with an Ed25519 key).
    public static let fapiClientID = "fapi-client"

    /// TEST ONLY. The `oidc-fapi` client's Ed25519 private key seed (RFC 8032 §7.1, test 2); it protects nothing.
    private static let fapiClientKeySeed = "TM0Imyj_ltqdtsNG7BFOD1uKMZ81q6Yk2oz27U-4pvs"

    /// The variant `name` (one of ``servedVariantNames``) served over HTTP at `origin`, or `nil` for another name.
    public static func servedVariant(_ name: String, at origin: URL, clock: any WallClock = SystemWallClock()) -> ProviderEmulator? {
        switch name {
        case "oidc-par": openIDConnectPushed(clock: clock, origin: origin)
        case "oidc-fapi": openIDConnectFAPI2(clock: clock, origin: origin)
        default: nil
        }
    }

    /// A standard OpenID Connect issuer served at `origin` that requires pushed authorization requests
    /// (`require_pushed_authorization_requests: true`): each `request_uri` is used once and expires after 60 seconds,
    /// and an authorization request that was not pushed gets an error page. Its client is the `oidc` emulator's.
    public static func openIDConnectPushed(clock: any WallClock = SystemWallClock(), origin: URL) -> ProviderEmulator {
        var configuration = TestIdentityProvider.Configuration()
        configuration.displayName = "Example OpenID Provider (pushed requests required)"
        configuration.pushedAuthorization = .init(required: true)
        let idp = TestIdentityProvider(configuration: configuration.served(at: origin), clock: clock)
        return openIDConnect(idp, redirectURI: TestIdentityProvider.loopbackRedirectURI)
    }

    /// An OpenID Connect issuer served at `origin` that offers what the FAPI 2.0 Security Profile needs — pushed
    /// authorization requests (required), DPoP with EdDSA proofs, RFC 9207 `iss`, EdDSA (Ed25519) ID tokens — and a client configured
    /// with `profile: fapi2`, `private_key_jwt` with an Ed25519 key (`private_key_jwk` in its configuration file) and
    /// `dpop: true`.
    public static func openIDConnectFAPI2(clock: any WallClock = SystemWallClock(), origin: URL) -> ProviderEmulator {
        let privateJWK: [String: JSONValue] = ["kty": "OKP", "crv": "Ed25519", "kid": "fapi-client-ed25519", "d": .string(fapiClientKeySeed)]
        // A fixed, valid 32-byte seed: the key is made without fail.
        let publicJWK = try! ClientSigningKey(jwk: privateJWK).publicJWK()
        var configuration = TestIdentityProvider.Configuration(
            signingAlgorithm: .edDSA,
            clients: [TestIdentityProvider.Client(id: fapiClientID, redirectURIs: [TestIdentityProvider.loopbackRedirectURI], publicKey: publicJWK)]
        )
        configuration.displayName = "Example FAPI 2.0 Provider"
        // DPoP proofs with EdDSA only, so the client's Ed25519 proofs are what the server checks.
        configuration.dpop = .init()
        configuration.dpop?.algorithms = ["EdDSA"]
        configuration.pushedAuthorization = .init(required: true)
        let idp = TestIdentityProvider(configuration: configuration.served(at: origin), clock: clock)
        let client: [String: JSONValue] = [
            "issuer": .string(idp.configuration.issuer.absoluteString),
            "client_id": .string(fapiClientID),
            "redirect_uri": .string(TestIdentityProvider.loopbackRedirectURI.absoluteString),
            "scope": "openid email profile offline_access",
            "profile": "fapi2",
            "dpop": true,
            "private_key_jwk": .object(privateJWK)
        ]
        return ProviderEmulator(
            providerID: "oidc",
            configuration: ProviderConfiguration(client),
            transport: idp.transport,
            userAgent: HeadlessUserAgent(transport: idp.transport),
            clock: clock,
            route: "web",
            supportsRefresh: true,
            identityProvider: idp
        )
    }
}
