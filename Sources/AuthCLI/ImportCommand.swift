import ArgumentParser
import AuthProviders
import CommandLineOutput
import Foundation

/// `auth-cli import`: moves a session file (an earlier auth-cli's default, or `--store FILE`) into the keyring.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Move a session file's accounts into the system keyring, then delete the file.",
        discussion: "Without --store: ~/.config/auth-cli/session.json, where earlier auth-cli versions kept the session."
    )
    @Option(help: "The session file to move (default ~/.config/auth-cli/session.json).")
    var store: String?
    @Flag(help: "Keep the file after copying its accounts.")
    var keepFile = false
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let output = Output(options: output)
        try await output.reportingErrors {
            let url = store.map { URL(fileURLWithPath: ($0 as NSString).expandingTildeInPath) } ?? StoreOptions.defaultFile
            let file = try CLIStore(opening: url)
            if await file.isFromEmbeddedTestProvider {
                throw AuthError(.invalidConfiguration, "This session came from the test identity provider an earlier auth-cli embedded; it is not imported.")
            }
            let sessions = KeyringSessions()
            try await sessions.requireAvailable()
            let profile = KeyringSessions.Profile(provider: await file.providerID, configuration: await file.configuration.values)
            var moved: [StorageKey] = []
            for key in try await file.storedKeys() {
                guard let credential = try await file.credential(for: key) else { continue }
                try await sessions.saveProfile(profile, for: key)
                try await sessions.credentials.store(credential, for: key)
                moved.append(key)
            }
            guard let last = moved.last else { throw AuthError(.notSignedIn, "The session file \(url.path) holds no credential.") }
            try await sessions.setActive(last)
            if !keepFile {
                try FileManager.default.removeItem(at: url)
                try? FileManager.default.removeItem(at: url.appendingPathExtension("lock"))
            }
            output.emit(
                ["imported": .array(moved.map { .string($0.account) }), "deleted": .bool(!keepFile), "store": "secret-service"],
                human: moved.map { "imported   \($0.providerID)  \($0.account)" } + (keepFile ? [] : ["deleted    \(url.path)"])
            )
        }
    }
}
