public import AuthCore
import AuthFileStorage
public import Foundation

/// The storage a vendor facade (Grab, Uber, OneLogin, …) uses when the app passes none: one that persists, as the
/// vendor SDKs' did, so a relaunch finds the user signed in.
///
/// On Apple platforms: the Keychain (`KeychainTokenStorage`, this device only). Elsewhere: files with owner-only
/// permissions under `$XDG_DATA_HOME/<service>` (default `~/.local/share/<service>`).
public enum PersistentTokenStorage {
    /// The default service name and directory name.
    public static let defaultService = "swift-auth-providers"

    /// The platform's persistent storage.
    ///
    /// - Parameters:
    ///   - service: the Keychain service, or the directory name elsewhere.
    ///   - accessibility: when Keychain items are readable (ignored elsewhere); by default after the first unlock,
    ///     this device only, so background refreshes work and backups carry no tokens.
    ///   - accessGroup: a Keychain access group shared with other apps of the same team (ignored elsewhere).
    public static func makeDefault(
        service: String = defaultService,
        accessibility: KeychainAccessibility = .afterFirstUnlockThisDeviceOnly,
        accessGroup: String? = nil
    ) -> any TokenStorage {
        #if canImport(Security)
            return KeychainTokenStorage(description: KeychainItemDescription(service: service, accessibility: accessibility, accessGroup: accessGroup))
        #else
            return FileTokenStorage(directory: directory(service: service, environment: ProcessInfo.processInfo.environment))
        #endif
    }

    /// Where the vendor SDKs kept their sessions, for the one-time move into this package's storage: the app's
    /// Keychain and `UserDefaults` on Apple platforms (`SystemVendorStore`); `nil` elsewhere, where they never ran.
    public static func makeVendorStore() -> (any VendorStore)? {
        #if canImport(Security)
            return SystemVendorStore()
        #else
            return nil
        #endif
    }

    /// Where files go outside Apple platforms: `$XDG_DATA_HOME/<service>`, else `$HOME/.local/share/<service>`.
    public static func directory(service: String, environment: [String: String]) -> URL {
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            return URL(fileURLWithPath: dataHome, isDirectory: true).appendingPathComponent(service, isDirectory: true)
        }
        let home = environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) } ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".local/share", isDirectory: true).appendingPathComponent(service, isDirectory: true)
    }
}
