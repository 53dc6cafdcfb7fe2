import AuthAppSupport
import AuthCore
import AuthUber
import Foundation

/// The token UberAuth (uber-ios-sdk 2.x) stored, read once into this package's storage: a Keychain generic password
/// with service `com.uber.uber-ios-sdk` and account `UberAccessTokenKey` (its `TokenManager` default identifier),
/// holding `JSONEncoder` output of its `AccessToken`: `access_token`, `refresh_token`, `token_type`, `expires_in`
/// (seconds, relative to an unknown moment) and `scope` (an array of strings, or a space-separated string).
///
/// Platform-neutral, so it is tested on Linux with fixtures in the vendor's format.
enum UberVendorSession {
    /// The vendor's Keychain service.
    static let service = "com.uber.uber-ios-sdk"
    /// The vendor's default token identifier (the item's account).
    static let account = "UberAccessTokenKey"

    /// The vendor's token as a credential, or `nil` when there is none.
    ///
    /// The vendor stored `expires_in` without the time it was issued, so the expiry is unknown: the token is used
    /// until the API answers 401. UberAuth 2.x never refreshed a token (it has no refresh request at all; its user
    /// logged in again); here a 401 leads to one refresh with the stored refresh token, when there is one (Uber
    /// issues one only for `offline_access`); without one the 401 stands and the user must log in again.
    ///
    /// - Throws: `storage_corrupted` for an item that is not the vendor's JSON.
    static func credential(for configuration: UberConfiguration, issuer: String, from store: any VendorStore, now: Date) async throws -> Credential? {
        guard let data = try await store.genericPassword(service: service, account: account) else { return nil }
        guard let object = try? JSONValue.parseObject(data), let accessToken = object["access_token"]?.stringValue, !accessToken.isEmpty else {
            throw AuthError(.storageCorrupted, "UberAuth's stored token is not its AccessToken JSON.", providerID: UberProvider.id)
        }
        let scopes =
            object["scope"]?.arrayValue?.compactMap(\.stringValue)
            ?? object["scope"]?.stringValue?.split(separator: " ").map(String.init)
        let refreshToken = object["refresh_token"]?.stringValue.flatMap { $0.isEmpty ? nil : Secret($0) }
        return Credential(
            providerID: UberProvider.id, issuer: issuer, clientID: configuration.clientID, subject: nil,
            accessToken: Secret(accessToken), tokenType: "Bearer", refreshToken: refreshToken,
            expiresAt: nil, scopes: scopes ?? configuration.scopes, updatedAt: now
        )
    }

    /// Deletes the vendor's item.
    static func remove(from store: any VendorStore) async throws {
        try await store.removeGenericPassword(service: service, account: account)
    }
}
