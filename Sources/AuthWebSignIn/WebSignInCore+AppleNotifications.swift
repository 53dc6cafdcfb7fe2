import AuthCore
import Foundation
import HTTPTypes

extension WebSignInCore {
    /// `POST /auth/{provider}/notifications`: Sign in with Apple's server-to-server notifications, the endpoint URL
    /// registered for the app ("Enabling server-to-server notifications",
    /// https://developer.apple.com/help/account/configure-app-capabilities/enabling-server-to-server-notifications).
    /// Apple POSTs `{"payload": "<JWT>"}`; the JWT is checked as the engine checks an ID token — Apple's keys (the
    /// same JWKS), the pinned algorithm, `iss`, `aud` (the client id), `iat` by the app's clock, `exp` — then its
    /// `events` claim (a JSON string with `type`, `sub`, `email`, `is_private_email`, `event_time`), and its `jti` is
    /// used once: refused by this instance and, through the store (``WebSessionStore/markUsed(digest:until:now:)``),
    /// by every instance that shares it. Then, as each event requires
    /// ("Processing changes for Sign in with Apple accounts",
    /// https://developer.apple.com/documentation/signinwithapple/processing-changes-for-sign-in-with-apple-accounts):
    ///
    /// - `consent-revoked`, `account-delete`: the user's sessions end (found by index, as a back-channel logout finds
    ///   them) with their credentials, removed from the store every instance reads, and the name kept for the user
    ///   (``WebSessionStore/forgetDisplayName(subjectIndex:)``) is forgotten;
    /// - `email-disabled`, `email-enabled`: the credentials of the user's sessions keep the event's address in their
    ///   profile (`email`) and whether Apple forwards to it (`email_forwarding`: `disabled` or `enabled`).
    ///
    /// No cookie or CSRF token: Apple calls it directly, and the signed JWT is the authentication. Answers 200 with
    /// what was done (`{"event": …, "sessions": n}`); 400 with the specific error code for a notification that fails a
    /// check, and nothing changed; 404 for a route that is not a Sign in with Apple provider; 503 when the store failed
    /// (the `jti` is forgotten, so Apple's retry is accepted). Never cached.
    public func appleNotification(provider name: String, request: WebRequest) async -> WebResponse {
        guard let client = clients[name] ?? nativeClients[name], client.provider.id.rawValue == "apple" else {
            return Self.backChannelError(status: .notFound, "There is no Sign in with Apple provider named '\(name)' here.")
        }
        guard let body = request.body, let object = try? JSONValue.parseObject(body), let payload = object["payload"]?.stringValue, !payload.isEmpty
        else {
            return Self.backChannelError(status: .badRequest, "The request is not a JSON object with a 'payload' string.")
        }
        do {
            let notification = try await client.verifyAccountNotification(payload)
            let now = clock.now()
            do {
                // Every instance that shares the store refuses the same `jti` again.
                guard try await store.markUsed(digest: sha256Hex("apple-notification\u{0}" + notification.tokenID), until: now.addingTimeInterval(86_400), now: now)
                else {
                    throw AuthError(.invalidAccountNotification, "The account notification was already used ('jti' replayed); nothing was changed.")
                }
                let sessions = try await act(on: notification, providerName: name, now: now)
                return WebResponse.json(["event": .string(notification.kind.rawValue), "sessions": .number(Double(sessions))])
            } catch let error as AuthError where error.code == .invalidAccountNotification {
                throw error
            } catch {
                await client.forgetAccountNotification(notification)  // nothing may have changed: Apple's retry must be accepted
                throw error
            }
        } catch let error as AuthError where error.code == .storageUnavailable || error.code == .storageFailed {
            return Self.backChannelError(status: .serviceUnavailable, "\(error.message) (\(error.code.rawValue))")
        } catch let error as AuthError {
            return Self.backChannelError(status: .badRequest, "\(error.message) (\(error.code.rawValue))")
        } catch {
            return Self.backChannelError(status: .serviceUnavailable, "The notification could not be acted on; try again.")
        }
    }

    /// Ends the user's sessions and credentials, or updates the credentials' email; returns how many sessions.
    private func act(on notification: AccountNotification, providerName name: String, now: Date) async throws -> Int {
        let subjectIndex = WebSessionRecord.subjectIndex(providerName: name, subject: notification.subject)
        let tokenStorage = store.tokenStorage
        if notification.kind.endsSessions {
            // The name Apple said once goes with the account (or the consent): a later first authorization says it again.
            try await store.forgetDisplayName(subjectIndex: subjectIndex)
            let ended = try await store.removeSessions(subjectIndex: subjectIndex, providerSessionIndex: nil)
            for record in ended {
                await sessionCache?.forget(account: record.account)
                try await tokenStorage.withExclusiveAccess(to: record.account) { try await tokenStorage.removeCredential(for: record.account) }
            }
            return ended.count
        }
        let forwarding = notification.kind == .emailEnabled ? "enabled" : "disabled"
        let sessions = try await store.sessions(subjectIndex: subjectIndex, now: now)
        for record in sessions {
            try await tokenStorage.withExclusiveAccess(to: record.account) {
                guard var credential = try await tokenStorage.credential(for: record.account), credential.subject == notification.subject else { return }
                var profile = credential.profile ?? [:]
                if let email = notification.email, !email.isEmpty { profile["email"] = email }
                profile["email_forwarding"] = forwarding
                credential.profile = profile
                try await tokenStorage.store(credential, for: record.account)
            }
        }
        return sessions.count
    }
}
