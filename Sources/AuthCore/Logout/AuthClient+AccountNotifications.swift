package import Foundation

/// A verified account notification: Sign in with Apple's server-to-server notification that one of its users changed
/// their account ("Processing changes for Sign in with Apple accounts",
/// https://developer.apple.com/documentation/signinwithapple/processing-changes-for-sign-in-with-apple-accounts).
package struct AccountNotification: Sendable, Equatable {
    /// What changed: the four event types Apple documents.
    package enum Kind: String, Sendable, CaseIterable {
        /// The user stopped email forwarding from their private relay address.
        case emailDisabled = "email-disabled"
        /// The user turned email forwarding from their private relay address back on.
        case emailEnabled = "email-enabled"
        /// The user stopped using Sign in with Apple with this app; their tokens are no longer valid.
        case consentRevoked = "consent-revoked"
        /// The user deleted their Apple Account.
        case accountDelete = "account-delete"

        /// Whether the event ends the user's sessions and credentials here.
        package var endsSessions: Bool { self == .consentRevoked || self == .accountDelete }
    }

    /// The event's `type`.
    package let kind: Kind
    /// The event's `sub`: the user, as the provider's ID tokens name them.
    package let subject: String
    /// The event's `email`, for the email events.
    package let email: String?
    /// The event's `is_private_email` (Apple sends `"true"` / `"false"`).
    package let isPrivateEmail: Bool?
    /// The event's `event_time` (milliseconds since 1970 in Apple's examples).
    package let eventTime: Date?
    /// The notification's `jti`.
    package let tokenID: String
}

extension AuthError.Code {
    /// An account notification (Sign in with Apple's server-to-server notification) that breaks a rule: wrong `iss` or
    /// `aud`, an unacceptable `iat` or `exp`, no `jti` or one already used, an `events` claim that is not a JSON string
    /// holding one event of a known type with a `sub`. Nothing is changed.
    package static let invalidAccountNotification: Self = "invalid_account_notification"
}

extension AuthClient {
    /// Verifies the `payload` JWT of an account notification the provider POSTed (`{"payload": "<JWT>"}`) with the ID
    /// token machinery: the JWS and its pinned algorithm, the signature with a key from the provider's `jwks_uri` (the
    /// keys its ID tokens are signed with), `iss` (the issuer policy), `aud` (this client), `iat` (not in the future,
    /// not older than the ID token policy allows, by the injected clock), `exp` when present, the `events` claim (a
    /// JSON *string*, as Apple sends it, holding `type`, `sub`, `email`, `is_private_email`, `event_time`), and last a
    /// `jti` not seen before by this client. Changes nothing: the caller acts on the answer, and calls
    /// `forgetAccountNotification(_:)` when it could not, so the provider's retry is not taken for a replay.
    ///
    /// - Throws: `invalid_account_notification` naming the failed rule; `unsupported_algorithm`, `invalid_signature`,
    ///   `unknown_key_id` from the signature check.
    package func verifyAccountNotification(_ payload: String) async throws -> AccountNotification {
        do {
            let metadata = try await metadata()
            let policy = provider.idTokenPolicy
            let validator = IDTokenValidator(issuer: metadata.issuer, clientID: provider.client.clientID, policy: policy)
            let (jws, algorithm) = try validator.parse(payload)
            let key = try await idTokenVerifier.providerKey(
                for: jws, algorithm: algorithm, metadata: metadata, now: clock.now(), tokenKind: "account notifications")
            let claims = try jws.verifiedClaims(with: key, algorithm: algorithm, tokenKind: "account notification", malformed: .invalidAccountNotification)
            return try await checkNotificationClaims(claims, metadata: metadata, policy: policy)
        } catch let error as AuthError {
            let attributed = error.attributed(to: provider.id)
            log(.notice, "account_notification.refused", attributed.message, ["code": attributed.code.rawValue])
            throw attributed
        }
    }

    /// Forgets that `notification` was seen, so that the provider's retry of one that could not be acted on is accepted.
    package func forgetAccountNotification(_ notification: AccountNotification) async {
        await logoutTokenIDs.forget(Self.notificationIDPrefix + notification.tokenID)
    }

    /// Kept apart from logout tokens' `jti`s in the same record.
    private static let notificationIDPrefix = "account-notification:"

    private func checkNotificationClaims(
        _ claims: [String: JSONValue],
        metadata: ProviderMetadata,
        policy: IDTokenPolicy
    ) async throws -> AccountNotification {
        func refuse(_ reason: String) -> AuthError { AuthError(.invalidAccountNotification, "The account notification \(reason); nothing was changed.") }
        try checkSignedEventClaims(claims, metadata: metadata, policy: policy, refuse: refuse)
        let now = clock.now()
        // Apple sends `events` as a string of JSON, not as an object (the forum thread Apple's DTS answers point to:
        // https://developer.apple.com/forums/thread/655485); anything else is not Apple's.
        guard case .string(let text)? = claims["events"] else { throw refuse("has no 'events' string") }
        guard let event = try? JSONValue.parseObject(Data(text.utf8)) else { throw refuse("has an 'events' string that is not a JSON object") }
        guard let type = event["type"]?.stringValue, let kind = AccountNotification.Kind(rawValue: type) else {
            throw refuse("names an unknown event type")
        }
        guard let subject = event["sub"]?.stringValue, !subject.isEmpty else { throw refuse("names no user ('sub')") }
        let isPrivate: Bool? =
            switch event["is_private_email"] {
            case .bool(let value)?: value
            case .string(let value)?: value == "true" ? true : (value == "false" ? false : nil)
            default: nil
            }
        let eventTime = event["event_time"]?.numberValue.map { Date(timeIntervalSince1970: $0 > 1e11 ? $0 / 1000 : $0) }
        guard let jti = claims["jti"]?.stringValue, !jti.isEmpty else { throw refuse("has no 'jti'") }
        guard await logoutTokenIDs.insert(Self.notificationIDPrefix + jti, now: now, keepFor: policy.maximumIssuedAtAge + 2 * policy.clockSkew) else {
            throw refuse("was already used ('jti' replayed)")
        }
        return AccountNotification(
            kind: kind, subject: subject, email: event["email"]?.stringValue, isPrivateEmail: isPrivate, eventTime: eventTime, tokenID: jti)
    }
}
