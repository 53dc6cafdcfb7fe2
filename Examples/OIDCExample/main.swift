// Signs in with the standard OpenID Connect provider against the in-process identity provider from AuthTesting
// (or a real issuer with --config FILE), printing each step and the validated claims. No network, no browser.
//
//     swift run oidc-example
import AuthOIDC
import ExampleSupport

await ExampleRunner.main(providerID: OpenIDProvider.id) { session in
    let info = try await session.userInfo()
    return ["user info: sub matches the ID token; email \(info["email"]?.stringValue ?? "-")"]
}
