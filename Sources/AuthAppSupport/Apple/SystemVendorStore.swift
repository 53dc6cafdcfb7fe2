// Built on Apple platforms (Security); type-checked on Linux against Shims/ by Scripts/ci/apple-typecheck.sh.
// The queries are the platform-neutral VendorKeychainQueries and the items' names and formats each provider's reader
// (for example GrabCompat's GrabVendorSession), all tested on Linux.
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
            for accountValue in VendorKeychainQueries.accountForms(account) {
                var result: CFTypeRef?
                let status = SecItemCopyMatching(KeychainTokenStorage.cf(VendorKeychainQueries.read(service: service, account: accountValue)), &result)
                if status == KeychainStatus.itemNotFound { continue }
                if let error = KeychainStatus.error(for: status, operation: "read") { throw error }
                return result as? Data
            }
            return nil
        }

        /// `SecItemDelete` for that item (in both account forms).
        public func removeGenericPassword(service: String?, account: String) throws {
            for accountValue in VendorKeychainQueries.accountForms(account) {
                let status = SecItemDelete(KeychainTokenStorage.cf(VendorKeychainQueries.delete(service: service, account: accountValue)))
                if status == KeychainStatus.itemNotFound { continue }
                if let error = KeychainStatus.error(for: status, operation: "delete") { throw error }
            }
        }

        /// `SecItemCopyMatching` for every generic password with this service, with data and attributes, in every
        /// access group the app is entitled to (no group in the query).
        public func genericPasswords(service: String) throws -> [String: Data] {
            var result: CFTypeRef?
            let status = SecItemCopyMatching(KeychainTokenStorage.cf(VendorKeychainQueries.list(service: service)), &result)
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
            let match = VendorKeychainQueries.match(service: service, account: account)
            let status = SecItemUpdate(KeychainTokenStorage.cf(match), KeychainTokenStorage.cf(VendorKeychainQueries.update(data: data)))
            if status == KeychainStatus.itemNotFound { return false }
            if let error = KeychainStatus.error(for: status, operation: "write") { throw error }
            return true
        }

        /// `SecItemUpdate` of the item's data, or `SecItemAdd` of a new one when there is none — accessible after first
        /// unlock, as the vendor SDKs store theirs, in `accessGroup` when given.
        public func storeGenericPassword(_ data: Data, service: String, account: String, accessGroup: String?) throws {
            let match = VendorKeychainQueries.match(service: service, account: account, accessGroup: accessGroup)
            let status = SecItemUpdate(KeychainTokenStorage.cf(match), KeychainTokenStorage.cf(VendorKeychainQueries.update(data: data)))
            if status != KeychainStatus.itemNotFound {
                if let error = KeychainStatus.error(for: status, operation: "write") { throw error }
                return
            }
            let add = VendorKeychainQueries.add(data, service: service, account: account, accessGroup: accessGroup)
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
