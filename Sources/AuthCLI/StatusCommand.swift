import ArgumentParser
import AuthProviders
import CommandLineOutput
import Foundation

/// `auth-cli status`: every stored account, the active one marked, without network access.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "List the stored accounts, the active one marked (no network).",
        discussion: "Exit status 4 when no account is stored (or none matches --issuer/--account)."
    )
    @OptionGroup var store: StoreOptions
    @OptionGroup var selection: AccountOptions
    @OptionGroup var output: OutputOptions

    /// One listed account.
    struct Row {
        let key: StorageKey
        let credential: Credential?
        let problem: String?
    }

    func run() async throws {
        let output = Output(options: output)
        try await output.reportingErrors {
            // Status reads the store only: no provider, no discovery, no network.
            var (rows, active, location) = try await load()
            rows = rows.filter { selection.matches($0.key) }
            guard !rows.isEmpty else {
                throw AuthError(
                    .notSignedIn,
                    selection.issuer == nil && selection.account == nil
                        ? "No account is stored in \(location); run `auth-cli login`." : "No stored account matches; run `auth-cli status` without filters."
                )
            }
            // Without a recorded choice, the only account is the active one.
            if active.map({ key in !rows.contains { $0.key == key } }) ?? true, rows.count == 1 { active = rows[0].key }
            let now = Date()
            let objects: [JSONValue] = rows.map { row in
                var object: [String: JSONValue] = [
                    "provider": .string(row.key.providerID.rawValue), "issuer": .string(row.key.issuer),
                    "client_id": .string(row.key.clientID), "subject": .string(row.key.account),
                    "active": .bool(row.key == active), "store": .string(location)
                ]
                if let credential = row.credential {
                    object["expires_at"] = credential.expiresAt.map { .string(Output.timestamp($0)) } ?? .null
                    object["expired"] = .bool(credential.isExpired(at: now))
                    object["has_refresh_token"] = .bool(credential.refreshToken != nil)
                }
                if let problem = row.problem { object["problem"] = .string(problem) }
                return .object(object)
            }
            output.emit(["accounts": .array(objects), "store": .string(location)], human: rows.flatMap { human($0, active: $0.key == active, now: now) })
        }
    }

    /// The accounts in the chosen store, the active one, and the store's name.
    private func load() async throws -> ([Row], StorageKey?, String) {
        switch try store.location {
        case .file(let url):
            let file = try CLIStore(opening: url)
            var rows: [Row] = []
            for key in try await file.storedKeys() { rows.append(Row(key: key, credential: try await file.credential(for: key), problem: nil)) }
            // The engine restores the most recently updated credential of a file.
            let active = rows.max { ($0.credential?.updatedAt ?? .distantPast) < ($1.credential?.updatedAt ?? .distantPast) }?.key
            return (rows, active, url.path)
        case .keyring:
            let (accounts, active) = try await KeyringSessions().accounts()
            return (accounts.map { Row(key: $0.key, credential: $0.credential, problem: $0.problem) }, active, "secret-service")
        }
    }

    /// Lines of at most 80 columns for the usual issuer; a long subject or issuer gets a line of its own, whole.
    private func human(_ row: Row, active: Bool, now: Date) -> [String] {
        var lines = ["\(active ? "*" : " ") \(row.key.providerID)  \(row.key.account)\(active ? "  (active)" : "")", "    issuer   \(row.key.issuer)"]
        if let credential = row.credential {
            let remaining = credential.expiresAt.flatMap { Int(exactly: $0.timeIntervalSince(now).rounded()) }
            let expiry = credential.expiresAt.map(Output.timestamp) ?? "unknown"
            lines.append("    expires  \(expiry)\(remaining.map { $0 > 0 ? " (in \($0) s)" : " (expired)" } ?? "")")
            lines.append("    refresh  \(credential.refreshToken == nil ? "none" : "stored")")
        }
        if let problem = row.problem { lines.append("    problem  \(problem)") }
        return lines
    }
}
