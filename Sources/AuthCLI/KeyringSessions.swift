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
        /// The account it belongs to (set when stored).
        var key: StorageKey?
    }

    let credentials: SecretServiceTokenStorage
    let tool: SecretTool

    init() {
        let timeout = ProcessInfo.processInfo.environment["AUTH_CLI_KEYRING_TIMEOUT"].flatMap(Int.init).map { Duration.seconds($0) } ?? .seconds(20)
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
    ///
    /// Three searches, one per item type: `secret-tool` lists attributes apart from the items, so each item's account
    /// is read from its secret (a profile holds its account's key).
    func accounts() async throws -> (accounts: [Account], active: StorageKey?) {
        let decoder = SecretServiceTokenStorage.decoder
        let active = try await tool.search(["application": Self.application, "type": "active"]).first?.secret
            .flatMap { try? decoder.decode(StorageKey.self, from: $0) }
        var profiles: [StorageKey: Profile] = [:]
        for item in try await tool.search(["application": Self.application, "type": "profile"]) {
            if let profile = item.secret.flatMap({ try? decoder.decode(Profile.self, from: $0) }), let key = profile.key { profiles[key] = profile }
        }
        var accounts: [Account] = []
        var locked = 0
        for item in try await tool.search(["application": Self.application, "type": "credential"]) {
            guard let secret = item.secret else {
                locked += 1
                continue
            }
            guard let credential = try? decoder.decode(Credential.self, from: secret) else { continue }
            let key = credential.storageKey
            do {
                accounts.append(Account(key: key, profile: profiles[key], credential: try credentials.decode(item, for: key), problem: nil))
            } catch let error as AuthError {
                accounts.append(Account(key: key, profile: profiles[key], credential: nil, problem: error.code.rawValue))
            }
        }
        if locked > 0, accounts.isEmpty {
            throw AuthError(.storageUnavailable, "auth-cli's items in the Secret Service are locked; unlock the login keyring and try again.")
        }
        accounts.sort { ($0.key.issuer, $0.key.account, $0.key.clientID) < ($1.key.issuer, $1.key.account, $1.key.clientID) }
        return (accounts, active)
    }

    /// The active account's key and profile, read directly (two searches, whatever the number of accounts);
    /// `nil` when none is recorded.
    func active() async throws -> (key: StorageKey, profile: Profile?)? {
        let decoder = SecretServiceTokenStorage.decoder
        guard
            let key = try await tool.search(["application": Self.application, "type": "active"]).first?.secret
                .flatMap({ try? decoder.decode(StorageKey.self, from: $0) })
        else { return nil }
        let profile = try await tool.search(try profileAttributes(key)).first?.secret.flatMap { try? decoder.decode(Profile.self, from: $0) }
        return (key, profile?.key == key ? profile : nil)
    }

    /// Forgets which account is active (after it was logged out).
    func clearActive() async throws {
        try await tool.clear(["application": Self.application, "type": "active"])
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
        var profile = profile
        profile.key = key
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
}
