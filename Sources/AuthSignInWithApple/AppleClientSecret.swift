public import AuthCore
public import Foundation

/// Sign in with Apple's client secret: an ES256 JWT signed with the team's Sign in with Apple private key (the `.p8`
/// file, PKCS#8 PEM), generated here, reused while it is fresh and renewed before it expires.
///
/// Apple wants no static secret: every token, refresh and revocation request carries a JWT whose header names the key
/// (`alg` ES256, `kid` the key id) and whose claims are `iss` the team id, `iat`, `exp` (at most 15777000 s, six
/// months, after `iat`), `aud` `https://appleid.apple.com` and `sub` the client id (the Services ID on the web, the
/// bundle id in an app)
/// ("Creating the client secret" in https://developer.apple.com/documentation/sign_in_with_apple/generate_and_validate_tokens).
///
/// The secret is made for ``lifetime`` (default one day, far under Apple's limit, so a leaked one is short-lived) and
/// renewed once less than a quarter of it is left, against the injected clock. Reading it is synchronous and
/// lock-protected (``SignInWithAppleProvider/client`` is a synchronous property, read by every request that
/// authenticates the client); signing happens at most once per renewal. The key and the secret never appear in a
/// description.
public final class AppleClientSecret: Sendable, CustomStringConvertible {
    /// Apple's limit on `exp - iat`: 15777000 seconds (six months).
    public static let maximumLifetime: TimeInterval = 15_777_000
    /// The default lifetime of a generated secret: one day.
    public static let defaultLifetime: TimeInterval = 86_400
    /// `https://appleid.apple.com`, the `aud` Apple requires whatever issuer the provider talks to.
    public static let audience = "https://appleid.apple.com"

    /// The Apple Developer team id (`iss`).
    public let teamID: String
    /// The private key's id (`kid`).
    public let keyID: String
    /// The client id (`sub`).
    public let clientID: String
    /// How long each generated secret is valid.
    public let lifetime: TimeInterval
    /// The `aud` claim (Apple's issuer; an emulator's own only in tests of a foreign audience).
    public let audience: String

    private let key: ClientSigningKey
    private let clock: any WallClock
    private let cached = LockedValue<(secret: Secret, issuedAt: Date, expiresAt: Date)?>(nil)

    /// Creates a generator from the `.p8` key's PEM text.
    ///
    /// - Throws: `invalid_configuration` when the PEM is not a P-256 private key, when an identifier is empty, or when
    ///   `lifetime` is not between one minute and Apple's six-month limit.
    public init(
        teamID: String,
        keyID: String,
        clientID: String,
        privateKeyPEM: String,
        lifetime: TimeInterval = AppleClientSecret.defaultLifetime,
        audience: String = AppleClientSecret.audience,
        clock: any WallClock = SystemWallClock()
    ) throws {
        guard lifetime >= 60, lifetime <= Self.maximumLifetime else {
            throw AuthError(
                .invalidConfiguration,
                "client_secret_lifetime must be between 60 and \(Int(Self.maximumLifetime)) seconds (Apple refuses a client secret valid for more than six months).",
                providerID: "apple", configurationKey: "client_secret_lifetime"
            )
        }
        for (name, value) in [("team_id", teamID), ("key_id", keyID), ("client_id", clientID)] where value.isEmpty {
            throw AuthError(.missingConfigurationKey, "The configuration key '\(name)' is missing or empty.", providerID: "apple", configurationKey: name)
        }
        do {
            key = try ClientSigningKey(pem: privateKeyPEM, algorithm: .es256, keyID: keyID)
        } catch {
            throw AuthError(
                .invalidConfiguration,
                "The Sign in with Apple private key is not a P-256 private key in PEM form (the .p8 file from the Apple Developer account).",
                providerID: "apple", configurationKey: "private_key"
            )
        }
        self.teamID = teamID
        self.keyID = keyID
        self.clientID = clientID
        self.lifetime = lifetime
        self.audience = audience
        self.clock = clock
    }

    /// The current secret: the cached one while more than a quarter of its lifetime is left (and the clock has not
    /// gone back before it was issued), else a new one.
    public func current() -> Secret {
        let now = clock.now()
        return cached.withLock { cached in
            if let cached, now >= cached.issuedAt, cached.expiresAt.timeIntervalSince(now) > lifetime / 4 { return cached.secret }
            let fresh = make(now: now)
            cached = fresh
            return fresh.secret
        }
    }

    /// When the secret ``current()`` last returned expires (`nil` before the first).
    public var currentExpiry: Date? { cached.withLock { $0?.expiresAt } }

    /// Signs a new secret issued at `now`.
    private func make(now: Date) -> (secret: Secret, issuedAt: Date, expiresAt: Date) {
        let issuedAt = now.timeIntervalSince1970.rounded(.down)
        let expiresAt = issuedAt + lifetime.rounded(.down)
        let claims: [String: JSONValue] = [
            "iss": .string(teamID), "iat": .number(issuedAt), "exp": .number(expiresAt),
            "aud": .string(audience), "sub": .string(clientID)
        ]
        // Signing with a P-256 key that parsed cannot fail; an empty secret would only be refused by Apple.
        let jwt = (try? key.signedJWT(type: "JWT", claims: claims)) ?? ""
        return (Secret(jwt), Date(timeIntervalSince1970: issuedAt), Date(timeIntervalSince1970: expiresAt))
    }

    /// `AppleClientSecret(team …, kid …, client …)`: never the key or a secret.
    public var description: String { "AppleClientSecret(team \(teamID), kid \(keyID), client \(clientID))" }
}
