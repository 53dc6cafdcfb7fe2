package import Foundation

/// Which URLs the engine may call or open.
///
/// Only `https`, or plain `http` on a loopback **IP literal** (`127.0.0.0/8` or `::1`), where the traffic never
/// leaves the machine (RFC 8252 §8.3, RFC 9700 §4.13). A host *name* is never loopback, not even `localhost` or
/// `127.evil.test`: a name is resolved by DNS or a hosts file, which can send it anywhere (RFC 6761 §6.3 only asks
/// resolvers to keep `localhost` local). `file:`, `smb:`, custom schemes and URLs without a host are refused.
extension URL {
    /// Whether the host is a loopback IP literal: an IPv4 address in `127.0.0.0/8` written as four decimal
    /// octets, or the IPv6 loopback address `::1` (in any spelling, brackets optional).
    package var isLoopback: Bool {
        guard let host = host, !host.isEmpty else { return false }
        return Self.isLoopbackIPLiteral(host)
    }

    /// Whether `host` is a loopback IP literal (see ``isLoopback``).
    package static func isLoopbackIPLiteral(_ host: String) -> Bool {
        var text = Substring(host)
        if text.hasPrefix("["), text.hasSuffix("]") { text = text.dropFirst().dropLast() }
        if text.contains(":") { return isIPv6Loopback(text) }
        let octets = text.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4 else { return false }
        var values: [Int] = []
        for octet in octets {
            // Decimal only, no leading zeros (an octal-looking "0177" is not an IP literal we accept), at most 3 digits.
            guard (1...3).contains(octet.count), octet.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
                octet.count == 1 || octet.first != "0", let value = Int(octet), value <= 255
            else { return false }
            values.append(value)
        }
        return values[0] == 127
    }

    /// `::1` in any valid spelling (`0:0:0:0:0:0:0:1`, `::0:1`): seven zero groups and a final 1.
    private static func isIPv6Loopback(_ text: Substring) -> Bool {
        guard !text.contains("%"), !text.contains(".") else { return false }
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return false }
        func groups(_ part: String) -> [Substring]? {
            if part.isEmpty { return [] }
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            for piece in pieces {
                guard (1...4).contains(piece.count), piece.allSatisfy(\.isHexDigit) else { return nil }
            }
            return pieces
        }
        guard let head = groups(halves[0]) else { return false }
        var all = head
        if halves.count == 2 {
            guard let tail = groups(halves[1]), head.count + tail.count <= 7 else { return false }
            all += Array(repeating: "0", count: 8 - head.count - tail.count) + tail
        }
        guard all.count == 8 else { return false }
        let values = all.map { UInt16($0, radix: 16) ?? 0xFFFF }
        return values.dropLast().allSatisfy { $0 == 0 } && values.last == 1
    }

    /// Whether the engine may send a request to (or open) this URL: `https` with a host, or `http` on a
    /// loopback IP literal.
    package var isSecureEndpoint: Bool {
        // On the URL's bytes: every request the engine sends is checked here, and `scheme`, `host` and
        // `lowercased()` each built a string.
        let scheme = withParts { text, parts -> String? in
            guard let parts, let host = parts.host, !host.isEmpty else { return nil }
            for candidate in ["https", "http"] {
                var name = candidate
                let matches = name.withUTF8 { expected in
                    URLParts.equalIgnoringASCIICase(parts.scheme, in: text, 0..<expected.count, in: UnsafeRawBufferPointer(expected))
                }
                if matches { return candidate }
            }
            return nil
        }
        switch scheme {
        case "https": return true
        case "http": return isLoopback
        default: return false
        }
    }

    /// Throws `insecure_endpoint` unless ``isSecureEndpoint``; `what` names the endpoint in the message.
    package func requireSecureEndpoint(_ what: String, providerID: ProviderID? = nil) throws {
        guard isSecureEndpoint else {
            let shown = ProviderText.sanitized("\(scheme ?? "?")://\(host ?? "")\(path)", limit: 200)
            throw AuthError(
                .insecureEndpoint,
                "The \(what) \(shown) is not allowed: use https (plain http only on 127.0.0.1 or [::1], never a host name such as localhost).",
                providerID: providerID
            )
        }
    }

    /// Whether this URL is addressed to `other`'s scheme, host and port (case-insensitive), whatever its path: a client
    /// assertion goes only to its token endpoint's origin; a provider's cancel or BankID return paths sit beside the
    /// redirect path.
    package func hasOrigin(of other: URL) -> Bool {
        withParts { received, receivedParts in
            other.withParts { expected, expectedParts in
                guard let receivedParts, let expectedParts else { return false }
                return receivedParts.hasSameOrigin(in: received, as: expectedParts, in: expected)
            }
        }
    }
}
