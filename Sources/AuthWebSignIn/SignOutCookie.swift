import AuthCore
import Crypto
import Foundation

/// A sign-out waiting for the provider's redirect back (OpenID Connect RP-Initiated Logout 1.0 §3), sealed into the
/// browser's sign-out cookie: the route's provider name and the `state` sent with the end-session request. The
/// return to `WebSignInConfiguration.postLogoutURL(for:)` must carry that `state`, once.
///
/// Sealed like the sign-in cookie (AES-256-GCM with a key of its own derived from the sign-in cookie key, `Secure`,
/// `HttpOnly`, `__Host-`, `SameSite=Lax`: the provider's redirect back is a top-level `GET`, which carries `Lax`
/// cookies), ten minutes.
struct SignOutCookie: Sendable {
    /// What the cookie holds.
    struct Content: Codable, Sendable {
        let providerName: String
        let state: String
        let expiresAt: Date
    }

    /// How long a sign-out waits for the provider's redirect back.
    static let lifetime: TimeInterval = 600

    private let key: SymmetricKey
    /// Bound into every seal: a value sealed for another purpose never opens as a sign-out.
    private static let context = Data("swift-auth-providers sign-out cookie v1".utf8)

    /// A sealer with a key derived from `key` (32 bytes, checked by `SignInCookie`), or a random key when `nil`.
    init(key: Data?) {
        if let key, key.count == 32 {
            self.key = HKDF<SHA256>.deriveKey(
                inputKeyMaterial: SymmetricKey(data: key), info: Data("swift-auth-providers sign-out cookie".utf8), outputByteCount: 32
            )
        } else {
            self.key = SymmetricKey(size: .bits256)
        }
    }

    /// `content` sealed and base64url-encoded: a cookie value.
    func seal(_ content: Content) throws -> String {
        let plain = try JSONEncoder().encode(content)
        guard let combined = try AES.GCM.seal(plain, using: key, authenticating: Self.context).combined else {
            throw AuthError(.storageFailed, "The sign-out could not be sealed into its cookie.")
        }
        return Base64URL.encode(combined)
    }

    /// The content of a cookie value this app sealed, or `nil` for anything else.
    func open(_ value: String) -> Content? {
        guard value.utf8.count <= 2048, let combined = Base64URL.decode(value),
            let box = try? AES.GCM.SealedBox(combined: combined),
            let plain = try? AES.GCM.open(box, using: key, authenticating: Self.context)
        else { return nil }
        return try? JSONDecoder().decode(Content.self, from: plain)
    }
}
