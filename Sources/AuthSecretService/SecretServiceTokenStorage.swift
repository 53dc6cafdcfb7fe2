public import AuthCore
import AuthFileStorage
public import Foundation

/// Credentials in the freedesktop Secret Service — GNOME Keyring, KWallet, KeePassXC — on Linux, instead of a file.
///
/// Each credential is one item of the default collection (usually `login`, unlocked when the user logs in), its
/// secret the credential as JSON, with attributes that say what it is, so `secret-tool search application
/// swift-auth-providers` and the desktop's password manager list it:
///
/// | attribute     | value                                        |
/// |---------------|----------------------------------------------|
/// | `application` | `swift-auth-providers` (or yours)            |
/// | `type`        | `credential`                                 |
/// | `provider`    | the provider id                              |
/// | `issuer`      | the issuer                                   |
/// | `client`      | the client id                                |
/// | `account`     | the subject (`sub`)                          |
///
/// It talks to the service through libsecret's `secret-tool` (Debian and Ubuntu: `libsecret-tools`): the secret goes
/// through a pipe in both directions, never onto a command line, and no C library is linked. A refresh shared by
/// several processes is safe: ``withExclusiveAccess(to:_:)`` holds an advisory lock per account in `lockDirectory`
/// (the Secret Service has no locks of its own).
///
/// Errors: `storage_unavailable` when no Secret Service answers (no session bus, no service, `secret-tool` missing)
/// or the collection is locked, saying which; `storage_corrupted` for an item that is not a credential. No secret
/// reaches a log or an error message.
public struct SecretServiceTokenStorage: TokenStorage {
    /// The `application` attribute of every item this storage reads and writes.
    public let application: String
    /// Where the per-account lock files live (created on first use, mode 0700).
    public let lockDirectory: URL
    /// How long to wait for another process's section to end.
    public let lockTimeout: Duration
    /// The `secret-tool` runs.
    package let tool: SecretTool

    /// A storage for `application`'s credentials.
    ///
    /// - Parameters:
    ///   - application: the `application` attribute (one per app, so two apps never read each other's items).
    ///   - lockDirectory: a directory every process sharing the credentials can reach; by default
    ///     `$XDG_RUNTIME_DIR/<application>/locks`, or `$HOME/.cache/<application>/locks` without `XDG_RUNTIME_DIR`.
    ///   - lockTimeout: how long to wait for another process's refresh (10 s by default).
    ///   - callTimeout: how long one call to the Secret Service may take (10 s by default).
    public init(
        application: String = "swift-auth-providers",
        lockDirectory: URL? = nil,
        lockTimeout: Duration = .seconds(10),
        callTimeout: Duration = .seconds(10)
    ) {
        self.init(application: application, lockDirectory: lockDirectory, lockTimeout: lockTimeout, tool: SecretTool(timeout: callTimeout))
    }

    package init(application: String, lockDirectory: URL?, lockTimeout: Duration, tool: SecretTool) {
        self.application = application
        self.lockDirectory = lockDirectory ?? Self.defaultLockDirectory(application)
        self.lockTimeout = lockTimeout
        self.tool = tool
    }

    /// Whether a Secret Service answers now.
    ///
    /// - Throws: `storage_unavailable` saying why not.
    public func checkAvailable() async throws {
        try await tool.probe()
    }

    /// The credential stored under `key`.
    ///
    /// - Throws: `storage_unavailable` (no service, or the collection is locked), `storage_corrupted`.
    public func credential(for key: StorageKey) async throws -> Credential? {
        guard let item = try await tool.search(try attributes(for: key)).first else { return nil }
        return try decode(item, for: key)
    }

    /// The credential in `item`, listed for `key`.
    ///
    /// - Throws: `storage_unavailable` for a locked item, `storage_corrupted` for anything but `key`'s credential.
    package func decode(_ item: SecretTool.Item, for key: StorageKey) throws -> Credential {
        guard let secret = item.secret else {
            throw AuthError(.storageUnavailable, "The Secret Service item for \(key.providerID) is locked; unlock its collection (the login keyring) and try again.")
        }
        let credential: Credential
        do {
            credential = try Self.decoder.decode(Credential.self, from: secret)
        } catch {
            throw AuthError(.storageCorrupted, "The Secret Service item for \(key.providerID) is not a credential this package wrote; remove it and sign in again.")
        }
        guard credential.storageKey == key else {
            throw AuthError(.storageCorrupted, "The Secret Service item for \(key.providerID) holds another account's credential; remove it and sign in again.")
        }
        return try credential.validatedForUse()
    }

    /// Stores `credential` under `key`, replacing the item with the same attributes.
    public func store(_ credential: Credential, for key: StorageKey) async throws {
        let secret = try Self.encoder.encode(credential)
        let label = "\(application): \(key.providerID) \(key.account) at \(key.issuer)"
        try await tool.store(secret, label: label, attributes: try attributes(for: key))
    }

    /// Removes the item under `key`.
    public func removeCredential(for key: StorageKey) async throws {
        try await tool.clear(try attributes(for: key))
    }

    /// The keys of every credential item of ``application`` (read from the credentials: `secret-tool` lists
    /// attributes apart from the items). An item that is not a credential is left out.
    ///
    /// - Throws: `storage_unavailable` when an item is locked (its account cannot be known).
    public func storedKeys() async throws -> [StorageKey] {
        try await tool.search(["application": application, "type": "credential"]).compactMap { item in
            guard let secret = item.secret else {
                throw AuthError(.storageUnavailable, "A Secret Service item of \(application) is locked; unlock its collection (the login keyring) and try again.")
            }
            return (try? Self.decoder.decode(Credential.self, from: secret))?.storageKey
        }
    }

    /// Runs `body` holding the account's lock file in ``lockDirectory``.
    public func withExclusiveAccess<T: Sendable>(to key: StorageKey, _ body: @Sendable () async throws -> T) async throws -> T {
        try FileLock.createDirectory(lockDirectory)
        return try await FileLock.forAccount(key, in: lockDirectory).withLock(wait: lockTimeout, body)
    }

    /// The item attributes for `key`.
    ///
    /// - Throws: `storage_failed` for a part with a control character (a line break would split `secret-tool`'s
    ///   listing).
    package func attributes(for key: StorageKey) throws -> [String: String] {
        let values = [
            "application": application, "type": "credential", "provider": key.providerID.rawValue, "issuer": key.issuer,
            "client": key.clientID, "account": key.account
        ]
        try Self.checkAttributes(values)
        return values
    }

    /// Refuses attribute values with control characters.
    package static func checkAttributes(_ values: [String: String]) throws {
        for (name, value) in values where value.isEmpty || value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw AuthError(.storageFailed, "The \(name) of this account is empty or has a control character; it cannot be a Secret Service attribute.")
        }
    }

    private static func defaultLockDirectory(_ application: String) -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return URL(fileURLWithPath: runtime).appendingPathComponent(application).appendingPathComponent("locks")
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".cache").appendingPathComponent(application).appendingPathComponent("locks")
    }

    /// One line of JSON (`secret-tool search` lists a secret on one line).
    package static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }

    package static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }
}
