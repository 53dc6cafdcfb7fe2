public import AuthCore

/// Maps Keychain `OSStatus` values to `AuthError` — a pure function, tested on every platform.
public enum KeychainStatus {
    /// `errSecSuccess`.
    public static let success: Int32 = 0
    /// `errSecItemNotFound`.
    public static let itemNotFound: Int32 = -25300
    /// `errSecDuplicateItem`.
    public static let duplicateItem: Int32 = -25299
    /// `errSecInteractionNotAllowed`: the device is locked, or the app was prewarmed before first unlock.
    public static let interactionNotAllowed: Int32 = -25308
    /// `errSecAuthFailed`.
    public static let authFailed: Int32 = -25293
    /// `errSecMissingEntitlement`: the access group is not in the app's entitlements.
    public static let missingEntitlement: Int32 = -34018
    /// `errSecDecode`.
    public static let decode: Int32 = -26275

    /// The error for `status`, or `nil` for success.
    ///
    /// `errSecInteractionNotAllowed` is `storage_unavailable` — **transient and retryable**: a locked device must
    /// never sign the user out. A missing access-group entitlement is a configuration error that says what to add.
    public static func error(for status: Int32, operation: String) -> AuthError? {
        switch status {
        case success: return nil
        case interactionNotAllowed:
            return AuthError(.storageUnavailable, "The Keychain is locked (\(operation)); try again after the device is unlocked.")
        case missingEntitlement:
            return AuthError(.invalidConfiguration, "The Keychain access group is not in the app's entitlements (\(operation)); add it under Keychain Sharing.")
        case decode:
            return AuthError(.storageCorrupted, "A Keychain item could not be decoded (\(operation)).")
        default:
            return AuthError(.storageFailed, "The Keychain \(operation) failed with OSStatus \(status).")
        }
    }
}
