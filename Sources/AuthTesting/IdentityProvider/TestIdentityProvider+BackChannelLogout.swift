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
            "events": .object([AuthClient.backChannelLogoutEvent: .object([:])]),
        ]
        if let subject { claims["sub"] = .string(subject) }
        if let sessionID { claims["sid"] = .string(sessionID) }
        claims.merge(overrides) { _, override in override }
        for name in removals { claims[name] = nil }
        let keys = TestSigningKeys.primary
        let header: [String: JSONValue] = ["alg": .string(algorithm.rawValue), "kid": .string(keys.keyID(for: algorithm)), "typ": "logout+jwt"]
        return TestJWT.make(header: header, claims: claims) { keys.sign($0, algorithm: algorithm) }
    }
}
