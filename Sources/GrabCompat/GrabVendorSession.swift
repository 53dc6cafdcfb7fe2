import AuthAppSupport
import AuthCore
import AuthGrab
import Foundation

/// The session GrabIdPartnerSDK stored, read once into this package's storage (its `saveLoginSession`): tokens in
/// Keychain generic passwords — service = the client id, accounts `accessToken.<scope>`, `idToken.<scope>`,
/// `refreshToken.<scope>` (scope lower-cased), UTF-8 values — and the rest of the `LoginSession` archived with
/// `NSKeyedArchiver` in `UserDefaults` under `<client id>.<scope>`.
///
/// Platform-neutral: the archive is read with AuthCore's keyed-archive reader, so it is tested on Linux with fixtures
/// in the vendor's format.
enum GrabVendorSession {
    /// The vendor's key suffix: the configured scope, lower-cased.
    static func scopeKey(_ configuration: GrabConfiguration) -> String {
        configuration.scope.joined(separator: " ").lowercased()
    }

    /// The Grab configuration `client` was made for.
    static func configuration(of client: AuthClient) -> GrabConfiguration? {
        (client.provider as? GrabProvider)?.configuration
    }

    /// The vendor's `UserDefaults` key.
    static func defaultsKey(_ configuration: GrabConfiguration) -> String {
        "\(configuration.clientId).\(scopeKey(configuration))"
    }

    /// The vendor's Keychain account for a token (`accessToken`, `idToken`, `refreshToken`).
    static func account(_ token: String, _ configuration: GrabConfiguration) -> String {
        "\(token).\(scopeKey(configuration))"
    }

    /// The vendor's session as a credential, or `nil` when it left none — like the vendor's own restore, both the
    /// archived session and a non-empty access token must be there.
    ///
    /// - Throws: `storage_corrupted` for an archive that does not read as the vendor's `LoginSession`.
    static func credential(for configuration: GrabConfiguration, issuer: String, from store: any VendorStore, now: Date) async throws -> Credential? {
        guard let archived = await store.userDefaultsData(forKey: defaultsKey(configuration)) else { return nil }
        func token(_ name: String) async throws -> Secret? {
            guard let data = try await store.genericPassword(service: configuration.clientId, account: account(name, configuration)),
                let text = String(data: data, encoding: .utf8), !text.isEmpty
            else { return nil }
            return Secret(text)
        }
        guard let accessToken = try await token("accessToken") else { return nil }
        let archive = try KeyedArchive(archived)
        guard archive.className?.hasSuffix("LoginSession") == true else {
            throw AuthError(.storageCorrupted, "The GrabIdPartnerSDK session in UserDefaults is not an archived LoginSession.", providerID: GrabProvider.id)
        }
        let idToken = try await token("idToken")
        // The subject keys the account; the vendor never validated the token, and it is not validated here either (see
        // AuthClient.adoptVendorSession): Grab's verification endpoint checks it when getIdTokenInfo is called.
        let subject = idToken.flatMap { try? CompactJWS(parsing: $0.reveal()) }
            .flatMap { try? JSONValue.parseObject($0.payload) }?["sub"]?.stringValue
        var credential = Credential(
            providerID: GrabProvider.id, issuer: issuer, clientID: configuration.clientId, subject: subject,
            accessToken: accessToken, tokenType: archive.string("tokenType") ?? "Bearer", refreshToken: try await token("refreshToken"),
            idToken: idToken, expiresAt: archive.date("accessTokenExpiresAt"), scopes: configuration.scope, updatedAt: now
        )
        if credential.tokenType.lowercased() == "bearer" { credential.tokenType = "Bearer" }
        return credential
    }

    /// Deletes the vendor's items, as its `removeLoginSession` does.
    static func remove(for configuration: GrabConfiguration, from store: any VendorStore) async throws {
        for name in ["accessToken", "idToken", "refreshToken"] {
            try await store.removeGenericPassword(service: configuration.clientId, account: account(name, configuration))
        }
        await store.removeUserDefaultsValue(forKey: defaultsKey(configuration))
    }
}
