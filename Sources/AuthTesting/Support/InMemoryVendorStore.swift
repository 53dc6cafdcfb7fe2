public import AuthCore
public import Foundation

/// A vendor SDK's Keychain items and `UserDefaults` values, in memory: fill it with fixtures in the vendor's format.
public actor InMemoryVendorStore: VendorStore {
    private struct Item: Hashable {
        let service: String
        let account: String
    }

    private var items: [Item: Data] = [:]
    private var defaults: [String: Data] = [:]

    /// An empty store.
    public init() {}

    /// Adds a generic-password item.
    public func setGenericPassword(_ data: Data, service: String, account: String) {
        items[Item(service: service, account: account)] = data
    }

    /// Sets a `UserDefaults` value.
    public func setUserDefaultsData(_ data: Data, forKey key: String) {
        defaults[key] = data
    }

    /// Whether nothing is left.
    public var isEmpty: Bool { items.isEmpty && defaults.isEmpty }

    /// The item's data.
    public func genericPassword(service: String, account: String) -> Data? {
        items[Item(service: service, account: account)]
    }

    /// Deletes the item.
    public func removeGenericPassword(service: String, account: String) {
        items[Item(service: service, account: account)] = nil
    }

    /// The value's data.
    public func userDefaultsData(forKey key: String) -> Data? { defaults[key] }

    /// Removes the value.
    public func removeUserDefaultsValue(forKey key: String) { defaults[key] = nil }
}
