import AuthCore
import Crypto
import Foundation

/// The nonces of native sign-ins, verifiable by every instance that shares the app's
/// `WebSignInConfiguration.signInCookieKey`: issuing one writes nothing anywhere, so the sign-in that follows may
/// reach any instance (behind a load balancer, the two requests rarely meet the same one).
///
/// `<32 random bytes>.<expiry in Unix seconds>.<HMAC-SHA256 over the provider's route name, the random part and
/// the expiry>`, each part base64url or decimal: the MAC proves this app made it, for that provider, to expire then.
/// That it is used once is the store's part (`WebSessionStore.markUsed(digest:until:now:)`).
struct NativeNonce: Sendable {
    private let key: SymmetricKey

    /// With the app's shared key (a key of its own is derived from it), or a key of this process's when there is none.
    init(key: Data?) {
        if let key {
            self.key = HKDF<SHA256>.deriveKey(
                inputKeyMaterial: SymmetricKey(data: key), info: Data("swift-auth-providers native sign-in nonce".utf8), outputByteCount: 32
            )
        } else {
            self.key = SymmetricKey(size: .bits256)
        }
    }

    /// A new nonce for a native sign-in with the provider routed as `provider`, accepted until `expiresAt`.
    func make(provider: String, expiresAt: Date) -> String {
        let random = SecureRandom.token(byteCount: 32)
        let expiry = String(Int64(expiresAt.timeIntervalSince1970.rounded(.down)))
        return "\(random).\(expiry).\(mac(provider: provider, random: random, expiry: expiry))"
    }

    /// When `nonce` expires, if this app made it for `provider` and it has not expired at `now`; `nil` otherwise.
    func expiry(of nonce: String, provider: String, now: Date) -> Date? {
        let parts = nonce.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard nonce.utf8.count <= 256, parts.count == 3, let seconds = Int64(parts[1]),
            let expected = Base64URL.decode(mac(provider: provider, random: parts[0], expiry: parts[1])),
            let given = Base64URL.decode(parts[2]),
            // Compared in constant time: a byte-by-byte early exit would let a caller learn the MAC.
            given.count == expected.count, zip(given, expected).reduce(0, { $0 | ($1.0 ^ $1.1) }) == 0
        else { return nil }
        let expiresAt = Date(timeIntervalSince1970: TimeInterval(seconds))
        return expiresAt > now ? expiresAt : nil
    }

    private func mac(provider: String, random: String, expiry: String) -> String {
        let message = Data("\(provider)\n\(random)\n\(expiry)".utf8)
        return Base64URL.encode(Data(HMAC<SHA256>.authenticationCode(for: message, using: key)))
    }
}
