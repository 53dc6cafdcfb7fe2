import Foundation

/// The latest `DPoP-Nonce` each server handed out (RFC 9449 §8, §9), by origin: the authorization server's and
/// each resource server's are separate, and the newest one replaces the old.
actor DPoPNonceStore {
    private var nonces: [String: String] = [:]
    /// Origins remembered at most; a client talks to a handful of servers, the bound stops a hostile stream of them.
    private static let capacity = 64

    /// The nonce to put in a proof for `url`, when its server gave one.
    func nonce(for url: URL) -> String? {
        Self.origin(url).flatMap { nonces[$0] }
    }

    /// Remembers `nonce` for `url`'s server when it is a well-formed nonce (RFC 9449 §8.1: `1*NQCHAR`, bounded here).
    func remember(_ nonce: String, for url: URL) {
        guard Self.isWellFormed(nonce), let origin = Self.origin(url) else { return }
        if nonces[origin] == nil, nonces.count >= Self.capacity { nonces.removeAll() }
        nonces[origin] = nonce
    }

    /// `NQCHAR = %x21 / %x23-5B / %x5D-7E`, at most 512 characters: nothing that could break the proof's JSON or a header.
    static func isWellFormed(_ nonce: String) -> Bool {
        let bytes = nonce.utf8
        guard !bytes.isEmpty, bytes.count <= 512 else { return false }
        return bytes.allSatisfy { $0 == 0x21 || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) }
    }

    static func origin(_ url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        return "\(scheme)://\(host):\(url.port ?? (scheme == "https" ? 443 : 80))"
    }
}
