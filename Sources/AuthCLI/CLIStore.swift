import AuthFileStorage
import AuthProviders
import Foundation

/// The CLI's session file: which provider and configuration were used, and the credentials.
///
/// It is a ``TokenStorage`` so the engine reads and writes credentials through it; every write replaces the whole
/// file atomically with mode 0600 (``AtomicFile``). The configuration may hold a client secret, which is why the
/// file is private.
///
/// Several auth-cli processes may use one file at once (a `logout` while a `userinfo` refreshes). Every write
/// happens under an advisory lock on `<file>.lock` and starts from the file as it is on disk, and a store opened
/// from an existing file only replaces credentials that are still there: a session that another process logged
/// out is never written back by a refresh that finished later.
actor CLIStore: TokenStorage {
    struct Profile: Codable {
        var version = 1
        var provider: ProviderID
        /// Set in files written by earlier auth-cli versions for a session with their embedded test identity provider
        /// (gone since): such a session is refused, so its test client id and tokens never reach a real endpoint.
        var embedded: Bool?
        var configuration: [String: JSONValue]
        var credentials: [Credential] = []
    }

    let url: URL
    private var profile: Profile
    /// Whether this store was opened from an existing file (then a write may only replace a credential still there).
    private let opened: Bool
    /// Whether this process is inside ``withExclusiveAccess(to:_:)`` (so writes must not take the lock again: a
    /// second `flock` on another descriptor of the same file would wait for ourselves).
    private var holdsLock = false

    /// A store that will write `profile` to `url`.
    init(url: URL, provider: ProviderID, configuration: ProviderConfiguration) {
        self.url = url
        self.profile = Profile(provider: provider, configuration: configuration.values)
        self.opened = false
    }

    /// Opens an existing session file.
    init(opening url: URL) throws {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw AuthError(.notSignedIn, "No stored session at \(url.path); run `auth-cli login` first (or pass --store).")
        }
        profile = try Self.read(url)
        self.url = url
        self.opened = true
    }

    private static func read(_ url: URL) throws -> Profile {
        let profile: Profile
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .secondsSince1970
            profile = try decoder.decode(Profile.self, from: Data(contentsOf: url))
        } catch {
            throw AuthError(.storageCorrupted, "The session file \(url.path) is unreadable; delete it and log in again.")
        }
        // Out-of-range dates (a hostile server's expiry, a hand-edited file) are a typed error, never a trap later.
        for credential in profile.credentials { _ = try credential.validatedForUse() }
        return profile
    }

    private var lock: FileLock { FileLock(url: url.appendingPathExtension("lock")) }

    var providerID: ProviderID { profile.provider }
    /// Whether the file holds a session of an earlier auth-cli's embedded test identity provider.
    var isFromEmbeddedTestProvider: Bool { profile.embedded == true }
    var configuration: ProviderConfiguration { ProviderConfiguration(profile.configuration) }

    /// The credential as the file holds it now: another auth-cli may have refreshed or logged out since this one
    /// opened it.
    func credential(for key: StorageKey) throws -> Credential? {
        profile = try currentProfile()
        return profile.credentials.first { $0.storageKey == key }
    }

    /// The profile to read or change now. A login writes its own new profile; a store opened from a file follows
    /// that file as it is on disk (deleted: nothing is signed in any more).
    private func currentProfile() throws -> Profile {
        guard opened else { return profile }
        if FileManager.default.fileExists(atPath: url.path) { return try Self.read(url) }
        var empty = profile
        empty.credentials = []
        return empty
    }

    /// Holds the session file's lock while the engine reads, refreshes and writes, so concurrent auth-cli processes
    /// never redeem the same rotating refresh token twice: the second one finds the first one's tokens.
    func withExclusiveAccess<T: Sendable>(to key: StorageKey, _ body: @Sendable () async throws -> T) async throws -> T {
        try createDirectory()
        return try await lock.withLock(wait: .seconds(30)) {
            holdsLock = true
            defer { holdsLock = false }
            return try await body()
        }
    }

    func store(_ credential: Credential, for key: StorageKey) async throws {
        try await lockedUpdate { profile in
            if opened {
                guard profile.credentials.contains(where: { $0.storageKey == key }) else {
                    throw AuthError(
                        .notSignedIn,
                        "The session in \(url.path) was logged out by another auth-cli while this one refreshed; the new tokens were not stored. Run `auth-cli login`."
                    )
                }
            }
            profile.credentials.removeAll { $0.storageKey == key }
            profile.credentials.append(credential)
        }
    }

    /// Replaces the stored configuration (a registration read or updated by `auth-cli registration`), under the lock.
    func replaceConfiguration(_ configuration: [String: JSONValue]) async throws {
        try await lockedUpdate { profile in profile.configuration = configuration }
    }

    func removeCredential(for key: StorageKey) async throws {
        try await lockedUpdate { profile in profile.credentials.removeAll { $0.storageKey == key } }
    }

    /// Applies `change` to the file as it is on disk now (not as this process first read it), under the lock.
    private func lockedUpdate(_ change: (inout Profile) throws -> Void) async throws {
        try createDirectory()
        if holdsLock {
            try apply(change)
        } else {
            try await lock.withLock { try apply(change) }
        }
    }

    /// Applies `change` to the profile as it is now and writes it.
    private func apply(_ change: (inout Profile) throws -> Void) throws {
        var current = try currentProfile()
        try change(&current)
        profile = current
        try save()
    }

    func storedKeys() throws -> [StorageKey] {
        profile = try currentProfile()
        return profile.credentials.map(\.storageKey)
    }

    private func createDirectory() throws {
        try FileLock.createDirectory(url.deletingLastPathComponent())
    }

    private func save() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        try AtomicFile.write(try encoder.encode(profile), to: url)
    }
}
