// Built on Apple platforms (Security); type-checked on Linux against Shims/ by Scripts/ci/apple-typecheck.sh.
// Every decision — attributes, accessibility, status mapping — is
// in the platform-neutral KeychainItemDescription and KeychainStatus, which are tested on Linux.
#if canImport(Security)
    public import AuthCore
    import Foundation
    import Security

    /// Keeps credentials in the Keychain as generic-password items (see `KeychainItemDescription`).
    ///
    /// `errSecInteractionNotAllowed` (a locked device, a prewarmed app) is `storage_unavailable`: retryable, and it
    /// never signs the user out.
    public actor KeychainTokenStorage: TokenStorage {
        private struct Record: Codable {
            var key: StorageKey
            var credential: Credential
        }

        /// The item description.
        public nonisolated let description: KeychainItemDescription

        /// Creates a storage; pass an access group to share sessions between a vendor's apps.
        public init(description: KeychainItemDescription = KeychainItemDescription()) {
            self.description = description
        }

        /// The credential under `key`.
        public func credential(for key: StorageKey) throws -> Credential? {
            var result: CFTypeRef?
            let status = SecItemCopyMatching(Self.cf(description.readQuery(for: key)), &result)
            if status == KeychainStatus.itemNotFound { return nil }
            if let error = KeychainStatus.error(for: status, operation: "read") { throw error }
            guard let data = result as? Data else { throw AuthError(.storageCorrupted, "A Keychain item has no data.") }
            return try Self.decode(data).credential
        }

        /// Stores `credential` under `key` (update, else add).
        public func store(_ credential: Credential, for key: StorageKey) throws {
            let data = try Self.encode(Record(key: key, credential: credential))
            var status = SecItemUpdate(Self.cf(description.updateQuery(for: key)), Self.cf(description.updateAttributes(data: data)))
            if status == KeychainStatus.itemNotFound {
                status = SecItemAdd(Self.cf(description.addAttributes(for: key, data: data)), nil)
            }
            if let error = KeychainStatus.error(for: status, operation: "write") { throw error }
        }

        /// Removes the credential under `key`.
        public func removeCredential(for key: StorageKey) throws {
            let status = SecItemDelete(Self.cf(description.deleteQuery(for: key)))
            if status == KeychainStatus.itemNotFound { return }
            if let error = KeychainStatus.error(for: status, operation: "delete") { throw error }
        }

        /// Every key with a readable credential.
        public func storedKeys() throws -> [StorageKey] {
            var result: CFTypeRef?
            let status = SecItemCopyMatching(Self.cf(description.listQuery()), &result)
            if status == KeychainStatus.itemNotFound { return [] }
            if let error = KeychainStatus.error(for: status, operation: "list") { throw error }
            let items = result as? [[String: Any]] ?? []
            return items.compactMap { ($0[kSecValueData as String] as? Data).flatMap { try? Self.decode($0).key } }
        }

        private static func encode(_ record: Record) throws -> Data {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .secondsSince1970
            return try encoder.encode(record)
        }

        private static func decode(_ data: Data) throws -> Record {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .secondsSince1970
            do {
                return try decoder.decode(Record.self, from: data)
            } catch {
                throw AuthError(.storageCorrupted, "A Keychain credential is corrupted; sign in again to replace it.")
            }
        }

        /// The neutral description as Security's dictionary.
        static func cf(_ attributes: [KeychainAttribute: KeychainValue]) -> CFDictionary {
            var dictionary: [String: Any] = [:]
            for (attribute, value) in attributes {
                dictionary[key(attribute)] = object(value)
            }
            return dictionary as CFDictionary
        }

        private static func key(_ attribute: KeychainAttribute) -> String {
            switch attribute {
            case .itemClass: kSecClass as String
            case .service: kSecAttrService as String
            case .account: kSecAttrAccount as String
            case .accessGroup: kSecAttrAccessGroup as String
            case .accessible: kSecAttrAccessible as String
            case .valueData: kSecValueData as String
            case .returnData: kSecReturnData as String
            case .returnAttributes: kSecReturnAttributes as String
            case .matchLimit: kSecMatchLimit as String
            case .useDataProtectionKeychain: kSecUseDataProtectionKeychain as String
            }
        }

        private static func object(_ value: KeychainValue) -> Any {
            switch value {
            case .string(let text): text
            case .data(let data): data
            case .bool(let flag): flag
            case .genericPassword: kSecClassGenericPassword
            case .matchOne: kSecMatchLimitOne
            case .matchAll: kSecMatchLimitAll
            case .accessibility(let level):
                switch level {
                case .afterFirstUnlockThisDeviceOnly: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
                case .afterFirstUnlock: kSecAttrAccessibleAfterFirstUnlock
                case .whenUnlockedThisDeviceOnly: kSecAttrAccessibleWhenUnlockedThisDeviceOnly
                case .whenUnlocked: kSecAttrAccessibleWhenUnlocked
                }
            }
        }
    }
#endif
