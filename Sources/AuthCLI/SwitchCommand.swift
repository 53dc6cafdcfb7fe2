import ArgumentParser
import AuthProviders
import CommandLineOutput
import Foundation

/// `auth-cli switch`: choose the active account among those in the keyring.
struct SwitchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switch",
        abstract: "Make another stored account the active one.",
        discussion: """
            auth-cli switch --account SUBJECT [--issuer URL]   # that account
            auth-cli switch                                  # with two accounts: the other one
            """
    )
    @OptionGroup var store: StoreOptions
    @OptionGroup var selection: AccountOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let output = Output(options: output)
        try await output.reportingErrors {
            guard case .keyring = try store.location else {
                throw ValidationError("A session file holds one sign-in; `switch` chooses among the accounts in the system keyring.")
            }
            let sessions = KeyringSessions()
            let (accounts, active) = try await sessions.accounts()
            let keys = accounts.map(\.key)
            let chosen: StorageKey
            if selection.issuer == nil, selection.account == nil {
                let others = keys.filter { $0 != active }
                guard keys.count == 2, others.count == 1 else {
                    if keys.isEmpty { throw AuthError(.notSignedIn, "No account is signed in; run `auth-cli login`.") }
                    throw ValidationError("\(keys.count) accounts are stored: name one with --account SUBJECT (and --issuer); `auth-cli status` lists them.")
                }
                chosen = others[0]
            } else {
                let matching = keys.filter(selection.matches)
                guard matching.count == 1 else {
                    if matching.isEmpty { throw AuthError(.notSignedIn, "No stored account matches; `auth-cli status` lists them.") }
                    throw ValidationError("\(matching.count) stored accounts match: add --account SUBJECT or --issuer URL.")
                }
                chosen = matching[0]
            }
            try await sessions.setActive(chosen)
            output.emit(
                [
                    "active": [
                        "provider": .string(chosen.providerID.rawValue), "issuer": .string(chosen.issuer),
                        "client_id": .string(chosen.clientID), "subject": .string(chosen.account)
                    ]
                ],
                human: ["active     \(chosen.providerID)  \(chosen.account)", "issuer     \(chosen.issuer)"]
            )
        }
    }
}
