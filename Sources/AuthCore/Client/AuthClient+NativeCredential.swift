public import Foundation

/// A nonce for a sign-in a native app performs with the platform's own UI (Sign in with Apple's
/// `ASAuthorizationAppleIDRequest`, Google's native sign-in): the app puts ``nonce`` in its request, the provider puts it
/// in the ID token, and ``AuthClient/completeNativeSignIn(identityToken:authorizationCode:nonce:redirectURI:authorizationResponse:accountName:)``
/// accepts it once.
public struct NativeSignInRequest: Sendable, Hashable {
    /// The value to put in the platform request's `nonce` (256 random bits, base64url), as it is.
    public let nonce: String
    /// When it stops being accepted (``AuthClient/Options/authorizationLifetime`` after it was made).
    public let expiresAt: Date
}

extension AuthClient {
    /// Makes a nonce for a native sign-in and remembers it until ``NativeSignInRequest/expiresAt``: the ID token the
    /// platform returns must carry it, and it is accepted by one ``completeNativeSignIn(identityToken:authorizationCode:nonce:redirectURI:authorizationResponse:accountName:)``
    /// only.
    public func prepareNativeSignIn() async throws -> NativeSignInRequest {
        let nonce = SecureRandom.token()
        let expiresAt = clock.now().addingTimeInterval(options.authorizationLifetime)
        await acceptNativeNonce(nonce, until: expiresAt)
        return NativeSignInRequest(nonce: nonce, expiresAt: expiresAt)
    }

    /// How long a native sign-in's nonce is accepted: ``Options/authorizationLifetime``.
    package var nativeNonceLifetime: TimeInterval { options.authorizationLifetime }

    /// Accepts `nonce`, made and vouched for by the caller, for one ``completeNativeSignIn(identityToken:authorizationCode:nonce:redirectURI:authorizationResponse:accountName:)``
    /// until `expiresAt`: how a server whose instances share a store lets any instance complete a native sign-in whose
    /// nonce another instance issued (the web sign-in core verifies and uses up its own nonces first).
    package func acceptNativeNonce(_ nonce: String, until expiresAt: Date) async {
        let now = clock.now()
        let client = provider.client
        let pending = PendingSignIn(
            providerID: provider.id, clientID: client.clientID, state: Self.nativeNonceKey(nonce), nonce: nonce,
            codeVerifier: nil, dpopKey: nil, redirectURI: Self.nativeRedirectPlaceholder, scopes: client.scopes,
            options: SignInOptions(), createdAt: now, expiresAt: expiresAt, metadata: nil
        )
        await pendingSignIns.insert(pending, now: now)
    }

    /// Completes a sign-in a native app performed with the platform's UI, from what the platform handed it: verifies
    /// the ID token in full, redeems the authorization code (with the client's authentication — Apple's client secret)
    /// for the refresh token, and stores the credential.
    ///
    /// In order: the nonce must be one ``prepareNativeSignIn()`` made, unexpired and never used (it is used up now,
    /// whatever follows); the ID token must carry it, and pass every check of a sign-in's ID token (signature with the
    /// provider's keys and pinned algorithms, `iss`, `aud` = this client's id and no untrusted other, `exp`, `iat`) and
    /// the provider's ``AuthProvider/validateIdentity(_:)``, before the code is spent; the code is then redeemed (no
    /// PKCE: the platform requested it), and an ID token in the answer must be valid and name the same `sub`. Then, as
    /// for any sign-in, the identity rule on what is stored, the provider's ``AuthProvider/resolveIdentity(_:)`` and
    /// storage.
    ///
    /// - Parameters:
    ///   - identityToken: the ID token the platform returned (Apple: `ASAuthorizationAppleIDCredential.identityToken`).
    ///   - authorizationCode: the short-lived code it returned (Apple: `authorizationCode`, valid for five minutes).
    ///   - nonce: the ``NativeSignInRequest/nonce`` the app sent. Required.
    ///   - redirectURI: sent with the code only when the platform's request named one (Apple's native requests do not).
    ///   - authorizationResponse: what else the platform returned, for the provider (Apple's first-sign-in `user` JSON:
    ///     `{"name":{"firstName":…,"lastName":…},"email":…}`); never trusted for who signed in.
    ///   - accountName: stores the credential under this account name instead of the subject.
    /// - Throws: `missing_nonce` for an empty nonce or an ID token without one; `nonce_replayed` for a nonce this
    ///   client did not make, that expired, or that was used before; the ID token errors of sign-in (`invalid_audience`
    ///   for a token issued to another client, `nonce_mismatch`, `invalid_signature`, `token_expired`, …); token
    ///   endpoint errors; `subject_mismatch` when the redeemed tokens belong to another user. Nothing is stored when
    ///   any check fails.
    public func completeNativeSignIn(
        identityToken: Secret,
        authorizationCode: Secret,
        nonce: String,
        redirectURI: URL? = nil,
        authorizationResponse: [String: String] = [:],
        accountName: String? = nil
    ) async throws -> Session {
        try await instrumented(.signIn) {
            try await self.signInEntrance {
                try await self.completeNativeSignInOperation(
                    identityToken: identityToken, code: authorizationCode, nonce: nonce, redirectURI: redirectURI,
                    response: authorizationResponse, accountName: accountName
                )
            }
        }
    }

