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
                    .itemClass: .genericPassword, .service: .string("swift-auth-providers"), .useDataProtectionKeychain: .bool(true)
                ].merging(group.map { [.accessGroup: .string($0)] } ?? [:]) { a, _ in a }
                let account: [KeychainAttribute: KeychainValue] = [.account: .string(key.rawValue)]

                #expect(description.readQuery(for: key) == common.merging(account) { a, _ in a }.merging([.returnData: .bool(true), .matchLimit: .matchOne]) { a, _ in a })
                #expect(
                    description.addAttributes(for: key, data: Data([1, 2]))
                        == common.merging(account) { a, _ in a }.merging([.valueData: .data(Data([1, 2])), .accessible: .accessibility(accessibility)]) { a, _ in a })
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

@Suite("The vendor SDKs' Keychain items: the queries SystemVendorStore sends")
struct VendorKeychainQueryTests {
    @Test("An account is tried as a string, then as its UTF-8 bytes (UberAuth's KeychainUtility form); reads and deletes name the service only when given")
    func readAndDeleteInBothAccountForms() {
        let forms = VendorKeychainQueries.accountForms("uber.token")
        #expect(forms == [.string("uber.token"), .data(Data("uber.token".utf8))])
        for service in [nil, "com.grab.idpartner"] as [String?] {
            for form in forms {
                var expected: [KeychainAttribute: KeychainValue] = [.itemClass: .genericPassword, .account: form]
                if let service { expected[.service] = .string(service) }
                #expect(VendorKeychainQueries.delete(service: service, account: form) == expected)
                expected[.returnData] = .bool(true)
                expected[.matchLimit] = .matchOne
                #expect(VendorKeychainQueries.read(service: service, account: form) == expected)
            }
        }
    }

    @Test("Vendor items are looked up without kSecUseDataProtectionKeychain, where the vendor SDKs wrote them, and listed across access groups")
    func vendorItemsOutsideTheDataProtectionKeychain() {
        let queries = [
            VendorKeychainQueries.read(service: "s", account: .string("a")), VendorKeychainQueries.delete(service: nil, account: .string("a")),
            VendorKeychainQueries.list(service: "s"), VendorKeychainQueries.match(service: "s", account: "a", accessGroup: "T.group"),
            VendorKeychainQueries.add(Data([1]), service: "s", account: "a", accessGroup: nil)
        ]
        #expect(queries.allSatisfy { $0[.useDataProtectionKeychain] == nil })
        #expect(
            VendorKeychainQueries.list(service: "s") == [
                .itemClass: .genericPassword, .service: .string("s"), .returnData: .bool(true), .returnAttributes: .bool(true), .matchLimit: .matchAll
            ])
        #expect(VendorKeychainQueries.list(service: "s")[.accessGroup] == nil)
    }

    @Test("A write updates the data only; a new item is readable after first unlock as the vendor SDKs stored theirs, in the shared group when given")
    func writesKeepTheVendorsAccessibility() {
        #expect(VendorKeychainQueries.update(data: Data([7])) == [.valueData: .data(Data([7]))])
        #expect(VendorKeychainQueries.match(service: "s", account: "a") == [.itemClass: .genericPassword, .service: .string("s"), .account: .string("a")])
        for group in [nil, "ABCDE12345.com.schibsted.simplifiedLogin"] as [String?] {
            var expected: [KeychainAttribute: KeychainValue] = [
                .itemClass: .genericPassword, .service: .string("s"), .account: .string("a"),
                .valueData: .data(Data([9])), .accessible: .accessibility(.afterFirstUnlock)
            ]
            if let group { expected[.accessGroup] = .string(group) }
            #expect(VendorKeychainQueries.add(Data([9]), service: "s", account: "a", accessGroup: group) == expected)
            #expect(VendorKeychainQueries.match(service: "s", account: "a", accessGroup: group)[.accessGroup] == group.map { .string($0) })
        }
    }
}
