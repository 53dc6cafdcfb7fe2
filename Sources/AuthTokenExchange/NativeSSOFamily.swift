public import AuthCore
import Foundation

/// An app family's shared sign-in, as OpenID Connect Native SSO for Mobile Apps 1.0 (draft 07) defines it: the first
/// app signs in with the `device_sso` scope (§3.1) and gets a `device_secret` (§3.2) beside its tokens; the family's
/// other apps present that secret and the ID token to the token endpoint (a token exchange, §4) and are signed in
/// with no browser.
///
/// The device secret and the ID token live in `storage`, a `TokenStorage` every app of the family can read: on
/// Apple platforms a Keychain storage with the family's shared access group (AuthAppSupport's Keychain storage), on
/// Linux a file or Secret Service store the family's processes share. The secret is a `Secret`: it is never logged
/// or printed.
///
/// ```swift
/// let family = NativeSSOFamily(name: "com.example.suite", storage: sharedStorage)
/// // The first app, signed in with scopes including NativeSSOFamily.scope:
/// try await family.share(session)
/// // Another app of the family, with its own client id:
/// let session = try await family.signIn(with: client)
/// ```
public struct NativeSSOFamily: Sendable {
    /// The scope that asks for a device secret (Native SSO §3.1).
    public static let scope = "device_sso"

    /// The family's name: one shared sign-in per family and issuer in ``storage``.
    public let name: String
    /// The storage the family's apps share.
    public let storage: any TokenStorage

    /// A family named `name` whose apps share `storage`.
    public init(name: String, storage: any TokenStorage) {
        self.name = name
        self.storage = storage
    }

    /// The storage key of the family's shared sign-in at `issuer`.
    func key(issuer: String) -> StorageKey {
        StorageKey(providerID: "native-sso", issuer: issuer, clientID: name, account: "device-secret")
    }

    /// Shares `session`'s sign-in with the family: its device secret (checked against the ID token's `ds_hash` when
    /// it was issued) and its ID token, written to ``storage``.
    ///
    /// - Returns: `false` when the session has no device secret (the sign-in did not ask for ``scope``, or the
    ///   provider issued none): nothing is written then.
    /// - Throws: storage errors.
    @discardableResult
    public func share(_ session: Session) async throws -> Bool {
        let credential = await session.credential
        guard let deviceSecret = credential.deviceSecret, let idToken = credential.idToken else { return false }
        var record = Credential(
            providerID: "native-sso", issuer: credential.issuer, clientID: name, subject: credential.subject, accessToken: deviceSecret,
            tokenType: "Bearer", refreshToken: nil, idToken: idToken, expiresAt: nil, scopes: [Self.scope], updatedAt: session.client.clock.now())
        record.deviceSecret = deviceSecret
        record.accountName = "device-secret"
        record.annotations = ["native_sso_family": name, "shared_by": credential.clientID]
        try await storage.store(record, for: key(issuer: credential.issuer))
        session.client.log(.info, "native_sso.shared", "The sign-in was shared with the app family.", ["family": name])
        return true
    }

    /// Whether the family holds a shared sign-in at `issuer`.
    public func hasSharedSignIn(issuer: String) async throws -> Bool {
        try await storage.credential(for: key(issuer: issuer)) != nil
    }

    /// Signs `session` out; with `endingFamilySession`, the whole family's: the shared device secret is removed from
    /// ``storage`` (no app of the family can sign in with it again) and the session's tokens are revoked where the
    /// provider supports revocation, which ends the provider's session the device secret belongs to on servers that
    /// tie them (Native SSO §4.3: a device secret whose session ended is refused with `invalid_grant`).
    ///
    /// - Returns: the session's sign-out report.
    /// - Throws: storage errors while removing the shared secret (the session is signed out first).
    @discardableResult
    public func signOut(_ session: Session, endingFamilySession: Bool, revokingTokens: Bool = true) async throws -> Session.SignOutReport {
        let issuer = await session.credential.issuer
        let report = try await session.signOut(revokingTokens: revokingTokens || endingFamilySession)
        if endingFamilySession {
            try await storage.removeCredential(for: key(issuer: issuer))
            session.client.log(.info, "native_sso.family_signed_out", "The app family's shared sign-in was removed.", ["family": name])
        }
        return report
    }
}
