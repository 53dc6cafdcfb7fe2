import AuthProviders
import Foundation

/// The CLI's session file: which provider and configuration were used, and the credentials.
///
/// It is a ``TokenStorage`` so the engine reads and writes credentials through it; every write replaces the whole
/// file atomically with mode 0600 (``AtomicFile``). The configuration may hold a client secret, which is why the
/// file is private.
actor CLIStore: TokenStorage {
    struct Profile: Codable {
        var version = 1
        var provider: ProviderID
        /// Whether the session came from the embedded identity provider (which exists only during one command).
        var embedded: Bool
        var configuration: [String: JSONValue]
        var credentials: [Credential] = []
    }

    let url: URL
    private var profile: Profile

    /// A store that will write `profile` to `url`.
    init(url: URL, provider: ProviderID, embedded: Bool, configuration: ProviderConfiguration) {
        self.url = url
        self.profile = Profile(provider: provider, embedded: embedded, configuration: configuration.values)
    }

    /// Opens an existing session file.
    init(opening url: URL) throws {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw AuthError(.notSignedIn, "No stored session at \(url.path); run `auth-cli login` first (or pass --store).")
        }
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .secondsSince1970
            profile = try decoder.decode(Profile.self, from: Data(contentsOf: url))
        } catch {
            throw AuthError(.storageCorrupted, "The session file \(url.path) is unreadable; delete it and log in again.")
        }
        self.url = url
    }

    var providerID: ProviderID { profile.provider }
    var isEmbedded: Bool { profile.embedded }
    var configuration: ProviderConfiguration { ProviderConfiguration(profile.configuration) }

    func credential(for key: StorageKey) -> Credential? {
        profile.credentials.first { $0.storageKey == key }
    }

    func store(_ credential: Credential, for key: StorageKey) throws {
        profile.credentials.removeAll { $0.storageKey == key }
        profile.credentials.append(credential)
        try save()
    }

    func removeCredential(for key: StorageKey) throws {
        profile.credentials.removeAll { $0.storageKey == key }
        try save()
    }

    func storedKeys() -> [StorageKey] { profile.credentials.map(\.storageKey) }

    private func save() throws {
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(),
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        try AtomicFile.write(try encoder.encode(profile), to: url)
    }
}
