import AuthAppSupport
import AuthCore
import Foundation
import Testing

@Suite("Keychain storage's platform-neutral decisions: queries and status mapping")
struct KeychainDecisionTests {
    private let key = StorageKey(providerID: "schibsted", issuer: "https://login.schibsted.com", clientID: "abc", account: "user-1")

    @Test("Read, add, update, delete and list queries for every option")
    func keychainQueries() {
        for accessibility in KeychainAccessibility.allCases {
            for group in [nil, "ABCDE12345.com.schibsted.simplifiedLogin"] as [String?] {
                let description = KeychainItemDescription(accessibility: accessibility, accessGroup: group)
                let common: [KeychainAttribute: KeychainValue] = [
                    .itemClass: .genericPassword, .service: .string("swift-auth-providers"), .useDataProtectionKeychain: .bool(true),
                ].merging(group.map { [.accessGroup: .string($0)] } ?? [:]) { a, _ in a }
                let account: [KeychainAttribute: KeychainValue] = [.account: .string(key.rawValue)]

                #expect(description.readQuery(for: key) == common.merging(account) { a, _ in a }.merging([.returnData: .bool(true), .matchLimit: .matchOne]) { a, _ in a })
                #expect(description.addAttributes(for: key, data: Data([1, 2])) == common.merging(account) { a, _ in a }.merging([.valueData: .data(Data([1, 2])), .accessible: .accessibility(accessibility)]) { a, _ in a })
                #expect(description.updateQuery(for: key) == common.merging(account) { a, _ in a })
                #expect(description.updateAttributes(data: Data([3])) == [.valueData: .data(Data([3])), .accessible: .accessibility(accessibility)])
                #expect(description.deleteQuery(for: key) == description.updateQuery(for: key))
                #expect(description.listQuery() == common.merging([.returnData: .bool(true), .returnAttributes: .bool(true), .matchLimit: .matchAll]) { a, _ in a })
            }
        }
        #expect(KeychainItemDescription().accessibility == .afterFirstUnlockThisDeviceOnly)
        // Accounts keep providers, issuers, clients and users apart.
        let other = StorageKey(providerID: "schibsted", issuer: "https://login.schibsted.com", clientID: "abc", account: "user-2")
        #expect(KeychainItemDescription().account(for: key) != KeychainItemDescription().account(for: other))
    }

    @Test("OSStatus mapping: a locked keychain is transient and never signs the user out")
    func statusMapping() {
        #expect(KeychainStatus.error(for: 0, operation: "read") == nil)
        let locked = KeychainStatus.error(for: -25308, operation: "read")
        #expect(locked?.code == .storageUnavailable)
        #expect(locked?.isRetryable == true)
        #expect(KeychainStatus.error(for: -34018, operation: "write")?.code == .invalidConfiguration)
        #expect(KeychainStatus.error(for: -34018, operation: "write")?.message.contains("Keychain Sharing") == true)
        #expect(KeychainStatus.error(for: -26275, operation: "read")?.code == .storageCorrupted)
        let other = KeychainStatus.error(for: -25293, operation: "write")
        #expect(other?.code == .storageFailed && other?.isRetryable == false)
        #expect(other?.message.contains("-25293") == true)
    }
}
