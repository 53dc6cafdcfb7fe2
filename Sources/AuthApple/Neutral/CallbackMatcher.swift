public import Foundation

/// Which callbacks a web authentication session accepts — a pure description, tested on every platform.
///
/// A custom-scheme redirect (`com.example.app:/oauth`) is matched by scheme; an `https` redirect (a claimed
/// universal link, iOS 17.4+ / macOS 14.4+) by host and path, since any app could register a scheme but only the
/// domain's owner can claim its links.
public enum CallbackMatcher: Sendable, Equatable {
    /// Match a custom URL scheme.
    case customScheme(String)
    /// Match an `https` host and path.
    case https(host: String, path: String)

    /// The matcher for `redirectURI`.
    public init(redirectURI: URL) {
        if redirectURI.scheme?.lowercased() == "https", let host = redirectURI.host {
            self = .https(host: host.lowercased(), path: redirectURI.path.isEmpty ? "/" : redirectURI.path)
        } else {
            self = .customScheme(redirectURI.scheme?.lowercased() ?? "")
        }
    }

    /// Whether `url` is a callback this matcher accepts.
    public func matches(_ url: URL) -> Bool {
        switch self {
        case .customScheme(let scheme): url.scheme?.lowercased() == scheme
        case .https(let host, let path):
            url.scheme?.lowercased() == "https" && url.host?.lowercased() == host && (url.path.isEmpty ? "/" : url.path) == path
        }
    }
}
