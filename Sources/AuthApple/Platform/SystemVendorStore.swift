// Compiled on Apple platforms only (Security). The items' names and formats are decided by each provider's
// platform-neutral reader (for example AuthGrab's GrabVendorSession), which is tested on Linux with fixtures.
#if canImport(Security)
public import AuthCore
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
