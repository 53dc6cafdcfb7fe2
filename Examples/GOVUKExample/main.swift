// Signs in with GOV.UK One Login against its in-process emulators (or real settings with --config FILE), printing
// each step:
//   1. an app, as GOV.UK's own app signs in at its token service: scope openid, the attestation headers with every
//      token request (the emulator refuses offline_access and an unattested token request), vectors of trust and
//      locale sent, the ID token validated, and the user read from it (GOV.UK's token service has no user-info endpoint);
//   2. a government web service asking for identity (Cl.Cm.P2): private_key_jwt, the ID token's vot checked, and the
//      core identity JWT verified against GOV.UK's DID document before its name and birth date are printed;
//   3. the same service for a user whose identity could not be proved: no identity, a return code.
//
//     swift run govuk-example
import AuthCore
import AuthEmulators
import AuthGOVUK
import AuthTesting
import ExampleSupport
import GOVUKCompat

/// What a service does after sign-in: user info with the identity claims, the core identity verified first.
@Sendable func serviceIdentity(_ session: Session) async throws -> [String] {
    guard session.client.provider is GOVUKServiceProvider else {
        let user = try await UserService(session: session).fetchUserInfo()
        return [
            "user info: email \(user.email) (verified: \(user.emailVerified))",
            "           phone \(user.phoneNumber ?? "-") (verified: \(user.phoneNumberVerified))"
        ]
    }
    let info = try await session.govUKUserInfo()
    var lines = ["user info: email \(info.email ?? "-"), no refresh token (the session ends with the access token)"]
    if let identity = info.coreIdentity {
        lines.append("identity:  core identity JWT verified (ES256 key from the DID document, iss, aud, sub, vot \(identity.levelOfConfidence), exp)")
        lines.append("           name \(identity.currentName?.fullName ?? "-"), born \(identity.birthDates.joined(separator: ", "))")
    } else {
        lines.append("identity:  not proved")
    }
    if let address = info.addresses.first(where: \.isCurrent) {
        lines.append("address:   \([address.buildingNumber, address.streetName, address.addressLocality, address.postalCode].compactMap { $0 }.joined(separator: " "))")
    }
    if !info.returnCodes.isEmpty {
        lines.append("return codes: \(info.returnCodes.map(\.code).joined(separator: ", ")) (agree their meaning with GOV.UK when onboarding)")
    }
    return lines
}

await ExampleRunner.main(
    providerID: GOVUKProvider.id, extra: serviceIdentity,
    scenarios: [
        ExampleRunner.Scenario(
            title: "GOV.UK One Login for a web service: identity (Cl.Cm.P2)",
            emulator: .govUKService(),
            extra: serviceIdentity
        ),
        ExampleRunner.Scenario(
            title: "GOV.UK One Login for a web service: identity not proved (return code)",
            emulator: .govUKService(user: TestIdentityProvider.govUKServiceUserWithoutIdentity(returnCodes: ["X"])),
            extra: serviceIdentity
        )
    ])
