import Foundation

/// Provider key sets by JWKS URL.
///
/// A token whose `kid` is unknown triggers one refetch (key rotation), at most once per `minimumRefetchInterval`
/// per URL, so a stream of forged kids cannot turn us into a request amplifier. A failed refetch keeps the
/// cached keys. Concurrent fetches of one URL share a single request.
actor KeySetCache {
    private var keySets: [URL: JSONWebKeySet] = [:]
    private var lastRefetch: [URL: Date] = [:]
    private var inFlight: [URL: Task<JSONWebKeySet, any Error>] = [:]

    /// The key for (`kid`, `algorithm`) at `url`, refetching once if it is unknown and the rate limit allows.
    func key(
        id keyID: String?,
        for algorithm: JWSAlgorithm,
        at url: URL,
        now: Date,
        minimumRefetchInterval: TimeInterval,
        fetch: @escaping @Sendable () async throws -> JSONWebKeySet
    ) async throws -> JSONWebKey {
        let cached: JSONWebKeySet
        if let keySet = keySets[url] {
            cached = keySet
        } else {
            cached = try await load(url, fetch: fetch)
        }
        do {
            return try cached.key(id: keyID, for: algorithm)
        } catch let error as AuthError where error.code == .unknownKeyID {
            if let last = lastRefetch[url], now.timeIntervalSince(last) < minimumRefetchInterval { throw error }
            lastRefetch[url] = now
            guard let refreshed = try? await load(url, fetch: fetch) else { throw error }
            return try refreshed.key(id: keyID, for: algorithm)
        }
    }

    private func load(
        _ url: URL,
        fetch: @escaping @Sendable () async throws -> JSONWebKeySet
    ) async throws -> JSONWebKeySet {
        if let task = inFlight[url] { return try await task.value }
        let task = Task { try await fetch() }
        inFlight[url] = task
        defer { inFlight[url] = nil }
        let keySet = try await task.value
        keySets[url] = keySet
        return keySet
    }
}
