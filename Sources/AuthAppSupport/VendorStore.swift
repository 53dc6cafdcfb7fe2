import AuthCore
public import Foundation

/// Where a vendor SDK kept its session: generic-password Keychain items and `UserDefaults` values. On Apple platforms
/// `SystemVendorStore` reads the real ones; tests use AuthEmulators' store filled with fixtures in the vendor's format.
///
/// The compatibility modules read a vendor's session through this once, into the app's `TokenStorage` (see
/// ``AuthCore/AuthClient/adoptVendorSession(_:removingVendorCopy:)``), so users stay signed in after the switch.
public protocol VendorStore: Sendable {
    /// The data of the generic-password item with this service and account, or `nil` when there is none. A `nil`
    /// service matches by account alone (OneLogin's SDK stored its item without one).
    func genericPassword(service: String?, account: String) async throws -> Data?
    /// Deletes that item (no error when there is none).
    func removeGenericPassword(service: String?, account: String) async throws
    /// The data stored in `UserDefaults` under `key`, or `nil`.
    func userDefaultsData(forKey key: String) async -> Data?
    /// Removes the `UserDefaults` value under `key`.
    func removeUserDefaultsValue(forKey key: String) async
    /// Every generic-password item with this service the app can read (its own and its shared access groups'),
    /// keyed by account: a vendor's apps that share sessions keep one item each (Schibsted's simplified login).
    func genericPasswords(service: String) async throws -> [String: Data]
    /// Replaces the data of the existing item with this service and account; `false` when there is none (the owner
    /// removed it meanwhile), in which case nothing is written.
    func replaceGenericPassword(_ data: Data, service: String, account: String) async throws -> Bool
    /// Creates the generic-password item with this service and account, or replaces its data, in `accessGroup`
    /// when given (else the app's default group): for a vendor SDK's other apps to read the app's session in their
    /// format (Schibsted's simplified login).
    func storeGenericPassword(_ data: Data, service: String, account: String, accessGroup: String?) async throws
}

extension VendorStore {
    /// Stores written before listing existed cannot list: `storage_unavailable`, saying so.
    public func genericPasswords(service: String) async throws -> [String: Data] {
        throw AuthError(.storageUnavailable, "This VendorStore cannot list the items of service '\(service)'; implement genericPasswords(service:).")
    }

    /// Stores written before replacing existed cannot replace: `storage_unavailable`, saying so.
    public func replaceGenericPassword(_ data: Data, service: String, account: String) async throws -> Bool {
        throw AuthError(.storageUnavailable, "This VendorStore cannot update the item of service '\(service)'; implement replaceGenericPassword(_:service:account:).")
    }

    /// Stores written before writing existed cannot write: `storage_unavailable`, saying so.
    public func storeGenericPassword(_ data: Data, service: String, account: String, accessGroup: String?) async throws {
        throw AuthError(.storageUnavailable, "This VendorStore cannot write the item of service '\(service)'; implement storeGenericPassword(_:service:account:accessGroup:).")
    }
}
