// Signs in with GOV.UK One Login against its in-process emulator (or real settings with --config FILE),
// printing each step: the vectors of trust and locale sent, the ID token validated, and the user info.
//
//     swift run govuk-example
import AuthGOVUK
import ExampleSupport

await ExampleRunner.main(providerID: GOVUKProvider.id) { session in
    let user = try await UserService(session: session).fetchUserInfo()
    return [
        "user info: email \(user.email) (verified: \(user.emailVerified))",
        "           phone \(user.phoneNumber ?? "-") (verified: \(user.phoneNumberVerified))",
    ]
}
