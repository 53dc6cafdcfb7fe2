// Signs in with Google against its in-process emulator: discovery at accounts.google.com, an offline grant (refresh
// token), then a Workspace-only client (hosted_domain) that admits its own domain and refuses another domain's user,
// with nothing stored. With --config FILE it runs the generic flow against real settings.
//
//     swift run google-example
import AuthCore
import AuthEmulators
import AuthGoogle
import AuthTesting
import ExampleSupport
import Foundation

if !CommandLine.arguments.contains("--config"), !CommandLine.arguments.contains("--help") {
    // What a Workspace-only client refuses: Google sends `hd` only as a hint for the account chooser, so the ID
    // token's `hd` is what decides. The emulated user is in example.com; this client admits only other.example.
    let emulator = ProviderEmulator.google(hostedDomain: "other.example")
    let storage = InMemoryTokenStorage()
    do {
        let client = AuthClient(
            provider: try GoogleProvider(configuration: emulator.configuration), storage: storage, transport: emulator.transport, clock: emulator.clock
        )
        _ = try await client.signIn(with: emulator.userAgent)
        print("FAILED: a user of example.com signed in to a client for other.example")
        exit(1)
    } catch let error as AuthError where error.code == .googleHostedDomainMismatch {
        let stored = await storage.storedKeys()
        guard stored.isEmpty else {
            print("FAILED: the refused sign-in left \(stored.count) credential(s) in storage")
            exit(1)
        }
        print("== a client for other.example and a user of example.com")
        print("refused     \(error.code): \(error.message)")
        print("stored      nothing\n")
    } catch {
        print("FAILED: expected google_hosted_domain_mismatch, got \(error)")
        exit(1)
    }
}

await ExampleRunner.main(
    providerID: GoogleProvider.id,
    extra: { session in
        let claims = await session.idTokenClaims
        return ["Workspace domain (hd): \(claims?["hd"]?.stringValue ?? "none, a consumer account")"]
    },
    scenarios: [
        ExampleRunner.Scenario(title: "A Workspace-only client (hosted_domain example.com) and a user of example.com", emulator: .google(hostedDomain: "example.com"))
    ]
)
