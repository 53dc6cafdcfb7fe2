import Foundation

/// Provider metadata by cache key (the issuer, or a custom source's key); each is loaded at most once at a time.
actor MetadataCache {
    private var loaded: [String: ProviderMetadata] = [:]
    private let loads = SingleFlight<String, ProviderMetadata>()

    func metadata(
        for key: String,
        load: @escaping @Sendable () async throws -> ProviderMetadata
    ) async throws -> ProviderMetadata {
        if let metadata = loaded[key] { return metadata }
        let metadata = try await loads.run(key, load)
        loaded[key] = metadata
        return metadata
    }
}