    private func completeNativeSignInOperation(
        identityToken: Secret, code: Secret, nonce: String, redirectURI: URL?, response: [String: String], accountName: String?
    ) async throws -> Session {
        guard !nonce.isEmpty else {
            throw AuthError(.missingNonce, "A native sign-in needs the nonce the app sent (from prepareNativeSignIn()); without it a stolen ID token could be replayed.")
        }
        guard let pending = await pendingSignIns.consume(state: Self.nativeNonceKey(nonce), now: clock.now()), pending.nonce == nonce else {
            throw AuthError(.nonceReplayed, "The nonce is not one this client made for a native sign-in, has expired, or was already used.")
        }
        // Checked before the signature only to name the failure precisely; the full verification follows.
        if let unverified = Self.unverifiedClaims(of: identityToken), unverified["nonce"]?.stringValue?.isEmpty ?? true {
            throw AuthError(.missingNonce, "The ID token carries no 'nonce', so it cannot be tied to this sign-in.")
        }
        let metadata = try await metadata()
        let claims = try await idTokenVerifier.verify(identityToken, nonce: nonce, accessToken: nil, metadata: metadata)
        // Before the code is spent: a user the provider's rule refuses gets no tokens issued (the gate checks again).
        try checkIdentityRule(claims)

        let tokens = try await redeemNativeCode(code, redirectURI: redirectURI, metadata: metadata)
        var tokenClaims = claims
        if let exchanged = tokens.idToken {
            let redeemed = try await idTokenVerifier.verify(exchanged, nonce: nil, accessToken: tokens.accessToken, metadata: metadata)
            guard redeemed.subject == claims.subject else {
                throw AuthError(.subjectMismatch, "The authorization code was issued for another user than the app's ID token.")
            }
            tokenClaims = redeemed
        }
        return try await admit(
            SignInEvidence(
                grant: .authorizationCode, tokens: tokens, claims: tokenClaims, metadata: metadata, authorizationResponse: response,
                accountName: accountName, completion: "Signed in with a native credential."
            )
        )
    }

    /// Redeems a native app's code at the token endpoint: `grant_type=authorization_code`, the code, `redirect_uri`
    /// only when given, the client's authentication, and the provider's extra headers and parameters.
    private func redeemNativeCode(_ code: Secret, redirectURI: URL?, metadata: ProviderMetadata) async throws -> TokenResponse {
        var parameters: [(String, String)] = [("grant_type", "authorization_code"), ("code", code.reveal())]
        if let redirectURI { parameters.append(("redirect_uri", redirectURI.absoluteString)) }
        // The provider's hooks see the grant as a code exchange; the platform used no PKCE, so the verifier is empty.
        let grant = TokenGrant.authorizationCode(code: code, codeVerifier: Secret(""), redirectURI: redirectURI ?? provider.client.redirectURI)
        var headers = try await provider.tokenRequestHeaders(for: grant)
        let extra = try await provider.tokenRequestParameters(for: grant)
        try tokenEndpoint.authenticateClient(parameters: &parameters, headers: &headers, metadata: metadata, destination: metadata.tokenEndpoint)
        parameters += extra.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        let data = try await providerHTTP.postForm(metadata.tokenEndpoint, endpoint: "token_endpoint", parameters: parameters, headers: headers)
        return try TokenResponse(json: data, tokenTypeWhenAbsent: provider.behavior.tokenTypeWhenAbsent)
    }

    /// The pending-sign-in key of a native nonce: a prefix no `state` this client makes has (theirs are base64url).
    static func nativeNonceKey(_ nonce: String) -> String { "native-nonce:" + nonce }

    /// The redirect URI a native nonce's pending entry carries: no real redirect matches it, so a response without
    /// `state` is never attributed to it.
    static let nativeRedirectPlaceholder = URL(string: "urn:auth-providers:native-sign-in")!

    /// The payload of `token` without checking anything (to name a missing claim before the full verification).
    private static func unverifiedClaims(of token: Secret) -> [String: JSONValue]? {
        guard let jws = try? CompactJWS(parsing: token.reveal()) else { return nil }
        return try? JSONValue.parseObject(jws.payload)
    }
}

extension AuthError.Code {
    /// A native sign-in without a nonce, or whose ID token carries none.
    public static let missingNonce: Self = "missing_nonce"
    /// A native sign-in's nonce this client did not make, that expired, or that was already used (a replay).
    public static let nonceReplayed: Self = "nonce_replayed"
}
