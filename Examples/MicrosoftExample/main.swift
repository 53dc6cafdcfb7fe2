// Signs in with Microsoft Entra ID against its in-process emulator: the `common` endpoint, whose discovery issuer is
// the template https://login.microsoftonline.com/{tenantid}/v2.0 and whose ID tokens are checked against their own
// `tid`; then a client with an allow-list of tenants that refuses a user of another tenant, and an `organizations`
// client that refuses a personal account — each with nothing stored. With --config FILE it runs the generic flow
// against real settings.
//
//     swift run microsoft-example
import AuthCore
import AuthEmulators
import AuthMicrosoft
import AuthTesting
import ExampleSupport
import Foundation

/// Signs in against `emulator` and expects the refusal `code` with nothing stored; exits 1 otherwise.
func expectRefusal(_ title: String, _ emulator: ProviderEmulator, code: AuthError.Code) async {
    let storage = InMemoryTokenStorage()
    do {
        let client = AuthClient(
            provider: try MicrosoftProvider(configuration: emulator.configuration), storage: storage, transport: emulator.transport, clock: emulator.clock
        )
        _ = try await client.signIn(with: emulator.userAgent)
        print("FAILED: \(title): the sign-in was accepted")
        exit(1)
    } catch let error as AuthError where error.code == code {
        guard (await storage.storedKeys()).isEmpty else {
            print("FAILED: \(title): the refused sign-in left a credential in storage")
            exit(1)
        }
        print("== \(title)")
        print("refused     \(error.code): \(error.message)")
        print("stored      nothing\n")
    } catch {
        print("FAILED: \(title): expected \(code), got \(error)")
        exit(1)
    }
}

if !CommandLine.arguments.contains("--config"), !CommandLine.arguments.contains("--help") {
    await expectRefusal(
        "a client that allows only tenant 00000000-0000-0000-0000-00000000beef, and a user of another tenant",
        .microsoft(allowedTenants: ["00000000-0000-0000-0000-00000000beef"]), code: .microsoftTenantNotAllowed
    )
    await expectRefusal(
        "an 'organizations' client and a personal Microsoft account (the service itself refuses it)",
        .microsoft(tenant: "organizations", userTenant: TestIdentityProvider.microsoftPersonalAccountsTenantID), code: .authorizationFailed
    )
}

await ExampleRunner.main(
    providerID: MicrosoftProvider.id,
    extra: { session in
        let claims = await session.idTokenClaims
        return ["tenant (tid): \(claims?["tid"]?.stringValue ?? "-"), issuer checked against it: \(claims?.issuer ?? "-")"]
    },
    scenarios: [
        ExampleRunner.Scenario(
            title: "A 'consumers' client and a personal Microsoft account",
            emulator: .microsoft(tenant: "consumers", userTenant: TestIdentityProvider.microsoftPersonalAccountsTenantID)
        )
    ]
)
