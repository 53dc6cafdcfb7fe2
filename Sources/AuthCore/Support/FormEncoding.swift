public import Foundation

/// `application/x-www-form-urlencoded` encoding and decoding, strict enough for OAuth.
///
/// Everything outside RFC 3986's unreserved set is percent-encoded, so `+`, `&`, `=` and `/` in values (base64
/// login hints, JSON `vtr` arrays, URLs) survive both query strings and form bodies unchanged.
public enum FormEncoding {
    /// Percent-encodes one key or value.
    public static func escape(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }

    /// Encodes ordered pairs as `k=v&k=v`.
    public static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
    }

    /// Encodes a dictionary with keys sorted, so the output is deterministic.
    public static func encode(_ parameters: [String: String]) -> String {
        encode(parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    /// Decodes `k=v&k=v` into ordered pairs (`+` is a space; invalid percent-escapes are kept literally).
    public static func decode(_ text: String) -> [(String, String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { part in
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = unescape(String(pieces[0]))
            let value = pieces.count > 1 ? unescape(String(pieces[1])) : ""
            return (key, value)
        }
    }

    private static func unescape(_ text: String) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
    )
}

extension URL {
    /// This URL with `pairs` appended to its query, strictly encoded.
    public func appendingQuery(_ pairs: [(String, String)]) -> URL {
        guard !pairs.isEmpty, var components = URLComponents(url: self, resolvingAgainstBaseURL: false) else {
            return self
        }
        let encoded = FormEncoding.encode(pairs)
        if let existing = components.percentEncodedQuery, !existing.isEmpty {
            components.percentEncodedQuery = existing + "&" + encoded
        } else {
            components.percentEncodedQuery = encoded
        }
        return components.url ?? self
    }
}
