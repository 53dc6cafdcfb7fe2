public import AuthCore
public import Foundation

/// How readable a Keychain item is when the device is locked (`kSecAttrAccessible…`).
public enum KeychainAccessibility: String, Sendable, CaseIterable {
    /// After the first unlock since boot, this device only (the default: background refresh works, no backups).
    case afterFirstUnlockThisDeviceOnly
    /// After the first unlock, included in encrypted backups.
    case afterFirstUnlock
    /// Only while unlocked, this device only.
    case whenUnlockedThisDeviceOnly
    /// Only while unlocked.
    case whenUnlocked
}

/// The Keychain attributes a query uses, as platform-neutral keys; AuthApple maps each to its `kSec…` constant.
public enum KeychainAttribute: String, Sendable, Hashable, CaseIterable {
    /// `kSecClass` (always generic password here).
    case itemClass
    /// `kSecAttrService`.
    case service
    /// `kSecAttrAccount`.
    case account
    /// `kSecAttrAccessGroup`.
    case accessGroup
    /// `kSecAttrAccessible`.
    case accessible
    /// `kSecValueData`.
    case valueData
    /// `kSecReturnData`.
    case returnData
    /// `kSecReturnAttributes`.
    case returnAttributes
    /// `kSecMatchLimit`.
    case matchLimit
    /// `kSecUseDataProtectionKeychain` (macOS: use the iOS-style keychain).
    case useDataProtectionKeychain
}

/// A value of a `KeychainAttribute`.
public enum KeychainValue: Sendable, Hashable {
    /// A string.
    case string(String)
    /// Bytes.
    case data(Data)
    /// A boolean.
    case bool(Bool)
    /// `kSecClassGenericPassword`.
    case genericPassword
    /// An accessibility level.
    case accessibility(KeychainAccessibility)
    /// `kSecMatchLimitOne`.
    case matchOne
    /// `kSecMatchLimitAll`.
    case matchAll
}

/// Builds the Keychain attribute dictionaries for credentials — pure functions, tested on every platform.
///
/// Items are generic passwords: service `swift-auth-providers` (or a custom one), account = the storage key's
/// string form (provider id, issuer, client id and subject), value = the JSON of the key and the credential.
public struct KeychainItemDescription: Sendable, Hashable {
    /// The service name.
    public let service: String
    /// The accessibility of new items.
    public let accessibility: KeychainAccessibility
    /// A shared access group (for example a vendor's apps sharing sessions), or `nil` for the app's own.
    public let accessGroup: String?

    /// Creates a description.
    public init(service: String = "swift-auth-providers", accessibility: KeychainAccessibility = .afterFirstUnlockThisDeviceOnly, accessGroup: String? = nil) {
        self.service = service
        self.accessibility = accessibility
        self.accessGroup = accessGroup
    }

    /// The account for `key`.
    public func account(for key: StorageKey) -> String { key.rawValue }

    private func base() -> [KeychainAttribute: KeychainValue] {
        var query: [KeychainAttribute: KeychainValue] = [
            .itemClass: .genericPassword, .service: .string(service), .useDataProtectionKeychain: .bool(true)
        ]
        if let accessGroup { query[.accessGroup] = .string(accessGroup) }
        return query
    }

    /// Reads one item.
    public func readQuery(for key: StorageKey) -> [KeychainAttribute: KeychainValue] {
        var query = base()
        query[.account] = .string(account(for: key))
        query[.returnData] = .bool(true)
        query[.matchLimit] = .matchOne
        return query
    }

    /// Adds an item (after an update found none).
    public func addAttributes(for key: StorageKey, data: Data) -> [KeychainAttribute: KeychainValue] {
        var query = base()
        query[.account] = .string(account(for: key))
        query[.valueData] = .data(data)
        query[.accessible] = .accessibility(accessibility)
        return query
    }

    /// Finds the item to update.
    public func updateQuery(for key: StorageKey) -> [KeychainAttribute: KeychainValue] {
        var query = base()
        query[.account] = .string(account(for: key))
        return query
    }

    /// The attributes an update changes.
    public func updateAttributes(data: Data) -> [KeychainAttribute: KeychainValue] {
        [.valueData: .data(data), .accessible: .accessibility(accessibility)]
    }

    /// Deletes one item.
    public func deleteQuery(for key: StorageKey) -> [KeychainAttribute: KeychainValue] {
        updateQuery(for: key)
    }

    /// Lists every item of the service (with their data).
    public func listQuery() -> [KeychainAttribute: KeychainValue] {
        var query = base()
        query[.returnData] = .bool(true)
        query[.returnAttributes] = .bool(true)
        query[.matchLimit] = .matchAll
        return query
    }
}
