import Foundation

/// Provider metadata by cache key (the issuer, or a custom source's key); each is loaded at most once at a time.
actor MetadataCache {
    private var loaded: [String: ProviderMetadata] = [:]
    private var inFlight: [String: Task<ProviderMetadata, any Error>] = [:]

    func metadata(
        for key: String,
        load: @escaping @Sendable () async throws -> ProviderMetadata
    ) async throws -> ProviderMetadata {
        if let metadata = loaded[key] { return metadata }
        if let task = inFlight[key] { return try await task.value }
        let task = Task { try await load() }
        inFlight[key] = task
        defer { inFlight[key] = nil }
        let metadata = try await task.value
        loaded[key] = metadata
        return metadata
    }
}
