import AuthCore
package import Foundation

/// The freedesktop Secret Service (GNOME Keyring, KWallet, KeePassXC) through libsecret's `secret-tool`.
///
/// Secrets travel only through pipes: `store` reads the secret from standard input and `search` writes it to standard
/// output, so no secret is ever an argument (which every local user can read in `/proc/<pid>/cmdline`). Only the
/// attributes (provider, issuer, client, account) are arguments. Every call is bounded by `timeout`: a collection
/// that waits for an unlock prompt no one can answer becomes `storage_unavailable`, not a hang.
package struct SecretTool: Sendable {
    /// One stored item as `secret-tool search` lists it on standard output.
    ///
    /// `secret-tool` writes an item's attributes on standard error, apart from the rest, so which attributes belong to
    /// which item is lost when several match: callers search with the attributes they need to match, and read
    /// anything else from the secret.
    package struct Item: Sendable, Equatable {
        /// The item's label.
        package var label: String?
        /// The secret; `nil` when the item is locked.
        package var secret: Data?
    }

    /// `secret-tool` itself; `nil` looks it up on `PATH`.
    package var executable: URL?
    /// How long one call may take.
    package var timeout: Duration

    /// A tool that finds `secret-tool` on `PATH` and waits at most `timeout` for each call.
    package init(executable: URL? = nil, timeout: Duration = .seconds(10)) {
        self.executable = executable
        self.timeout = timeout
    }

    /// Whether a Secret Service answers on the session bus.
    ///
    /// - Throws: `storage_unavailable` saying why not (no `secret-tool`, no session bus, no service, no answer).
    package func probe() async throws {
        _ = try await search(["xdg:schema": "org.swift-auth-providers.Probe"])
    }

    /// Stores `secret` with `attributes`, replacing the item with the same attributes, in the default collection.
    package func store(_ secret: Data, label: String, attributes: [String: String]) async throws {
        let result = try await run(["store", "--label", label] + Self.arguments(attributes), input: secret)
        guard result.status == 0 else { throw unavailable(result, doing: "store a secret") }
    }

    /// Every item whose attributes include `attributes`, with its secret when it is unlocked.
    package func search(_ attributes: [String: String]) async throws -> [Item] {
        let result = try await run(["search", "--all"] + Self.arguments(attributes), input: nil)
        // Nothing found: exit status 0 (or 1 in older versions) with nothing on either stream.
        guard result.status == 0 || (result.status == 1 && result.stderr.isEmpty && result.stdout.isEmpty) else {
            throw unavailable(result, doing: "search the stored secrets")
        }
        return Self.parse(result.stdout)
    }

    /// Removes every item whose attributes include `attributes`; none is not an error.
    package func clear(_ attributes: [String: String]) async throws {
        let result = try await run(["clear"] + Self.arguments(attributes), input: nil)
        guard result.status == 0 || (result.status == 1 && result.stderr.isEmpty) else {
            throw unavailable(result, doing: "remove a secret")
        }
    }

    /// `name value` pairs, in a stable order. Names and values are never secrets.
    static func arguments(_ attributes: [String: String]) -> [String] {
        attributes.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }
    }

    /// The error for a failed call: `storage_unavailable` with what `secret-tool` said (never a secret: it prints
    /// secrets only on standard output).
    private func unavailable(_ result: ProcessResult, doing what: String) -> AuthError {
        let said = result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        if result.timedOut {
            return AuthError(
                .storageUnavailable,
                "The Secret Service did not answer within \(timeout) when asked to \(what): is the collection locked (waiting for an unlock prompt)? Unlock it, e.g. by logging in to the desktop session."
            )
        }
        if said.localizedCaseInsensitiveContains("locked") || said.localizedCaseInsensitiveContains("prompt") {
            return AuthError(.storageUnavailable, "The Secret Service collection is locked (\(said)); unlock it and try again.")
        }
        return AuthError(
            .storageUnavailable,
            "No Secret Service answered when asked to \(what) (secret-tool: \(said.isEmpty ? "exit status \(result.status)" : said)). Start one (GNOME Keyring, KWallet, KeePassXC) in a D-Bus session."
        )
    }
}
