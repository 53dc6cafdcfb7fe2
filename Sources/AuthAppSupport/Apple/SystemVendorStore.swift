// Compiled on Apple platforms only (Security). The items' names and formats are decided by each provider's
// platform-neutral reader (for example GrabCompat's GrabVendorSession), which is tested on Linux with fixtures.
#if canImport(Security)
import AuthCore
public import Foundation
import Security

/// The app's real Keychain and `UserDefaults`, where a vendor SDK left its session.
public struct SystemVendorStore: VendorStore {
    /// Creates the store.
    public init() {}

    /// `SecItemCopyMatching` for the generic password with this service and account. The account is tried as a
    /// string and then as its UTF-8 bytes, the form UberAuth's `KeychainUtility` wrote.
    public func genericPassword(service: String?, account: String) throws -> Data? {
        for accountValue in [KeychainValue.string(account), .data(Data(account.utf8))] {
            var query: [KeychainAttribute: KeychainValue] = [
                .itemClass: .genericPassword, .account: accountValue, .returnData: .bool(true), .matchLimit: .matchOne,
            ]
            if let service { query[.service] = .string(service) }
            var result: CFTypeRef?
            let status = SecItemCopyMatching(KeychainTokenStorage.cf(query), &result)
            if status == KeychainStatus.itemNotFound { continue }
            if let error = KeychainStatus.error(for: status, operation: "read") { throw error }
            return result as? Data
        }
        return nil
    }

    /// `SecItemDelete` for that item (in both account forms).
    public func removeGenericPassword(service: String?, account: String) throws {
        for accountValue in [KeychainValue.string(account), .data(Data(account.utf8))] {
            var query: [KeychainAttribute: KeychainValue] = [.itemClass: .genericPassword, .account: accountValue]
            if let service { query[.service] = .string(service) }
            let status = SecItemDelete(KeychainTokenStorage.cf(query))
            if status == KeychainStatus.itemNotFound { continue }
            if let error = KeychainStatus.error(for: status, operation: "delete") { throw error }
        }
    }

    /// `SecItemCopyMatching` for every generic password with this service, with data and attributes, in every
    /// access group the app is entitled to (no group in the query).
    public func genericPasswords(service: String) throws -> [String: Data] {
        let query: [KeychainAttribute: KeychainValue] = [
            .itemClass: .genericPassword, .service: .string(service), .returnData: .bool(true),
            .returnAttributes: .bool(true), .matchLimit: .matchAll,
        ]
        var result: CFTypeRef?
        let status = SecItemCopyMatching(KeychainTokenStorage.cf(query), &result)
        if status == KeychainStatus.itemNotFound { return [:] }
        if let error = KeychainStatus.error(for: status, operation: "list") { throw error }
        var items: [String: Data] = [:]
        for item in result as? [[String: Any]] ?? [] {
            guard let account = item[kSecAttrAccount as String] as? String, let data = item[kSecValueData as String] as? Data else { continue }
            items[account] = data
        }
        return items
    }

    /// `SecItemUpdate` of the item's data; `false` when there is no such item.
    public func replaceGenericPassword(_ data: Data, service: String, account: String) throws -> Bool {
        let match: [KeychainAttribute: KeychainValue] = [.itemClass: .genericPassword, .service: .string(service), .account: .string(account)]
        let status = SecItemUpdate(KeychainTokenStorage.cf(match), KeychainTokenStorage.cf([.valueData: .data(data)]))
        if status == KeychainStatus.itemNotFound { return false }
        if let error = KeychainStatus.error(for: status, operation: "write") { throw error }
        return true
    }

    /// `SecItemUpdate` of the item's data, or `SecItemAdd` of a new one when there is none — accessible after first
    /// unlock, as the vendor SDKs store theirs, in `accessGroup` when given.
    public func storeGenericPassword(_ data: Data, service: String, account: String, accessGroup: String?) throws {
        var match: [KeychainAttribute: KeychainValue] = [.itemClass: .genericPassword, .service: .string(service), .account: .string(account)]
        if let accessGroup { match[.accessGroup] = .string(accessGroup) }
        let status = SecItemUpdate(KeychainTokenStorage.cf(match), KeychainTokenStorage.cf([.valueData: .data(data)]))
        if status != KeychainStatus.itemNotFound {
            if let error = KeychainStatus.error(for: status, operation: "write") { throw error }
            return
        }
        var add = match
        add[.valueData] = .data(data)
        add[.accessible] = .accessibility(.afterFirstUnlock)
        let added = SecItemAdd(KeychainTokenStorage.cf(add), nil)
        if let error = KeychainStatus.error(for: added, operation: "write") { throw error }
    }

    /// `UserDefaults.standard.data(forKey:)`.
    public func userDefaultsData(forKey key: String) -> Data? {
        UserDefaults.standard.data(forKey: key)
    }

    /// `UserDefaults.standard.removeObject(forKey:)`.
    public func removeUserDefaultsValue(forKey key: String) {
        UserDefaults.standard.removeObject(forKey: key)
    }
}
#endif
