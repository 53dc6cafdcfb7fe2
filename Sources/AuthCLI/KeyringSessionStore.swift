import AuthProviders
import AuthSecretService
import Foundation

/// The ``TokenStorage`` auth-cli's engine uses for a keyring session: the Secret Service items of one account.
///
/// A sign-in (`profile` given) writes the account's profile before its credential. A store opened for an existing
/// account writes only while that account's credential is still there, so a refresh that ends after another
/// auth-cli logged the account out never brings it back; `removeCredential` also removes the profile.
actor KeyringSessionStore: TokenStorage {
    private let sessions: KeyringSessions
    /// The profile to write with a new sign-in's credential; `nil` for an existing account.
    private let profile: KeyringSessions.Profile?
    /// Whether this process is inside ``withExclusiveAccess(to:_:)``.
    private var holdsLock = false

    init(_ sessions: KeyringSessions, signingInWith profile: KeyringSessions.Profile? = nil) {
        self.sessions = sessions
        self.profile = profile
    }

    func credential(for key: StorageKey) async throws -> Credential? {
        try await sessions.credentials.credential(for: key)
    }

    func store(_ credential: Credential, for key: StorageKey) async throws {
        if let profile {
            try await sessions.saveProfile(profile, for: key)
            try await sessions.credentials.store(credential, for: key)
            return
        }
        let sessions = self.sessions
        try await exclusively(key) {
            guard try await sessions.credentials.credential(for: key) != nil else {
                throw AuthError(
                    .notSignedIn,
                    "This account was logged out by another auth-cli while this one refreshed; the new tokens were not stored. Run `auth-cli login`."
                )
            }
            try await sessions.credentials.store(credential, for: key)
        }
    }

    func removeCredential(for key: StorageKey) async throws {
        let sessions = self.sessions
        try await exclusively(key) {
            try await sessions.credentials.removeCredential(for: key)
            try await sessions.removeProfile(for: key)
        }
    }

    func storedKeys() async throws -> [StorageKey] {
        try await sessions.credentials.storedKeys()
    }

    func withExclusiveAccess<T: Sendable>(to key: StorageKey, _ body: @Sendable () async throws -> T) async throws -> T {
        try await sessions.credentials.withExclusiveAccess(to: key) {
            await self.setHoldsLock(true)
            do {
                let result = try await body()
                await self.setHoldsLock(false)
                return result
            } catch {
                await self.setHoldsLock(false)
                throw error
            }
        }
    }

    private func setHoldsLock(_ value: Bool) {
        holdsLock = value
    }

    /// Runs `body` under the account's lock unless this process holds it already (a second `flock` on another
    /// descriptor of the same file would wait for ourselves).
    private func exclusively(_ key: StorageKey, _ body: @Sendable () async throws -> Void) async throws {
        if holdsLock { return try await body() }
        try await self.sessions.credentials.withExclusiveAccess(to: key, body)
    }
}
