import AuthAppSupport
import AuthCore
import AuthOneLogin
import Foundation

/// The session OneLogin's OLOidc SDK stored, read once into this package's storage: a Keychain generic password with
/// account `ol-oidc-authState-<clientId>` (no service) holding AppAuth's `OIDAuthState` archived with
/// `NSKeyedArchiver` — `refreshToken`, `scope` and `lastTokenResponse`, an `OIDTokenResponse` whose fields are archived
/// under `access_token`, `expires_in` (the expiry date), `token_type`, `id_token`, `refresh_token`, `scope`.
///
/// Platform-neutral: read with AuthCore's keyed-archive reader and tested on Linux with fixtures in that format.
enum OLOidcVendorSession {
    /// The vendor's Keychain account for `clientId`.
    static func account(clientId: String) -> String { "ol-oidc-authState-" + clientId }

    /// The vendor's session as a credential, or `nil` when it left none (or one without an access token).
    ///
    /// - Throws: `storage_corrupted` for an item that is not an archived `OIDAuthState`.
    static func credential(for configuration: OneLoginConfiguration, issuer: String, from store: any VendorStore, now: Date) async throws -> Credential? {
        guard let data = try await store.genericPassword(service: nil, account: account(clientId: configuration.clientId)) else { return nil }
        let state = try KeyedArchive(data)
        guard state.className == "OIDAuthState" else {
            throw AuthError(.storageCorrupted, "OLOidc's stored session is not an archived OIDAuthState.", providerID: OneLoginProvider.id)
        }
        guard let response = state.object("lastTokenResponse"), let accessToken = response.string("access_token"), !accessToken.isEmpty else { return nil }
        let idToken = response.string("id_token").flatMap { $0.isEmpty ? nil : Secret($0) }
        // The vendor's AppAuth validated this ID token when it arrived; its subject keys the account.
        let subject = idToken.flatMap { try? CompactJWS(parsing: $0.reveal()) }
            .flatMap { try? JSONValue.parseObject($0.payload) }?["sub"]?.stringValue
        let refreshToken = (state.string("refreshToken") ?? response.string("refresh_token")).flatMap { $0.isEmpty ? nil : Secret($0) }
        let scope = state.string("scope") ?? response.string("scope")
        let tokenType = response.string("token_type").map { $0.lowercased() == "bearer" ? "Bearer" : $0 } ?? "Bearer"
        return Credential(
            providerID: OneLoginProvider.id, issuer: issuer, clientID: configuration.clientId, subject: subject,
            accessToken: Secret(accessToken), tokenType: tokenType, refreshToken: refreshToken, idToken: idToken,
            expiresAt: response.date("expires_in"), scopes: scope.map { $0.split(separator: " ").map(String.init) } ?? configuration.scopes,
            updatedAt: now
        )
    }

    /// Deletes the vendor's item.
    static func remove(for configuration: OneLoginConfiguration, from store: any VendorStore) async throws {
        try await store.removeGenericPassword(service: nil, account: account(clientId: configuration.clientId))
    }
}
