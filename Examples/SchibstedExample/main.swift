// Signs in with Schibsted account against its in-process emulator (or real settings with --config FILE),
// printing each step: prompt=select_account, the X-OIDC header the emulator insists on, the validated ID token,
// then the profile, a TCF external id and a web session URL.
//
//     swift run schibsted-example
import AuthCore
import AuthSchibsted
import ExampleSupport
import Foundation

await ExampleRunner.main(providerID: SchibstedProvider.id) { session in
    guard let provider = session.client.provider as? SchibstedProvider else { return ["not a Schibsted session"] }
    let client = SchibstedAccountClient(configuration: provider.configuration, storage: session.client.storage,
                                        transport: session.client.transport, logger: session.client.logger,
                                        clock: session.client.clock)
    guard let user = try await client.resumeLastLoggedInUser() else { return ["no stored user"] }
    let profile = try await user.fetchProfileData()
    let externalID = client.getExternalId(pairId: profile.pairId ?? "", externalParty: "consent-partner")
    let webSession = try await user.webSessionURL(clientId: provider.configuration.clientId,
                                                  redirectURI: provider.configuration.redirectURI)
    return [
        "user:       uuid \(await user.uuid ?? "-"), legacy id \(await user.userId ?? "-")",
        "profile:    \(profile.displayName ?? "-") <\(profile.email ?? "-")>, pair id \(profile.pairId ?? "-")",
        "external:   \(externalID ?? "-") (SHA-256 of pairId:externalParty)",
        "web:        \(webSession.deletingLastPathComponent().absoluteString)<one-time code>",
    ]
}
