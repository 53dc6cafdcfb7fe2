public import AuthCore
import Foundation

/// What ``AuthCore/AuthClient/adoptVendorSessionIfPresent(_:removingVendorCopy:)`` did.
public enum VendorSessionAdoption: Sendable, Equatable {
    /// The vendor's session was moved into storage and its copy deleted.
    case adopted
    /// There was nothing to adopt, or storage already had a session of this client: nothing to do again.
    case nothingToAdopt
    /// The issuer could not be learned (no network): try again later.
    case offline
    /// The vendor's items could not be read or moved; they were left in place and the failure logged.
    case unreadable
}

extension AuthClient {
    /// ``adoptVendorSession(_:removingVendorCopy:)`` for a facade's start-up: never throws — an unreadable vendor
    /// session is logged (`session.adoption_failed`, without its content) and left in place, so the user simply signs
    /// in again — and says whether trying again later can help (`offline`).
    public func adoptVendorSessionIfPresent(
        _ read: (_ issuer: String) async throws -> Credential?,
        removingVendorCopy remove: () async throws -> Void
    ) async -> VendorSessionAdoption {
        do {
            // Learned first, so "offline" is told apart from "nothing there".
            _ = try await knownIssuer()
        } catch let error as AuthError where Self.offlineCodes.contains(error.code) {
            return .offline
        } catch {
            log(.notice, "session.adoption_failed", "The vendor SDK's stored session could not be read; it was left in place.")
            return .unreadable
        }
        do {
            return try await adoptVendorSession(read, removingVendorCopy: remove) == nil ? .nothingToAdopt : .adopted
        } catch {
            log(.notice, "session.adoption_failed", "The vendor SDK's stored session could not be read; it was left in place.")
            return .unreadable
        }
    }

    /// Reads a session a vendor SDK left behind into this client's storage, once, so a user signed in with the vendor
    /// SDK stays signed in after the switch.
    ///
    /// Nothing happens when storage already holds a session of this client (the migration ran before, or the user
    /// signed in here). Otherwise `read` gets the issuer the credential must name and returns the vendor's session in
    /// this package's form, or `nil`; an adopted credential is stored first and only then is the vendor's copy removed,
    /// so a failure in between loses nothing. The vendor's tokens are trusted as the app's own storage is: they are
    /// not validated again (their ID token may be older than any `iat` window).
    ///
    /// - Parameters:
    ///   - read: decodes the vendor's stored items; throws `storage_corrupted` for items it cannot read.
    ///   - remove: deletes the vendor's items.
    /// - Returns: the adopted session, or `nil` when there was nothing to adopt.
    /// - Throws: what `read`, storage or `remove` throw. When the issuer needs the network and it is unreachable,
    ///   nothing is adopted and `nil` is returned; the next call tries again.
    public func adoptVendorSession(
        _ read: (_ issuer: String) async throws -> Credential?,
        removingVendorCopy remove: () async throws -> Void
    ) async throws -> Session? {
        let issuer: String
        do {
            issuer = try await knownIssuer()
        } catch let error as AuthError where Self.offlineCodes.contains(error.code) {
            return nil
        }
        if try await restoreSession() != nil { return nil }
        guard let credential = try await read(issuer)?.validatedForUse() else { return nil }
        guard credential.providerID == provider.id, credential.clientID == provider.client.clientID, credential.issuer == issuer else {
            throw AuthError(.invalidConfiguration, "A vendor session reader returned a credential for another provider, client or issuer.", providerID: provider.id)
        }
        try await store(credential)
        try await remove()
        log(.info, "session.adopted", "A session stored by the vendor's SDK was moved into this package's storage.")
        return try await restoreSession()
    }
}
