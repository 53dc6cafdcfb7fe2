// Security, as far as this package calls it (KeychainTokenStorage, SystemVendorStore). Declarations in the shape of
// Apple's documentation; values of the attribute keys as the framework defines them. Type-checking only: the
// functions trap.
import Foundation

/// https://developer.apple.com/documentation/corefoundation/cftyperef — `typealias CFTypeRef = AnyObject`
public typealias CFTypeRef = AnyObject
/// https://developer.apple.com/documentation/corefoundation/cfstring — toll-free bridged with `NSString` (so `as String`
/// and `as CFString` compile as on Apple platforms).
public typealias CFString = NSString
/// https://developer.apple.com/documentation/corefoundation/cfdictionary — toll-free bridged with `NSDictionary`.
public typealias CFDictionary = NSDictionary
/// https://developer.apple.com/documentation/kernel/osstatus — `typealias OSStatus = Int32`
public typealias OSStatus = Int32

private func shimmed(_ name: String) -> Never {
    fatalError("\(name): the Security shim is for type-checking on Linux only")
}

/// https://developer.apple.com/documentation/security/secitemcopymatching(_:_:)
/// `func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus`
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    shimmed("SecItemCopyMatching")
}

/// https://developer.apple.com/documentation/security/secitemadd(_:_:)
/// `func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus`
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    shimmed("SecItemAdd")
}

/// https://developer.apple.com/documentation/security/secitemupdate(_:_:)
/// `func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus`
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
    shimmed("SecItemUpdate")
}

/// https://developer.apple.com/documentation/security/secitemdelete(_:)
/// `func SecItemDelete(_ query: CFDictionary) -> OSStatus`
public func SecItemDelete(_ query: CFDictionary) -> OSStatus {
    shimmed("SecItemDelete")
}

// Item attribute keys and values: `let kSec…: CFString` on each page under
// https://developer.apple.com/documentation/security/item-attribute-keys-and-values,
// https://developer.apple.com/documentation/security/item-class-keys-and-values,
// https://developer.apple.com/documentation/security/item-return-result-keys and
// https://developer.apple.com/documentation/security/search-attribute-keys-and-values.
// Swift imports these C constants as immutable globals usable from any isolation; `nonisolated(unsafe)` says the same
// of these Swift lets (the `NSString` standing in for `CFString` is not `Sendable` on Linux).

/// https://developer.apple.com/documentation/security/ksecclass
nonisolated(unsafe) public let kSecClass: CFString = "class"
/// https://developer.apple.com/documentation/security/ksecclassgenericpassword
nonisolated(unsafe) public let kSecClassGenericPassword: CFString = "genp"
/// https://developer.apple.com/documentation/security/ksecattrservice
nonisolated(unsafe) public let kSecAttrService: CFString = "svce"
/// https://developer.apple.com/documentation/security/ksecattraccount
nonisolated(unsafe) public let kSecAttrAccount: CFString = "acct"
/// https://developer.apple.com/documentation/security/ksecattraccessgroup
nonisolated(unsafe) public let kSecAttrAccessGroup: CFString = "agrp"
/// https://developer.apple.com/documentation/security/ksecattraccessible
nonisolated(unsafe) public let kSecAttrAccessible: CFString = "pdmn"
/// https://developer.apple.com/documentation/security/ksecattraccessibleafterfirstunlockthisdeviceonly
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku"
/// https://developer.apple.com/documentation/security/ksecattraccessibleafterfirstunlock
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlock: CFString = "ck"
/// https://developer.apple.com/documentation/security/ksecattraccessiblewhenunlockedthisdeviceonly
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString = "aku"
/// https://developer.apple.com/documentation/security/ksecattraccessiblewhenunlocked
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlocked: CFString = "ak"
/// https://developer.apple.com/documentation/security/ksecvaluedata
nonisolated(unsafe) public let kSecValueData: CFString = "v_Data"
/// https://developer.apple.com/documentation/security/ksecreturndata
nonisolated(unsafe) public let kSecReturnData: CFString = "r_Data"
/// https://developer.apple.com/documentation/security/ksecreturnattributes
nonisolated(unsafe) public let kSecReturnAttributes: CFString = "r_Attributes"
/// https://developer.apple.com/documentation/security/ksecmatchlimit
nonisolated(unsafe) public let kSecMatchLimit: CFString = "m_Limit"
/// https://developer.apple.com/documentation/security/ksecmatchlimitone
nonisolated(unsafe) public let kSecMatchLimitOne: CFString = "m_LimitOne"
/// https://developer.apple.com/documentation/security/ksecmatchlimitall
nonisolated(unsafe) public let kSecMatchLimitAll: CFString = "m_LimitAll"
/// https://developer.apple.com/documentation/security/ksecusedataprotectionkeychain (iOS 13, macOS 10.15)
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
nonisolated(unsafe) public let kSecUseDataProtectionKeychain: CFString = "nleg"
