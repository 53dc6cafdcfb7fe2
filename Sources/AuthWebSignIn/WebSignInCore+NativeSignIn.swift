import AuthCore
import Foundation
import HTTPTypes

extension WebSignInCore {
    /// `POST /auth/{provider}/native/nonce`: a nonce for a sign-in the app performs with the platform's own UI
    /// (Sign in with Apple's `ASAuthorizationAppleIDRequest.nonce`), as JSON `{"nonce": …, "expires_at": …}`.
    ///
    /// Issuing writes nothing: the nonce carries its expiry and a MAC with the app's
    /// `WebSignInConfiguration/signInCookieKey`, so every instance that shares the key accepts it — the native
    /// sign-in may reach another instance than this one — and the store records it as used when a sign-in uses it
    /// (`WebSessionStore/markUsed(digest:until:now:)`), so that no instance accepts it twice. It is accepted for the
    /// client's authorization lifetime (`AuthClient.Options.authorizationLifetime`, ten minutes by default).
    public func nativeNonce(provider name: String) async -> WebResponse {
        guard let client = nativeClients[name] else {
            return Self.nativeError(status: .notFound, AuthError(.unknownProvider, "There is no native sign-in for '\(name)' here."))
        }
        let expiresAt = clock.now().addingTimeInterval(client.nativeNonceLifetime)
        let nonce = nativeNonces.make(provider: name, expiresAt: expiresAt)
        return WebResponse.json(["nonce": .string(nonce), "expires_at": .number(expiresAt.timeIntervalSince1970.rounded(.down))])
    }

