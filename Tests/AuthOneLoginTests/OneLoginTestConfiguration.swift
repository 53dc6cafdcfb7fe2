import AuthEmulators
import AuthTesting
import OneLoginCompat

/// The OneLogin configuration both OneLogin suites sign in with against the emulator: its issuer, client, redirect,
/// scopes and the `resource` parameter the emulated app requires.
let oneLoginTestConfiguration: [String: String] = [
    "issuer": "https://example.onelogin.com/oidc/2",
    "clientId": TestIdentityProvider.oneLoginClientID,
    "redirectUri": TestIdentityProvider.oneLoginRedirectURI.absoluteString,
    "scopes": "openid profile email",
    "resource": TestIdentityProvider.oneLoginResource
]
