public import AuthAppSupport
import AuthCore
import AuthTesting
public import Foundation

/// A vendor SDK's Keychain items and `UserDefaults` values, in memory: fill it with fixtures in the vendor's format.
public actor InMemoryVendorStore: VendorStore {
    private struct Item: Hashable {
        let service: String?
        let account: String
    }

    private var items: [Item: Data] = [:]
    private var accessGroups: [Item: String] = [:]
    private var defaults: [String: Data] = [:]

    /// An empty store.
    public init() {}

    /// Adds a generic-password item.
    public func setGenericPassword(_ data: Data, service: String?, account: String) {
        items[Item(service: service, account: account)] = data
    }

    /// Sets a `UserDefaults` value.
    public func setUserDefaultsData(_ data: Data, forKey key: String) {
        defaults[key] = data
    }

    /// Whether nothing is left.
    public var isEmpty: Bool { items.isEmpty && defaults.isEmpty }

    /// The item's data; a `nil` service matches any item with this account, as a Keychain query without one does.
    public func genericPassword(service: String?, account: String) -> Data? {
        items.first { $0.key.account == account && (service == nil || $0.key.service == service) }?.value
    }

    /// Deletes the matching items.
    public func removeGenericPassword(service: String?, account: String) {
        let removed = { (item: Item) in item.account == account && (service == nil || item.service == service) }
        items = items.filter { !removed($0.key) }
        accessGroups = accessGroups.filter { !removed($0.key) }
    }

    /// The items with this service, by account.
    public func genericPasswords(service: String) -> [String: Data] {
        Dictionary(items.filter { $0.key.service == service }.map { ($0.key.account, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// Replaces an existing item's data; `false` when there is none.
    public func replaceGenericPassword(_ data: Data, service: String, account: String) -> Bool {
        let item = Item(service: service, account: account)
        guard items[item] != nil else { return false }
        items[item] = data
        return true
    }

    /// Creates or replaces the item, remembering its access group (see ``accessGroup(service:account:)``).
    public func storeGenericPassword(_ data: Data, service: String, account: String, accessGroup: String?) {
        let item = Item(service: service, account: account)
        items[item] = data
        accessGroups[item] = accessGroup
    }

    /// The access group the item was stored in with ``storeGenericPassword(_:service:account:accessGroup:)``.
    public func accessGroup(service: String, account: String) -> String? {
        accessGroups[Item(service: service, account: account)]
    }

    /// The value's data.
    public func userDefaultsData(forKey key: String) -> Data? { defaults[key] }

    /// Removes the value.
    public func removeUserDefaultsValue(forKey key: String) { defaults[key] = nil }
}
