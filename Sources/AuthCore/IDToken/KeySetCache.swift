package import Foundation

/// Provider key sets by JWKS URL.
///
/// A key set is trusted for the response's `Cache-Control: max-age` (capped by the client's maximum age, which
/// also applies when the header is missing, and never shorter than the refetch interval), then fetched again, so a
/// key the provider withdrew stops validating without a restart. An expired key set whose refetch fails is not
/// used. A token whose `kid` is unknown triggers one refetch (key rotation), at most once per
/// `minimumRefetchInterval` per URL, so a stream of forged kids cannot turn us into a request amplifier. A failed
/// rotation refetch keeps the cached (unexpired) keys. Concurrent fetches of one URL share a single request.
package actor KeySetCache {
    /// A fetched key set and how long the response said it may be cached.
    struct Fetched: Sendable {
        var keySet: JSONWebKeySet
        var maxAge: TimeInterval?
    }

    private struct Entry {
        var keySet: JSONWebKeySet
        var expiresAt: Date
    }

    private var entries: [URL: Entry] = [:]
    private var lastRefetch: [URL: Date] = [:]
    private let fetches = SingleFlight<URL, Fetched>()

    /// The key for (`kid`, `algorithm`) at `url`, refetching once if it is unknown and the rate limit allows.
    func key(
        id keyID: String?,
        for algorithm: JWSAlgorithm,
        at url: URL,
        now: Date,
        minimumRefetchInterval: TimeInterval,
        maximumAge: TimeInterval,
        fetch: @escaping @Sendable () async throws -> Fetched
    ) async throws -> JSONWebKey {
        let lifetime = { (fetched: Fetched) -> TimeInterval in
            min(max(fetched.maxAge ?? maximumAge, minimumRefetchInterval), maximumAge)
        }
        let cached: JSONWebKeySet
        if let entry = entries[url], entry.expiresAt > now {
            cached = entry.keySet
        } else {
            cached = try await load(url, now: now, lifetime: lifetime, fetch: fetch)
        }
        do {
            return try cached.key(id: keyID, for: algorithm)
        } catch let error as AuthError where error.code == .unknownKeyID {
            if let last = lastRefetch[url], now.timeIntervalSince(last) < minimumRefetchInterval { throw error }
            lastRefetch[url] = now
            guard let refreshed = try? await load(url, now: now, lifetime: lifetime, fetch: fetch) else { throw error }
            return try refreshed.key(id: keyID, for: algorithm)
        }
    }

    private func load(
        _ url: URL,
        now: Date,
        lifetime: (Fetched) -> TimeInterval,
        fetch: @escaping @Sendable () async throws -> Fetched
    ) async throws -> JSONWebKeySet {
        let fetched = try await fetches.run(url, fetch)
        entries[url] = Entry(keySet: fetched.keySet, expiresAt: now.addingTimeInterval(lifetime(fetched)))
        return fetched.keySet
    }

    /// The `max-age` of a `Cache-Control` header in seconds; `0` for `no-store` / `no-cache`; `nil` without one.
    package static func maxAge(cacheControl: String?) -> TimeInterval? {
        guard let cacheControl else { return nil }
        var result: TimeInterval?
        for directive in cacheControl.lowercased().split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            switch parts.first {
            case "no-store", "no-cache": return 0
            case "max-age" where parts.count == 2:
                let digits = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                if digits.count <= 10, digits.allSatisfy(\.isASCII), let value = Int(digits), value >= 0 { result = TimeInterval(value) }
            default: continue
            }
        }
        return result
    }
}
