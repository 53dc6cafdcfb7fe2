// Signs in with OneLogin against its in-process emulator (or real settings with --config OL-Oidc.plist),
// printing each step: the custom parameters sent, the ID token validated (signature included, which the vendor's
// AppAuth wrapper skipped), introspection and user info.
//
//     swift run onelogin-example
import AuthCore
import AuthOneLogin
import ExampleSupport
import OneLoginCompat

await ExampleRunner.main(providerID: OneLoginProvider.id) { session in
    let active = try await session.introspect().isActive
    let info = try await session.userInfo()
    return [
        "introspect: access token active = \(active)",
        "user info:  \(info["name"]?.stringValue ?? "-") <\(info["email"]?.stringValue ?? "-")>"
    ]
}
