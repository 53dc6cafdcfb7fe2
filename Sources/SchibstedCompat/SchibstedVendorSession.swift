import AuthAppSupport
import AuthCore
import AuthSchibsted
import Foundation

/// The session account-sdk-ios-web stored, in the vendor's own format, read here so users of apps still on the
/// vendor SDK — or of this app before it switched — stay signed in. Another app's item is never refreshed or
/// rewritten here, as the vendor SDK never does; only this app's own session is written in this format
/// (``sharedItem(for:claims:)``), for simplified login.
///
/// The vendor keeps one Keychain generic password per app: service `com.schibsted.account`, account = the app's
/// client id, in the access group `<appIdentifierPrefix>.com.schibsted.simplifiedLogin` when apps share sessions.
/// The value is `JSONEncoder` output of its `UserSession` (dates as seconds since 2001-01-01, Foundation's default):
/// - 6.x: `{"userTokens": {"accessToken", "refreshToken", "idTokenClaims": {…}, "expiration"?}, "updatedAt"}`;
/// - 5.x: `{"clientId", "userTokens": {"accessToken", "refreshToken"?, "idToken", "idTokenClaims": {…}}, "updatedAt"}`;
/// `idTokenClaims` holds `iss`, `sub`, `legacy_user_id`, `aud`, `exp`, `nonce`, `amr`.
///
/// Platform-neutral, so it is tested on Linux with fixtures in both formats.
struct SchibstedVendorSession: Sendable, CustomReflectable {
    /// The vendor's Keychain service.
    static let service = "com.schibsted.account"
    /// The access group the vendor's apps share sessions in, for an app identifier prefix (team id).
    static func sharedAccessGroup(appIdentifierPrefix: String) -> String {
        "\(appIdentifierPrefix).com.schibsted.simplifiedLogin"
    }

    /// The client id the session belongs to (the item's account).
    let clientID: String
    let accessToken: Secret
    let refreshToken: Secret?
    /// Only 5.x kept the ID token itself.
    let idToken: Secret?
    let issuer: String
    let subject: String
    let legacyUserID: String?
    /// 6.x only; 5.x did not store it.
    let expiresAt: Date?
    let updatedAt: Date

    /// The raw document holds the tokens in the clear: a `dump` or `print` shows only the non-secret fields.
    var customMirror: Mirror {
        Mirror(self, children: ["clientID": clientID, "issuer": issuer, "subject": subject, "updatedAt": updatedAt], displayStyle: .struct)
    }

    /// Decodes one item.
    ///
    /// - Throws: `storage_corrupted` for anything that is not the vendor's `UserSession` JSON.
    init(account: String, data: Data) throws {
        let corrupted = AuthError(.storageCorrupted, "A Schibsted account SDK session in the Keychain is not its UserSession JSON.", providerID: SchibstedProvider.id)
        guard let document = try? JSONValue.parseObject(data),
            let tokens = document["userTokens"]?.objectValue,
            let accessToken = tokens["accessToken"]?.stringValue, !accessToken.isEmpty,
            let claims = tokens["idTokenClaims"]?.objectValue,
            let issuer = claims["iss"]?.stringValue, let subject = claims["sub"]?.stringValue,
            let updatedAt = document["updatedAt"]?.numberValue.flatMap(Self.date(referenceSeconds:))
        else { throw corrupted }
        let expiration = tokens["expiration"]?.numberValue
        if tokens["expiration"] != nil, tokens["expiration"] != .null, expiration.flatMap(Self.date(referenceSeconds:)) == nil {
            throw corrupted
        }
        self.clientID = document["clientId"]?.stringValue ?? account
        self.accessToken = Secret(accessToken)
        self.refreshToken = tokens["refreshToken"]?.stringValue.flatMap { $0.isEmpty ? nil : Secret($0) }
        self.idToken = tokens["idToken"]?.stringValue.flatMap { $0.isEmpty ? nil : Secret($0) }
        self.issuer = issuer
        self.subject = subject
        self.legacyUserID = claims["legacy_user_id"]?.stringValue
        self.expiresAt = expiration.flatMap(Self.date(referenceSeconds:))
        self.updatedAt = updatedAt
    }

