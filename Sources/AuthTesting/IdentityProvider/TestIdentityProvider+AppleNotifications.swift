import AuthCore
import Foundation

extension TestIdentityProvider {
    /// What an account notification is made wrong with, for hostile tests.
    public enum AppleNotificationFault: String, Sendable, CaseIterable {
        /// The signature does not verify (one byte of it changed).
        case badSignature = "bad-signature"
        /// `aud` names another client.
        case wrongAudience = "wrong-aud"
        /// `iss` names another issuer.
        case wrongIssuer = "wrong-iss"
        /// `events` is a JSON object, not the JSON string Apple sends.
        case eventsObject = "events-object"
    }

    /// The `payload` JWT of a Sign in with Apple server-to-server notification, as Apple POSTs it
    /// (`{"payload": "<JWT>"}`) to the app's registered endpoint: signed with this provider's ID token key, `iss` the
    /// issuer, `aud` the client, `iat`, `exp`, a fresh `jti`, and `events` a JSON *string* holding `type`, `sub`,
    /// `event_time` (milliseconds) and, for the email events, `email` and `is_private_email` (strings `"true"` /
    /// `"false"`) — "Processing changes for Sign in with Apple accounts"
    /// (https://developer.apple.com/documentation/signinwithapple/processing-changes-for-sign-in-with-apple-accounts),
    /// with `events` sent as a string as Apple does (https://developer.apple.com/forums/thread/655485).
    ///
    /// - Parameters:
    ///   - type: the event type (`email-disabled`, `email-enabled`, `consent-revoked`, `account-delete`, or anything
    ///     else for a hostile test).
    ///   - user: whose account changed.
    ///   - clientID: the `aud`.
    ///   - fault: what to make wrong, if anything.
    public func appleNotification(type: String, user: User, clientID: String, fault: AppleNotificationFault? = nil) -> String {
        let algorithm = configuration.signingAlgorithm
        let now = clock.now().timeIntervalSince1970.rounded(.down)
        var event: [String: JSONValue] = ["type": .string(type), "sub": .string(user.subject), "event_time": .number(now * 1000)]
        if type.hasPrefix("email-") {
            event["email"] = user.claims["email"] ?? .null
            event["is_private_email"] = user.claims["is_private_email"] ?? "false"
        }
        let eventsText = String(decoding: (try? JSONValue.object(event).jsonData()) ?? Data(), as: UTF8.self)
        var claims: [String: JSONValue] = [
            "iss": .string(configuration.issuer.absoluteString), "aud": .string(clientID), "iat": .number(now),
            "exp": .number(now + 86_400), "jti": .string(SecureRandom.token()), "events": .string(eventsText)
        ]
        switch fault {
        case .wrongAudience?: claims["aud"] = "com.example.someone-else"
        case .wrongIssuer?: claims["iss"] = "https://appleid.example.net"
        case .eventsObject?: claims["events"] = .object(event)
        default: break
        }
        let keys = TestSigningKeys.primary
        let header: [String: JSONValue] = ["alg": .string(algorithm.rawValue), "kid": .string(keys.keyID(for: algorithm))]
        let token = TestJWT.make(header: header, claims: claims) { keys.sign($0, algorithm: algorithm) }
        guard fault == .badSignature, let dot = token.lastIndex(of: ".") else { return token }
        // Another signature of the same length: the last base64url character of the signature before its final one
        // changed (the final one may carry padding bits only).
        var signature = Array(token[token.index(after: dot)...])
        let index = signature.count - 2
        signature[index] = signature[index] == "A" ? "B" : "A"
        return String(token[...dot]) + String(signature)
    }
}
