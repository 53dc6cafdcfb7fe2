import AuthProviders
import AuthSecretService
import Foundation

/// auth-cli's accounts in the Secret Service: per account a credential item and a profile item (the provider and its
/// configuration, which may hold a client secret), and one item naming the active account.
///
/// Every item has `application` = `auth-cli` and a `type` (`credential`, `profile`, `active`); the credential and
/// profile items also have `provider`, `issuer`, `client` and `account`, so `secret-tool search application auth-cli`
/// lists them.
struct KeyringSessions: Sendable {
    /// The `application` attribute of auth-cli's items.
    static let application = "auth-cli"

    /// One stored account.
    struct Account: Sendable {
        let key: StorageKey
        let profile: Profile?
        /// `nil` when the item is locked or unreadable (then `problem` says why).
        let credential: Credential?
        let problem: String?
    }

    /// What a sign-in used: the provider and its configuration.
    struct Profile: Codable, Sendable {
        var version = 1
        var provider: ProviderID
        var configuration: [String: JSONValue]
    }

    let credentials: SecretServiceTokenStorage
    let tool: SecretTool

    init() {
        let timeout = ProcessInfo.processInfo.environment["AUTH_CLI_KEYRING_TIMEOUT"].flatMap(Int.init).map { Duration.seconds($0) } ?? .seconds(10)
        tool = SecretTool(timeout: timeout)
        credentials = SecretServiceTokenStorage(application: Self.application, lockDirectory: nil, lockTimeout: .seconds(30), tool: tool)
    }

    /// Fails with a refusal that names the file flags when no Secret Service answers.
    func requireAvailable() async throws {
        do {
            try await tool.probe()
        } catch let error as AuthError {
            throw AuthError(
                .storageUnavailable,
                "\(error.message) auth-cli keeps sessions in the system keyring and never falls back to a plaintext file by itself: to keep this session in a file (mode 0600, readable by anything running as you), pass --store FILE or --insecure-storage."
            )
        }
    }

    /// Every account, in a stable order (issuer, then subject), with the active one's key.
    func accounts() async throws -> (accounts: [Account], active: StorageKey?) {
        let items = try await tool.search(["application": Self.application])
        var profiles: [StorageKey: Profile] = [:]
        var active: StorageKey?
        var found: [(StorageKey, SecretTool.Item)] = []
        for item in items {
            switch item.attributes["type"] {
            case "active":
                active = item.secret.flatMap { try? SecretServiceTokenStorage.decoder.decode(StorageKey.self, from: $0) }
            case "profile":
                if let key = Self.key(item.attributes), let secret = item.secret {
                    profiles[key] = try? SecretServiceTokenStorage.decoder.decode(Profile.self, from: secret)
                }
            case "credential":
                if let key = Self.key(item.attributes) { found.append((key, item)) }
            default: continue
            }
        }
        var accounts: [Account] = []
        for (key, item) in found {
            var credential: Credential?
            var problem: String?
            do {
                credential = try credentials.decode(item, for: key)
            } catch let error as AuthError {
                problem = item.secret == nil ? "locked" : error.code.rawValue
            }
            accounts.append(Account(key: key, profile: profiles[key], credential: credential, problem: problem))
        }
        accounts.sort { ($0.key.issuer, $0.key.account, $0.key.clientID) < ($1.key.issuer, $1.key.account, $1.key.clientID) }
        return (accounts, active)
    }

    /// Makes `key` the account commands use when none is named.
    func setActive(_ key: StorageKey) async throws {
        try await tool.store(
            try SecretServiceTokenStorage.encoder.encode(key),
            label: "auth-cli: the active account",
            attributes: ["application": Self.application, "type": "active"]
        )
    }

    /// Stores the profile of `key`'s account.
    func saveProfile(_ profile: Profile, for key: StorageKey) async throws {
        try await tool.store(
            try SecretServiceTokenStorage.encoder.encode(profile),
            label: "auth-cli: how \(key.account) at \(key.issuer) signs in",
            attributes: try profileAttributes(key)
        )
    }

    /// Removes the account's profile (its credential goes through the token storage).
    func removeProfile(for key: StorageKey) async throws {
        try await tool.clear(try profileAttributes(key))
    }

    private func profileAttributes(_ key: StorageKey) throws -> [String: String] {
        var attributes = try credentials.attributes(for: key)
        attributes["type"] = "profile"
        return attributes
    }

    private static func key(_ attributes: [String: String]) -> StorageKey? {
        guard let provider = attributes["provider"], let issuer = attributes["issuer"], let client = attributes["client"],
            let account = attributes["account"]
        else { return nil }
        return StorageKey(providerID: ProviderID(rawValue: provider), issuer: issuer, clientID: client, account: account)
    }
}
