import AuthCore
import Foundation
import HTTPTypes

extension WebSignInCore {
    /// `POST /auth/logout`: only with the session's CSRF token (header `X-CSRF-Token`, or form field `csrf_token` in
    /// the body the adapter collected); the browser session ends, the tokens are removed and revoked, and the browser
    /// goes to the provider's end-session page (or ``WebSignInConfiguration/afterSignOut``) with a `303`.
    ///
    /// The end-session request (OpenID Connect RP-Initiated Logout 1.0 §2) carries `client_id` and the session's own
    /// ID token as `id_token_hint` (GOV.UK One Login honours `post_logout_redirect_uri` only with it); when the
    /// provider's registration has a `post_logout_redirect_uri`, it also carries
    /// ``WebSignInConfiguration/postLogoutURL(for:)`` and a fresh `state`, sealed into this browser's sign-out cookie
    /// and checked once by ``signedOut(provider:request:)``. The ID token in that URL identifies a sign-in that has
    /// just ended; it is no access credential (no API accepts it) and the provider already holds it.
    ///
    /// - Throws: `storage_unavailable` when the session store cannot answer.
    public func logout(_ request: WebRequest) async throws -> WebResponse {
        guard let (key, record) = try await sessionRecord(for: request) else {
            return WebResponse.page(status: .forbidden, title: "Not signed in", message: "There is no session to sign out of.")
        }
        let presented = request.headerFields[HTTPField.Name("X-CSRF-Token")!] ?? request.formValue("csrf_token")
        guard let presented, Self.constantTimeEqual(presented, record.csrfToken) else {
            return WebResponse.page(
                status: .forbidden, title: "Sign-out refused",
                message: "The request did not carry this session's CSRF token; nothing was changed. (\(AuthError.Code.csrfTokenMismatch.rawValue))"
            )
        }
        try await store.removeSession(key: key)
        await sessionCache?.forget(key)
        var location = configuration.afterSignOut
        var pendingSignOut: String?
        if let client = client(for: record), let session = try? await client.restoreSession(key: record.account) {
            let returns = client.provider.client.postLogoutRedirectURI != nil
            let state = SecureRandom.token()
            if let endSession = try? await session.endSessionURL(
                postLogoutRedirectURI: returns ? configuration.postLogoutURL(for: record.providerName) : nil,
                state: returns ? state : nil,
                includingIDTokenHint: true
            ) {
                location = endSession.absoluteString
                if returns {
                    let content = SignOutCookie.Content(
                        providerName: record.providerName, state: state, expiresAt: clock.now().addingTimeInterval(SignOutCookie.lifetime))
                    pendingSignOut = try? signOutCookie.seal(content)
                }
            }
            _ = try? await session.signOut(revokingTokens: true)
        }
        var response = WebResponse.redirect(to: location, status: .seeOther)
        response.setCookie(.removal(WebSignInConfiguration.sessionCookieName, sameSite: WebCookie.SameSite(configuration.sessionCookieSameSite)))
        if let pendingSignOut {
            response.setCookie(
                WebCookie(name: WebSignInConfiguration.signOutCookieName, value: pendingSignOut, maxAge: Int(SignOutCookie.lifetime), sameSite: .lax))
        }
        return response
    }

    /// `GET /auth/session`: `{"signed_in": false}` or who is signed in and the CSRF token for sign-out. No token.
    ///
    /// - Throws: `storage_unavailable` when the session store cannot answer.
    public func sessionJSON(_ request: WebRequest) async throws -> WebResponse {
        guard let (_, record) = try await sessionRecord(for: request) else { return WebResponse.json(["signed_in": false]) }
        return WebResponse.json([
            "signed_in": true, "provider": .string(record.providerName), "subject": .string(record.subject),
            "name": .string(record.displayName), "csrf_token": .string(record.csrfToken),
            "expires_at": .number(record.expiresAt.timeIntervalSince1970.rounded(.down))
        ])
    }

    /// `POST /auth/{provider}/backchannel-logout` (OpenID Connect Back-Channel Logout 1.0 §2.5): the provider says a
    /// user's session with it ended. The `logout_token` (form field of the body the adapter collected) is checked as
    /// the engine checks every logout token (signature with the provider's keys, `iss`, `aud`, `iat`, the event,
    /// `sub` and/or `sid`, no `nonce`, a `jti` used once); then the web sessions of that user (or provider session)
    /// end with their credentials — on every instance, since the store is shared. They are found by index (the
    /// SHA-256 of the route name with the subject, and with the ID token's `sid`, kept with each session:
    /// ``WebSessionStore/removeSessions(subjectIndex:providerSessionIndex:)``), never by reading every stored
    /// credential, so a logout costs what it ends. No cookie or CSRF token: the provider calls it directly, and the
    /// signed token is the authentication.
    ///
    /// Answers 200 with no body, or 400 (503 when the store failed, so the provider may retry) with an OAuth error
    /// (§2.8); never cached.
    public func backChannelLogout(provider name: String, request: WebRequest) async -> WebResponse {
        guard let client = clients[name] else {
            return Self.backChannelError(status: .notFound, "There is no provider named '\(name)' here.")
        }
        guard let token = request.formValue("logout_token"), !token.isEmpty else {
            return Self.backChannelError(status: .badRequest, "The request has no logout_token.")
        }
        do {
            // Verified in full, then the sessions it names found by index (the subject's and the provider session's
            // hashes): the cost is that user's sessions, whatever else is stored.
            let verified = try await client.verifyLogoutToken(token)
            do {
                let ended = try await store.removeSessions(
                    subjectIndex: verified.subject.map { WebSessionRecord.subjectIndex(providerName: name, subject: $0) },
                    providerSessionIndex: verified.sessionID.map { WebSessionRecord.providerSessionIndex(providerName: name, sessionID: $0) }
                )
                for record in ended {
                    await sessionCache?.forget(account: record.account)
                    try await store.tokenStorage.withExclusiveAccess(to: record.account) { try await store.tokenStorage.removeCredential(for: record.account) }
                }
            } catch {
                await client.forgetLogoutToken(verified)  // nothing may have ended: the provider's retry must be accepted
                throw error
            }
            return WebResponse(status: .ok, headerFields: [.cacheControl: "no-store"])
        } catch let error as AuthError where error.code == .storageUnavailable || error.code == .storageFailed {
            // Not the token's fault: the provider may retry (§2.8 leaves retries to it).
            return Self.backChannelError(status: .serviceUnavailable, "\(error.message) (\(error.code.rawValue))")
        } catch let error as AuthError {
            return Self.backChannelError(status: .badRequest, "\(error.message) (\(error.code.rawValue))")
        } catch {
            return Self.backChannelError(status: .serviceUnavailable, "The sessions could not be ended; try again.")
        }
    }

    /// `{"error": "invalid_request", "error_description": …}` with `status`.
    static func backChannelError(status: HTTPResponse.Status, _ description: String) -> WebResponse {
        WebResponse.json(["error": "invalid_request", "error_description": .string(description)], status: status)
    }
}
