public import Foundation

/// Where a vendor SDK kept its session: generic-password Keychain items and `UserDefaults` values. AuthApple reads
/// the real ones (`SystemVendorStore`); tests use a store filled with fixtures in the vendor's format.
///
/// Providers read a vendor's session through this once, into the app's ``TokenStorage`` (see
/// ``AuthClient/adoptVendorSession(_:removingVendorCopy:)``), so users stay signed in after the switch.
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
}
