import AuthCore
import Crypto
import Foundation

/// A sign-in waiting for its callback, sealed into the browser's sign-in cookie instead of kept by the server.
///
/// Why the browser keeps it: a server that stores each started sign-in until it expires lets anyone fill its memory
/// or database with unauthenticated `GET /auth/{provider}/login` requests, and a cap on that storage would lock real
/// users out during such a flood. Sealed in the cookie, a started sign-in costs the server nothing; only a completed
/// one writes (a session and a credential).
///
/// What that trades: the PKCE verifier, nonce and DPoP key travel in a cookie — AES-256-GCM sealed with the app's key
/// (never readable or forgeable without it), `Secure`, `HttpOnly`, `__Host-`, `SameSite=Lax` (`None` for a form_post
/// provider, whose answer is a cross-site POST: see `WebSignInCore`), cleared at the callback.
/// The server no longer remembers which `state` was used: a callback replayed with a copy of the cookie and of the
/// code is refused by the provider, which redeems a code once (RFC 6749 §4.1.2) and checks the PKCE verifier. A
/// browser has one sign-in in flight per app: starting another replaces it (the earlier tab's callback is refused).
struct SignInCookie: Sendable {
    /// What the cookie holds: the route's provider name and the engine's pending sign-in.
    struct Content: Codable, Sendable {
        let providerName: String
        let pending: PendingSignIn
        /// Whether the provider was asked to answer with a form POST (`response_mode=form_post`): its callback must
        /// then be a POST, and the cookie is `SameSite=None`. `nil` in cookies sealed before this was recorded.
        let usesFormPost: Bool?
        /// The key (SHA-256) of the session the browser had when it started this sign-in, ended when the sign-in
        /// completes: a form_post provider's callback is a cross-site POST, which carries no `SameSite=Lax` session
        /// cookie. `nil` when it had none (and in cookies sealed before this was recorded).
        var replacesSession: String? = nil
        /// Where the browser goes once signed in, when a third-party-initiated login named it (`target_link_uri`,
        /// checked to be on the app's own origin); `nil` for ``WebSignInConfiguration/afterSignIn``.
        var returnTo: String? = nil
    }

    /// The longest sealed value a browser keeps with the cookie's name and attributes (4,096 bytes in all).
    static let maximumLength = 3_800

    private let key: SymmetricKey
    /// Bound into every seal: a value sealed for another purpose with the same key never opens as a sign-in.
    private static let context = Data("swift-auth-providers sign-in cookie v1".utf8)

    /// A sealer with `key` (32 bytes), or a random key for this process when `nil`.
    ///
    /// - Throws: `invalid_configuration` for a key that is not 32 bytes.
    init(key: Data?) throws {
        if let key {
            guard key.count == 32 else {
                throw AuthError(.invalidConfiguration, "The sign-in cookie key must be 32 bytes (AES-256); it has \(key.count).")
            }
            // A key of its own, derived: the app may give the session store's key without the two sharing one.
            self.key = HKDF<SHA256>.deriveKey(
                inputKeyMaterial: SymmetricKey(data: key), info: Data("swift-auth-providers sign-in cookie".utf8), outputByteCount: 32
            )
        } else {
            self.key = SymmetricKey(size: .bits256)
        }
    }

    /// `content` sealed and base64url-encoded: a cookie value.
    func seal(_ content: Content) throws -> String {
        let plain = try JSONEncoder().encode(content)
        guard let combined = try AES.GCM.seal(plain, using: key, authenticating: Self.context).combined else {
            throw AuthError(.storageFailed, "The sign-in could not be sealed into its cookie.")
        }
        return Base64URL.encode(combined)
    }

    /// The content of a cookie value this app sealed, or `nil` for anything else (another key, an altered or
    /// truncated value, garbage).
    func open(_ value: String) -> Content? {
        // A sealed sign-in is about 1 kB; anything much larger was not made here.
        guard value.utf8.count <= 8 * 1024, let combined = Base64URL.decode(value),
            let box = try? AES.GCM.SealedBox(combined: combined),
            let plain = try? AES.GCM.open(box, using: key, authenticating: Self.context)
        else { return nil }
        return try? JSONDecoder().decode(Content.self, from: plain)
    }
}
