public import Foundation

/// A signed-in user's tokens as stored between launches.
public struct Credential: Sendable, Codable, Hashable {
    /// The provider.
    public var providerID: ProviderID
    /// The issuer that issued the tokens.
    public var issuer: String
    /// The client id.
    public var clientID: String
    /// The user's subject, when an ID token identified them.
    public var subject: String?
    /// The access token.
    public var accessToken: Secret
    /// The token type (`Bearer`).
    public var tokenType: String
    /// The refresh token, when one was issued.
    public var refreshToken: Secret?
    /// The latest ID token, when one was issued.
    public var idToken: Secret?
    /// When the access token expires, when known.
    public var expiresAt: Date?
    /// The granted scopes.
    public var scopes: [String]
    /// When this credential was last written.
    public var updatedAt: Date
    /// Small provider-specific values about these tokens, kept with them so they survive a relaunch (Grab's
    /// verified ID token info). Never secrets. They belong to the ID token they were written with: a refresh that
    /// brings a new ID token drops them.
    public var annotations: [String: String]?
    /// What the provider said about the user beyond the ID token (``ProviderIdentity/profile``: GitHub's login and
    /// verified email, the name Apple sends only once). Never secrets. Kept across refreshes.
    public var profile: [String: String]?
    /// The key the tokens are bound to when ``tokenType`` is `DPoP` (RFC 9449); every request with them carries a
    /// proof signed by it, and a refresh keeps it.
    package var dpopKey: DPoPKey?
    /// The OpenID Connect Native SSO device secret (§3.2) that came with these tokens, bound to ``idToken`` by its
    /// `ds_hash`; AuthTokenExchange copies it to the app family's shared store. `nil` without the `device_sso` scope.
    package var deviceSecret: Secret?
    /// The account the credential is stored under instead of its ``subject``, when the sign-in named one
    /// (``SignInOptions/accountName``: one credential per web session, or a provider without ID tokens).
    public var accountName: String?
    /// When a refresh of this credential's refresh token was sent whose answer was never stored: written just before
    /// the request (so a process killed while it is in flight leaves it too), kept when the answer may have been lost (a
    /// network failure, a timeout, an unreadable success), withdrawn when the provider answered without carrying the
    /// refresh out. The provider may already have rotated the token: the next refresh presents it anyway, and an
    /// `invalid_grant` then signs out with ``AuthEvent/SignOutReason/refreshAnswerLost``. `nil` otherwise.
    package var refreshPendingSince: Date?
    /// The stored format this credential was written in: `nil` for the unversioned encodings of the first releases
    /// (every field since added is optional, so they all decode), ``currentFormat`` for what this version writes. A
    /// credential written by a newer version than this one reads is refused as `storage_corrupted`, never deleted.
    package var format: Int? = Credential.currentFormat
    /// The format this version writes: 2 (explicit `format`, and `refreshPendingSince`).
    package static let currentFormat = 2

    /// Creates a credential.
    public init(
        providerID: ProviderID,
        issuer: String,
        clientID: String,
        subject: String?,
        accessToken: Secret,
        tokenType: String = "Bearer",
        refreshToken: Secret? = nil,
        idToken: Secret? = nil,
        expiresAt: Date? = nil,
        scopes: [String] = [],
        updatedAt: Date
    ) {
        self.providerID = providerID
        self.issuer = issuer
        self.clientID = clientID
        self.subject = subject
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.expiresAt = expiresAt
        self.scopes = scopes
        self.updatedAt = updatedAt
    }

    /// Creates a credential bound to `dpopKey` (the engine's sign-in, refresh and import paths; the key never
    /// leaves the package).
    package init(
        providerID: ProviderID,
        issuer: String,
        clientID: String,
        subject: String?,
        accessToken: Secret,
        tokenType: String = "Bearer",
        refreshToken: Secret? = nil,
        idToken: Secret? = nil,
        expiresAt: Date? = nil,
        scopes: [String] = [],
        updatedAt: Date,
        dpopKey: DPoPKey?
    ) {
        self.init(
            providerID: providerID,
            issuer: issuer,
            clientID: clientID,
            subject: subject,
            accessToken: accessToken,
            tokenType: tokenType,
            refreshToken: refreshToken,
            idToken: idToken,
            expiresAt: expiresAt,
            scopes: scopes,
            updatedAt: updatedAt
        )
        self.dpopKey = dpopKey
    }

    /// The storage key for this credential: its account is the account name, else the subject. Public because an app
    /// that lists ``AuthClient/accounts()`` needs it to name the account it restores
    /// (``AuthClient/restoreSession(key:)``).
    public var storageKey: StorageKey {
        StorageKey(providerID: providerID, issuer: issuer, clientID: clientID, account: accountName ?? subject ?? "default")
    }

    /// Checks the values a corrupted or tampered store could make dangerous: dates outside the epoch … year 9999
    /// (a later conversion could trap) and an empty access token.
    ///
    /// Every storage read by the engine goes through this, so an out-of-range file loads as a typed error.
    ///
    /// - Throws: `storage_corrupted` naming the field.
    package func validatedForUse() throws -> Credential {
        if let format, format > Self.currentFormat {
            throw AuthError(
                .storageCorrupted,
                "The stored credential was written by a newer version of swift-auth-providers (format \(format); this version reads up to "
                    + "\(Self.currentFormat)); update the app, or sign in again to replace it.",
                providerID: providerID
            )
        }
        guard updatedAt.isWithinTimestampRange else {
            throw AuthError(.storageCorrupted, "The stored credential's 'updatedAt' is out of range; sign in again to replace it.", providerID: providerID)
        }
        if let expiresAt, !expiresAt.isWithinTimestampRange {
            throw AuthError(.storageCorrupted, "The stored credential's 'expiresAt' is out of range; sign in again to replace it.", providerID: providerID)
        }
        guard !accessToken.isEmpty else {
            throw AuthError(.storageCorrupted, "The stored credential has an empty access token; sign in again to replace it.", providerID: providerID)
        }
        guard (tokenType == "DPoP") == (dpopKey != nil) else {
            throw AuthError(
                .storageCorrupted,
                tokenType == "DPoP"
                    ? "The stored credential holds a DPoP-bound token but no DPoP key; sign in again to replace it."
                    : "The stored credential has a DPoP key but a '\(tokenType)' token; sign in again to replace it.",
                providerID: providerID
            )
        }
        return self
    }

    /// Whether the access token expires within `margin` seconds of `now` (unknown expiry counts as valid).
    ///
    /// Package-only: whether to refresh is the engine's decision (with ``AuthClient/Options/refreshMargin``); an app
    /// asks `Session.validAccessToken()`, which refreshes when this says so.
    package func isExpired(at now: Date, margin: TimeInterval = 0) -> Bool {
        guard let expiresAt else { return false }
        return expiresAt.timeIntervalSince(now) <= margin
    }
}