    /// The session as this package's credential for `clientID` under `issuer` (the configured spelling).
    func credential(issuer: String, now: Date) -> Credential {
        var credential = Credential(
            providerID: SchibstedProvider.id, issuer: issuer, clientID: clientID, subject: subject,
            accessToken: accessToken, tokenType: "Bearer", refreshToken: refreshToken, idToken: idToken,
            expiresAt: expiresAt, scopes: ["openid", "offline_access"], updatedAt: now
        )
        if let legacyUserID { credential.annotations = [SchibstedUser.legacyUserIDAnnotation: legacyUserID] }
        return credential
    }

    /// This app's own session as an item both vendor SDKs decode, for the vendor's apps to offer in simplified
    /// login: 5.x's fields (`clientId`, `idToken`) and 6.x's (`expiration`) together, which each one's `Codable`
    /// `UserSession` reads (unknown keys are ignored). `nil` when a field either requires is missing — the refresh
    /// token, the ID token, or its `legacy_user_id`, `aud` and `exp` — since one undecodable item makes 6.x's
    /// `getSharedUser` fail for every app.
    ///
    /// `updatedAt` is when this app obtained the tokens (the credential's `updatedAt`: its sign-in or last refresh),
    /// as both vendor SDKs stamp it only when they store new tokens; the vendor's apps offer the newest item first
    /// (S5 `getLatestSession`, S6 `getSharedUser`), so merely opening this app never puts its account ahead of one
    /// the user signed in to elsewhere later.
    static func sharedItem(for credential: Credential, claims: IDTokenClaims?) -> Data? {
        guard let refreshToken = credential.refreshToken, let idToken = credential.idToken, let claims,
            !claims.audience.isEmpty, !credential.accessToken.reveal().isEmpty
        else { return nil }
        let legacyUserID: String
        switch claims["legacy_user_id"] {
        case .string(let value): legacyUserID = value
        case .number(let value):
            guard let integer = JSONValue.number(value).int64Value else { return nil }
            legacyUserID = String(integer)
        default: return nil
        }
        var idTokenClaims: [String: JSONValue] = [
            "iss": .string(claims.issuer), "sub": .string(claims.subject), "legacy_user_id": .string(legacyUserID),
            "aud": .array(claims.audience.map(JSONValue.string)), "exp": .number(claims.expiration.timeIntervalSince1970)
        ]
        if let nonce = claims.nonce { idTokenClaims["nonce"] = .string(nonce) }
        if claims["amr"] != nil { idTokenClaims["amr"] = .array(claims.authenticationMethods.map(JSONValue.string)) }
        var tokens: [String: JSONValue] = [
            "accessToken": .string(credential.accessToken.reveal()), "refreshToken": .string(refreshToken.reveal()),
            "idToken": .string(idToken.reveal()), "idTokenClaims": .object(idTokenClaims)
        ]
        if let expiresAt = credential.expiresAt { tokens["expiration"] = .number(expiresAt.timeIntervalSinceReferenceDate) }
        let session: [String: JSONValue] = [
            "clientId": .string(credential.clientID), "userTokens": .object(tokens),
            "updatedAt": .number(credential.updatedAt.timeIntervalSinceReferenceDate)
        ]
        return try? JSONValue.object(session).jsonData()
    }

    /// The newest session in `items` (account → data) whose issuer is `issuer` ignoring a trailing `/`, as the
    /// vendor picks the session to offer; unreadable items are skipped.
    static func newest(in items: [String: Data], issuer: String) -> SchibstedVendorSession? {
        let policy = IDTokenPolicy(issuerComparison: .ignoringTrailingSlash)
        return items.compactMap { try? SchibstedVendorSession(account: $0.key, data: $0.value) }
            .filter { policy.issuerMatches($0.issuer, expected: issuer) }
            .max { $0.updatedAt < $1.updatedAt }
    }

    /// Foundation's default `JSONEncoder` date form, bounded so a corrupt value cannot trap later.
    private static func date(referenceSeconds seconds: Double) -> Date? {
        guard seconds.isFinite else { return nil }
        let date = Date(timeIntervalSinceReferenceDate: seconds)
        return date.isWithinTimestampRange ? date : nil
    }
}
