package import Foundation

/// The Keychain queries `SystemVendorStore` sends for the items vendor SDKs left behind — pure functions, so every
/// decision in them is tested on Linux while the Apple shell only hands them to `SecItem…`.
///
/// Two choices differ from this package's own items (`KeychainItemDescription`), because the items are the vendors':
/// no `kSecUseDataProtectionKeychain` (the vendor SDKs never set it, so on macOS their items live in the file-based
/// keychain, where a query with it would not find them), and new items are readable after the first unlock (as the
/// vendor SDKs wrote theirs), not "this device only".
package enum VendorKeychainQueries {
    /// The forms an account is looked up in, in order: as a string, then as its UTF-8 bytes — the form UberAuth's
    /// `KeychainUtility` wrote.
    package static func accountForms(_ account: String) -> [KeychainValue] {
        [.string(account), .data(Data(account.utf8))]
    }

    /// Reads the generic password with this account form (and service, when given): its data, one item.
    package static func read(service: String?, account: KeychainValue) -> [KeychainAttribute: KeychainValue] {
        var query = delete(service: service, account: account)
        query[.returnData] = .bool(true)
        query[.matchLimit] = .matchOne
        return query
    }

    /// Deletes the generic password with this account form (and service, when given).
    package static func delete(service: String?, account: KeychainValue) -> [KeychainAttribute: KeychainValue] {
        var query: [KeychainAttribute: KeychainValue] = [.itemClass: .genericPassword, .account: account]
        if let service { query[.service] = .string(service) }
        return query
    }

    /// Lists every generic password of a service, with data and attributes, in every access group the app is
    /// entitled to (no group in the query).
    package static func list(service: String) -> [KeychainAttribute: KeychainValue] {
        [.itemClass: .genericPassword, .service: .string(service), .returnData: .bool(true), .returnAttributes: .bool(true), .matchLimit: .matchAll]
    }

    /// Finds the item a write replaces: service and account, in `accessGroup` when given.
    package static func match(service: String, account: String, accessGroup: String? = nil) -> [KeychainAttribute: KeychainValue] {
        var query: [KeychainAttribute: KeychainValue] = [.itemClass: .genericPassword, .service: .string(service), .account: .string(account)]
        if let accessGroup { query[.accessGroup] = .string(accessGroup) }
        return query
    }

    /// What an update of an existing item changes: its data only (its accessibility stays the vendor's).
    package static func update(data: Data) -> [KeychainAttribute: KeychainValue] {
        [.valueData: .data(data)]
    }

    /// A new item, when an update found none: readable after the first unlock, as the vendor SDKs stored theirs.
    package static func add(_ data: Data, service: String, account: String, accessGroup: String?) -> [KeychainAttribute: KeychainValue] {
        var query = match(service: service, account: account, accessGroup: accessGroup)
        query[.valueData] = .data(data)
        query[.accessible] = .accessibility(.afterFirstUnlock)
        return query
    }
}
