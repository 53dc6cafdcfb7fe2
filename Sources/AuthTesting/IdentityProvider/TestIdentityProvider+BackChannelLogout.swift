public import AuthCore
import Foundation

extension TestIdentityProvider {
    /// A logout token (OpenID Connect Back-Channel Logout 1.0 §2.4) as this provider would POST it to a client's
    /// back-channel logout URI: signed with the primary key, `iss`, `aud` (the client), `iat`, a fresh `jti`, the
    /// back-channel logout event, and the given `sub` / `sid`; then `overrides` set and `removals` removed.
    public func logoutToken(
        subject: String?,
        sessionID: String? = nil,
        clientID: String = TestIdentityProvider.defaultClientID,
        overrides: [String: JSONValue] = [:],
        removals: Set<String> = []
    ) -> String {
        let algorithm = configuration.signingAlgorithm
        let now = clock.now().timeIntervalSince1970.rounded(.down)
        var claims: [String: JSONValue] = [
            "iss": .string(configuration.issuer.absoluteString), "aud": .string(clientID), "iat": .number(now),
            "exp": .number(now + 120), "jti": .string(SecureRandom.token()),
            "events": .object([AuthClient.backChannelLogoutEvent: .object([:])])
        ]
        if let subject { claims["sub"] = .string(subject) }
        if let sessionID { claims["sid"] = .string(sessionID) }
        claims.merge(overrides) { _, override in override }
        for name in removals { claims[name] = nil }
        let keys = TestSigningKeys.primary
        var header: [String: JSONValue] = ["alg": .string(algorithm.rawValue), "kid": .string(keys.keyID(for: algorithm)), "typ": "logout+jwt"]
        // A provider that leaves `typ` out of its ID tokens leaves it out of logout tokens too (GOV.UK One Login's
        // logout token has `kid` and `alg` only: its "Managing your users' sessions" page).
        for name in behavior.idTokenHeaderRemovals { header[name] = nil }
        return TestJWT.make(header: header, claims: claims) { keys.sign($0, algorithm: algorithm) }
    }
}
