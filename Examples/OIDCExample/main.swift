// Signs in with the standard OpenID Connect provider against the in-process identity provider from
// AuthTesting, and prints each step and the validated ID token claims. No network, no browser.
//
//     swift run oidc-example
import AuthCore
import AuthOIDC
import AuthTesting
import Foundation

let identityProvider = TestIdentityProvider(clock: SystemWallClock())
let transport = identityProvider.transport

// 1. Select the provider by name, with the configuration an app would keep in Info.plist or a JSON file.
var registry = ProviderRegistry()
registry.register(OpenIDProvider.self)
let configuration = ProviderConfiguration([
    "issuer": .string(TestIdentityProvider.defaultIssuer.absoluteString),
    "client_id": .string(TestIdentityProvider.defaultClientID),
    "redirect_uri": .string(TestIdentityProvider.defaultRedirectURI.absoluteString),
    "scope": "openid email profile offline_access",
])

do {
    let provider = try registry.provider(named: "oidc", configuration: configuration)
    print("provider      \(provider.id) (\(type(of: provider).displayName)), issuer \(TestIdentityProvider.defaultIssuer.absoluteString)")

    // 2. A client with the in-process transport; the logger stays quiet unless something goes wrong.
    var logger = SwiftLogAuthLogger().logger
    logger.logLevel = .warning
    let client = AuthClient(provider: provider, transport: transport, logger: SwiftLogAuthLogger(logger: logger))

    // 3. Sign in: discovery, PKCE S256 + state + nonce, authorize, redirect checks, token exchange, ID token checks.
    let metadata = try await client.metadata()
    print("discovery     authorize \(metadata.authorizationEndpoint.absoluteString), token \(metadata.tokenEndpoint.absoluteString)")
    let request = try await client.prepareSignIn()
    let sent = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems?.map(\.name) ?? []
    print("authorize     parameters \(sent.joined(separator: ", "))")
    let redirect = try await HeadlessUserAgent(transport: transport).authorize(request)
    print("redirect      state consumed once, RFC 9207 iss checked")
    let session = try await client.completeSignIn(redirect: redirect)

    // 4. The result.
    let credential = await session.credential
    guard let claims = await session.idTokenClaims else { fatalError("an OpenID Connect sign-in always has claims") }
    let format = ISO8601DateFormatter()
    print("id token      signature (\(identityProvider.configuration.signingAlgorithm)), iss, aud, exp, iat, nonce, at_hash: valid")
    print("signed in     subject \(claims.subject), email \(claims["email"]?.stringValue ?? "-")")
    print("expires       access token \(credential.expiresAt.map(format.string(from:)) ?? "unknown"), ID token \(format.string(from: claims.expiration))")
    print("refresh token \(credential.refreshToken == nil ? "none" : "stored") (values are never printed: \(credential.accessToken))")
} catch {
    print("sign-in failed: \(error)")
    exit(1)
}
