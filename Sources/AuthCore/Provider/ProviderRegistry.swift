import Foundation

/// Selects a provider by name: maps ids to factories that build a provider from its configuration.
///
/// ```swift
/// var registry = ProviderRegistry()
/// registry.register(OpenIDProvider.self)
/// let provider = try registry.provider(named: "oidc", configuration: config)
/// ```
///
/// `AuthProviders.ProviderRegistry.builtIn` holds every provider of this package; an app may instead start
/// empty and register only the providers it ships, and third-party packages add theirs the same way.
public struct ProviderRegistry: Sendable {
    /// Builds a provider from its configuration.
    package typealias Factory = @Sendable (ProviderConfiguration) throws -> any AuthProvider

    /// One registered provider.
    package struct Entry: Sendable {
        /// The provider's id.
        package let id: ProviderID
        /// Its display name.
        package let displayName: String
        /// Its factory.
        package let factory: Factory
    }

    private var entries: [ProviderID: Entry] = [:]

    /// An empty registry.
    public init() {}

    /// Registers a provider type under its ``AuthProvider/id``; a later registration of the same id replaces it.
    public mutating func register<Provider: AuthProvider>(_ type: Provider.Type) {
        register(id: Provider.id, displayName: Provider.displayName) { try Provider(configuration: $0) }
    }

    /// Registers a factory under `id`; a later registration of the same id replaces it.
    ///
    /// Package-only: a provider is registered by its type (``register(_:)``); AuthProviders registers GOV.UK's two
    /// provider types (app, web service) under one id this way.
    package mutating func register(
        id: ProviderID,
        displayName: String? = nil,
        factory: @escaping @Sendable (ProviderConfiguration) throws -> any AuthProvider
    ) {
        entries[id] = Entry(id: id, displayName: displayName ?? id.rawValue, factory: factory)
    }

    /// The registered ids, sorted.
    public var providerIDs: [ProviderID] { entries.keys.sorted() }

    /// The registered entries, sorted by id.
    package var registeredProviders: [Entry] { providerIDs.compactMap { entries[$0] } }

    /// The name to show for the provider registered under `id` (a sign-in page's button), or `nil` when none is.
    public func displayName(for id: ProviderID) -> String? { entries[id]?.displayName }

    /// Whether a provider is registered under `name` (case-insensitive).
    public func contains(_ name: String) -> Bool { entries[ProviderID(rawValue: name)] != nil }

    /// Builds the provider registered under `name` (case-insensitive) from `configuration`.
    ///
    /// - Throws: `unknown_provider` listing the registered ids; or the provider's configuration error.
    public func provider(named name: String, configuration: ProviderConfiguration) throws -> any AuthProvider {
        let id = ProviderID(rawValue: name)
        guard let entry = entries[id] else {
            let known = providerIDs.map(\.rawValue).joined(separator: ", ")
            throw AuthError(
                .unknownProvider,
                "No provider is registered as '\(name)'. Known providers: \(known.isEmpty ? "none" : known)."
            )
        }
        do {
            return try entry.factory(configuration)
        } catch let error as AuthError {
            throw error.attributed(to: id)
        } catch {
            throw AuthError(.invalidConfiguration, "The '\(id)' configuration is invalid.", providerID: id, underlying: error)
        }
    }

    /// Builds the provider registered under `name` from a Foundation dictionary (for example from Info.plist).
    public func provider(named name: String, configuration: [String: Any]) throws -> any AuthProvider {
        try provider(named: name, configuration: try ProviderConfiguration(dictionary: configuration))
    }
}
