public import Foundation

/// A sign-in waiting for its redirect: what the redirect is checked against and the code redeemed with.
///
/// The engine keeps one per ``AuthClient/prepareSignIn(options:)`` in the client's memory. A web app with several
/// instances holds it itself instead (``AuthClient/prepareResumableSignIn(options:)``) in a shared store, so the
/// instance that receives the callback can complete a sign-in another instance started
/// (``AuthClient/completeSignIn(redirect:resuming:)``).
///
/// It holds the PKCE verifier, the nonce and the DPoP key: never let anyone read it — keep it server-side, encrypted
/// at rest, or sealed (encrypted and authenticated) where the browser carries it, as AuthHummingbird's sign-in
/// cookie does; never in a URL. Hand it to ``AuthClient/completeSignIn(redirect:resuming:)`` at most once: remove it
/// as it is read where it is stored, or clear the cookie; a replay with a copy still meets the provider's single-use
/// code. It prints without its secrets.
public struct PendingSignIn: Sendable, Codable, CustomStringConvertible {
    /// The provider that was asked.
    package let providerID: ProviderID
    /// The client that asked.
    package let clientID: String
    /// The `state` sent: the key to look this sign-in up by when its callback arrives.
    public let state: String
    /// The `nonce` sent, when `openid` was requested.
    package let nonce: String?
    /// The PKCE verifier; `nil` only for a code-only login a backend redeems without PKCE
    /// (``SignInOptions/omitsPKCEForBackendExchange``), which is never resumable.
    package let codeVerifier: Secret?
    /// The key the code is bound to (`dpop_jkt`) and the tokens will be (RFC 9449), when DPoP is used.
    package let dpopKey: DPoPKey?
    /// The redirect URI the response must match exactly.
    package let redirectURI: URL
    /// The scopes requested.
    package let scopes: [String]
    /// The app's options (the checks of `max_age`, `prompt=login` and an essential `acr` need them).
    package let options: SignInOptions
    /// When the request was made: with `prompt=login`, the user must have authenticated after it.
    package let createdAt: Date
    /// When it stops being accepted.
    public let expiresAt: Date
    /// The provider's metadata when the request was made, while the sign-in waits in the client's memory (not
    /// encoded: a resumed sign-in loads the metadata again).
    package var metadata: ProviderMetadata?

    private enum CodingKeys: String, CodingKey {
        case providerID, clientID, state, nonce, codeVerifier, dpopKey, redirectURI, scopes, options, createdAt, expiresAt
    }

    /// Creates a pending sign-in (the engine's authorization request builder).
    package init(
        providerID: ProviderID,
        clientID: String,
        state: String,
        nonce: String?,
        codeVerifier: Secret?,
        dpopKey: DPoPKey?,
        redirectURI: URL,
        scopes: [String],
        options: SignInOptions,
        createdAt: Date,
        expiresAt: Date,
        metadata: ProviderMetadata?
    ) {
        self.providerID = providerID
        self.clientID = clientID
        self.state = state
        self.nonce = nonce
        self.codeVerifier = codeVerifier
        self.dpopKey = dpopKey
        self.redirectURI = redirectURI
        self.scopes = scopes
        self.options = options
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.metadata = metadata
    }

    /// What the provider's hooks see of this sign-in, with `metadata`.
    package func context(metadata: ProviderMetadata) -> SignInContext {
        SignInContext(options: options, metadata: metadata, scopes: scopes, redirectURI: redirectURI)
    }

    /// `PendingSignIn(provider, state prefix…, expires …)`: never the verifier, nonce or key.
    public var description: String {
        "PendingSignIn(\(providerID.rawValue), state \(state.prefix(6))…, expires \(expiresAt))"
    }
}