    /// `POST /auth/{provider}/native/sign-in`: the app's natively obtained credential as a JSON object (`id_token`,
    /// `code`, `nonce` from ``nativeNonce(provider:)``, and Apple's first-sign-in `user` JSON as a string when it
    /// came), verified in full by
    /// `AuthClient/completeNativeSignIn(identityToken:authorizationCode:nonce:redirectURI:authorizationResponse:accountName:)`
    /// — the nonce issued here and unused, the ID token's signature, issuer, audience (the app's client id), expiry
    /// and nonce, the code redeemed for the same user — then a browser session as a web sign-in starts one: the
    /// session cookie, and JSON `{"signed_in": true, "provider", "subject", "name", "csrf_token"}`.
    ///
    /// The route is for apps, not web pages: a request a page of another site can send is refused with 403
    /// `cross_site_request` before anything else is read — a form's content type (`application/x-www-form-urlencoded`,
    /// `multipart/form-data`, `text/plain`) or none, an `Origin` other than the app's ``WebSignInConfiguration/publicURL``,
    /// or a `Sec-Fetch-Site` other than `same-origin` or `none`. Otherwise a page could post an attacker's own
    /// credential and sign the visitor's browser in to the attacker's account (login CSRF). An app's HTTP client
    /// (URLSession) sends `application/json` and neither `Origin` nor `Sec-Fetch-*`.
    ///
    /// Nothing is written before the ID token is verified (signature, `iss`, `aud`, `exp`, and its `nonce` equal to the
    /// posted one): only then is the nonce marked used in the store, so a refused request leaves no trace.
    ///
    /// Refusals are JSON `{"error": <code>, "error_description": …}` with 400 (403 for a cross-site request or a
    /// provider's refusal), and store nothing: `cross_site_request`, `missing_nonce`, `nonce_replayed`,
    /// `invalid_audience`, `invalid_signature`, `nonce_mismatch`, `invalid_native_sign_in` (no JSON object, no ID
    /// token or code), ….
    ///
    /// - Throws: `storage_unavailable` when the session store cannot answer.
    public func nativeSignIn(provider name: String, request: WebRequest) async throws -> WebResponse {
        guard let client = nativeClients[name] else {
            return Self.nativeError(status: .notFound, AuthError(.unknownProvider, "There is no native sign-in for '\(name)' here."))
        }
        if let refusal = request.crossSiteRefusal(appOrigin: WebRequest.origin(of: configuration.publicURL)) {
            return Self.nativeError(status: .forbidden, refusal)
        }
        guard let object = request.jsonObject else {
            return Self.nativeError(status: .badRequest, AuthError(.invalidNativeSignIn, "The request body is not a JSON object."))
        }
        let fields = object.compactMapValues(\.stringValue)
        guard let idToken = fields["id_token"], !idToken.isEmpty, let code = fields["code"], !code.isEmpty else {
            return Self.nativeError(status: .badRequest, AuthError(.invalidNativeSignIn, "The request needs the platform's id_token and code."))
        }
        // The nonce: made by an instance of this app for this provider and unexpired (its MAC and expiry, nothing
        // stored), then carried by an ID token that verifies in full; only then used up — once, on every instance of
        // the store. The engine then verifies the same ID token again, and redeems the code.
        let nonce = fields["nonce"] ?? ""
        guard !nonce.isEmpty else {
            return Self.nativeError(
                status: .badRequest,
                AuthError(.missingNonce, "A native sign-in needs the nonce from POST …/native/nonce; without it a stolen ID token could be replayed.")
            )
        }
        let now = clock.now()
        let replayed = AuthError(.nonceReplayed, "The nonce is not one this app issued for '\(name)', has expired, or was already used.")
        guard let expiresAt = nativeNonces.expiry(of: nonce, provider: name, now: now) else {
            return Self.nativeError(status: .badRequest, replayed)
        }
        do {
            try Self.requireNonceClaim(idToken)
            _ = try await client.verifyIDToken(Secret(idToken), nonce: nonce)
        } catch let error as AuthError where error.code == .storageUnavailable {
            throw error
        } catch let error as AuthError {
            return Self.nativeError(status: error.code == .accessDenied || error.code == .authorizationFailed ? .forbidden : .badRequest, error)
        }
        guard try await store.markUsed(digest: sha256Hex(nonce), until: expiresAt, now: now) else {
            return Self.nativeError(status: .badRequest, replayed)
        }
        await client.acceptNativeNonce(nonce, until: expiresAt)
        let session: Session
        do {
            session = try await client.completeNativeSignIn(
                identityToken: Secret(idToken), authorizationCode: Secret(code), nonce: nonce,
                authorizationResponse: fields["user"].map { ["user": $0] } ?? [:],
                // Each browser session keeps its own credential, as for web sign-ins.
                accountName: "web-" + SecureRandom.token(byteCount: 16)
            )
        } catch let error as AuthError where error.code == .storageUnavailable {
            throw error
        } catch let error as AuthError {
            return Self.nativeError(status: error.code == .accessDenied || error.code == .authorizationFailed ? .forbidden : .badRequest, error)
        }
        let (cookie, record) = try await startSession(name: name, client: client, session: session, replacing: request)
        var response = WebResponse.json([
            "signed_in": true, "provider": .string(record.providerName), "subject": .string(record.subject),
            "name": .string(record.displayName), "csrf_token": .string(record.csrfToken)
        ])
        response.setCookie(cookie)
        return response
    }

    /// Names an ID token without a `nonce` claim precisely (`missing_nonce`) before the full verification, which
    /// would call it a mismatch; a token that does not parse is left to the verification.
    static func requireNonceClaim(_ idToken: String) throws {
        guard let jws = try? CompactJWS(parsing: idToken), let claims = try? JSONValue.parseObject(jws.payload) else { return }
        if claims["nonce"]?.stringValue?.isEmpty ?? true {
            throw AuthError(.missingNonce, "The ID token carries no 'nonce', so it cannot be tied to this sign-in.")
        }
    }

    /// `{"error": <code>, "error_description": <message>}` with `status`, never cached.
    static func nativeError(status: HTTPResponse.Status, _ error: AuthError) -> WebResponse {
        WebResponse.json(["error": .string(error.code.rawValue), "error_description": .string(error.message)], status: status)
    }
}
