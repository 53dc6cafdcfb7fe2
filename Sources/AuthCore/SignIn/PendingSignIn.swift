public import Foundation

/// A sign-in waiting for its redirect, held by the caller instead of the client's memory: a web app with several
/// instances keeps it in a shared store, so the instance that receives the callback can complete a sign-in another
/// instance started (``AuthClient/prepareResumableSignIn(options:)``, ``AuthClient/completeSignIn(redirect:resuming:)``).
///
/// It holds the PKCE verifier, the nonce and the DPoP key: keep it server-side only (never in a cookie or a URL),
/// encrypted at rest, and hand it to ``AuthClient/completeSignIn(redirect:resuming:)`` at most once — the store
/// that keeps it must remove it as it reads it, so a replayed callback finds nothing. It prints without its secrets.
public struct PendingSignIn: Sendable, Codable, CustomStringConvertible {
    /// The provider that was asked.
    public let providerID: ProviderID
    /// The client that asked.
    public let clientID: String
    /// The `state` sent: the key to look this sign-in up by when its callback arrives.
    public let state: String
    /// The `nonce` sent, when `openid` was requested.
    let nonce: String?
    /// The PKCE verifier.
    let codeVerifier: Secret
    /// The key the code and tokens are bound to (RFC 9449), when DPoP is used.
    let dpopKey: DPoPKey?
    /// The redirect URI the response must match exactly.
    public let redirectURI: URL
    /// The scopes requested.
    let scopes: [String]
    /// The app's options (the checks of `max_age`, `prompt=login` and an essential `acr` need them).
    let options: SignInOptions
    /// When the request was made.
    public let createdAt: Date
    /// When it stops being accepted.
    public let expiresAt: Date

    init(_ pending: PendingAuthorization, providerID: ProviderID, clientID: String) throws {
        guard let pkce = pending.pkce else {
            throw AuthError(.invalidConfiguration, "A resumable sign-in needs PKCE; omitsPKCEForBackendExchange cannot be used with it.", providerID: providerID)
        }
        self.providerID = providerID
        self.clientID = clientID
        self.state = pending.state
        self.nonce = pending.nonce
        self.codeVerifier = pkce.verifier
        self.dpopKey = pending.dpopKey
        self.redirectURI = pending.redirectURI
        self.scopes = pending.request.scopes
        self.options = pending.request.options
        self.createdAt = pending.createdAt
        self.expiresAt = pending.expiresAt
    }

    /// `PendingSignIn(provider, state prefix…, expires …)`: never the verifier, nonce or key.
    public var description: String {
        "PendingSignIn(\(providerID.rawValue), state \(state.prefix(6))…, expires \(expiresAt))"
    }
}

extension AuthClient {
    /// Prepares a sign-in like ``prepareSignIn(options:)`` but hands what its redirect is checked against to the
    /// caller instead of keeping it in this client's memory: store the ``PendingSignIn`` (keyed by its `state`)
    /// where every instance can read it, and complete with ``completeSignIn(redirect:resuming:)``.
    ///
    /// - Throws: as ``prepareSignIn(options:)``; `invalid_configuration` with
    ///   ``SignInOptions/omitsPKCEForBackendExchange``.
    public func prepareResumableSignIn(options: SignInOptions = SignInOptions()) async throws -> (request: AuthorizationRequest, pending: PendingSignIn) {
        let (request, pending) = try await makeAuthorization(options: options)
        return (request, try PendingSignIn(pending, providerID: provider.id, clientID: provider.client.clientID))
    }

    /// Completes a sign-in from ``prepareResumableSignIn(options:)``, possibly started by another instance: the
    /// redirect's `state` must be `pending`'s, `pending` must be this client's and unexpired; then every check of
    /// ``completeSignIn(redirect:)`` applies (exact redirect, RFC 9207 `iss`, code exchange with PKCE, ID token with
    /// the nonce, DPoP binding).
    ///
    /// - Throws: `state_mismatch` for another state or an expired sign-in; `invalid_configuration` for another
    ///   provider's or client's sign-in; the errors of ``completeSignIn(redirect:)``. Nothing is stored on failure.
    public func completeSignIn(redirect: URL, resuming pending: PendingSignIn) async throws -> Session {
        try await instrumented(.signIn) {
            do {
                guard pending.providerID == self.provider.id, pending.clientID == self.provider.client.clientID else {
                    throw AuthError(.invalidConfiguration, "This pending sign-in belongs to another provider or client.")
                }
                let response = try AuthorizationResponse(parsing: redirect)
                guard let state = response.state, !state.isEmpty else {
                    throw AuthError(.missingState, "The authorization response has no 'state'; it was not sent in answer to this app's request.")
                }
                guard state == pending.state, pending.expiresAt > self.clock.now() else {
                    throw AuthError(.stateMismatch, "The authorization response's 'state' is not this sign-in's, or the sign-in expired.")
                }
                let metadata = try await self.metadata()
                let restored = PendingAuthorization(
                    state: pending.state,
                    nonce: pending.nonce,
                    pkce: try PKCE(verifier: pending.codeVerifier),
                    dpopKey: pending.dpopKey,
                    redirectURI: pending.redirectURI,
                    request: SignInRequest(options: pending.options, metadata: metadata, scopes: pending.scopes, redirectURI: pending.redirectURI),
                    createdAt: pending.createdAt,
                    expiresAt: pending.expiresAt
                )
                let code = try self.checkResponse(response, redirect: redirect, pending: restored)
                return try await self.finishSignIn(code: code, pending: restored)
            } catch let error as AuthError {
                let attributed = error.attributed(to: self.provider.id)
                self.log(.notice, "signin.failed", attributed.message, ["code": attributed.code.rawValue])
                throw attributed
            }
        }
    }
}
