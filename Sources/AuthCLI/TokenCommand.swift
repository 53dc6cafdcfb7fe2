import ArgumentParser
import AuthProviders
import CommandLineOutput
import Foundation

/// `auth-cli token`: the active account's access token for scripts, and nothing else on standard output.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print a valid access token of the active account (refreshed first if it has expired), and nothing else.",
        discussion: """
            curl -H "Authorization: Bearer $(auth-cli token)" https://api.example.com/
            With --json: {"access_token": …, "expires_at": …, "subject": …, "issuer": …}.
            """
    )
    @OptionGroup var store: StoreOptions
    @OptionGroup var selection: AccountOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await StoredSession.run(store, selection, output) { stored, output in
            let token = try await stored.session.validAccessToken()
            let credential = await stored.session.credential
            if output.options.json {
                output.emit(
                    [
                        "access_token": .string(token.reveal()),
                        "expires_at": credential.expiresAt.map { .string(Output.timestamp($0)) } ?? .null,
                        "subject": credential.subject.map(JSONValue.string) ?? .null, "issuer": .string(credential.issuer)
                    ],
                    human: []
                )
            } else {
                // Not through `emit`: the token is printed as it is, on one line, for `$(auth-cli token)`.
                print(token.reveal())
            }
        }
    }
}
