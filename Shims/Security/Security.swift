// Security, as far as this package calls it (KeychainTokenStorage, SystemVendorStore, AuthURLSession's
// URLSessionClientIdentity). Declarations in the shape of Apple's documentation; values of the attribute keys as the
// framework defines them. Type-checking only: the functions trap.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// https://developer.apple.com/documentation/corefoundation/cftyperef — `typealias CFTypeRef = AnyObject`
public typealias CFTypeRef = AnyObject
/// https://developer.apple.com/documentation/corefoundation/cfstring — toll-free bridged with `NSString` (so `as String`
/// and `as CFString` compile as on Apple platforms).
public typealias CFString = NSString
/// https://developer.apple.com/documentation/corefoundation/cfdictionary — toll-free bridged with `NSDictionary`.
public typealias CFDictionary = NSDictionary
/// https://developer.apple.com/documentation/kernel/osstatus — `typealias OSStatus = Int32`
public typealias OSStatus = Int32
/// https://developer.apple.com/documentation/corefoundation/cfdata — toll-free bridged with `NSData`.
public typealias CFData = NSData
/// https://developer.apple.com/documentation/corefoundation/cfarray — toll-free bridged with `NSArray`.
public typealias CFArray = NSArray
/// https://developer.apple.com/documentation/corefoundation/cftypeid — `typealias CFTypeID = UInt`
public typealias CFTypeID = UInt

/// https://developer.apple.com/documentation/security/secidentity — `class SecIdentity`, a Core Foundation type (not
/// `Sendable`).
public final class SecIdentity {}
/// https://developer.apple.com/documentation/security/seccertificate — `class SecCertificate`, a Core Foundation type
/// (not `Sendable`).
public final class SecCertificate {}

/// https://developer.apple.com/documentation/security/errsecsuccess — `var errSecSuccess: OSStatus { get }`
public var errSecSuccess: OSStatus { 0 }
/// https://developer.apple.com/documentation/security/errsecauthfailed — `var errSecAuthFailed: OSStatus { get }`
public var errSecAuthFailed: OSStatus { -25293 }
/// https://developer.apple.com/documentation/security/errsecdecode — `var errSecDecode: OSStatus { get }`
public var errSecDecode: OSStatus { -26275 }
/// https://developer.apple.com/documentation/security/errsecpkcs12verifyfailure — `var errSecPkcs12VerifyFailure: OSStatus { get }`
/// (MAC verification failed during PKCS12 import: wrong password?)
public var errSecPkcs12VerifyFailure: OSStatus { -25264 }

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

/// https://developer.apple.com/documentation/security/secpkcs12import(_:_:_:)
/// `func SecPKCS12Import(_ pkcs12_data: CFData, _ options: CFDictionary, _ items: UnsafeMutablePointer<CFArray?>) -> OSStatus`
public func SecPKCS12Import(_ pkcs12_data: CFData, _ options: CFDictionary, _ items: UnsafeMutablePointer<CFArray?>) -> OSStatus {
    shimmed("SecPKCS12Import")
}

/// https://developer.apple.com/documentation/security/secidentitycopycertificate(_:_:)
/// `func SecIdentityCopyCertificate(_ identityRef: SecIdentity, _ certificateRef: UnsafeMutablePointer<SecCertificate?>) -> OSStatus`
public func SecIdentityCopyCertificate(_ identityRef: SecIdentity, _ certificateRef: UnsafeMutablePointer<SecCertificate?>) -> OSStatus {
    shimmed("SecIdentityCopyCertificate")
}

/// https://developer.apple.com/documentation/security/seccertificatecopydata(_:)
/// `func SecCertificateCopyData(_ certificate: SecCertificate) -> CFData`
public func SecCertificateCopyData(_ certificate: SecCertificate) -> CFData {
    shimmed("SecCertificateCopyData")
}

/// https://developer.apple.com/documentation/security/seccertificatecopysubjectsummary(_:)
/// `func SecCertificateCopySubjectSummary(_ certificate: SecCertificate) -> CFString?`
public func SecCertificateCopySubjectSummary(_ certificate: SecCertificate) -> CFString? {
    shimmed("SecCertificateCopySubjectSummary")
}

/// https://developer.apple.com/documentation/corefoundation/cfgettypeid(_:) — `func CFGetTypeID(_ cf: CFTypeRef!) -> CFTypeID`
public func CFGetTypeID(_ cf: CFTypeRef!) -> CFTypeID {
    shimmed("CFGetTypeID")
}

/// https://developer.apple.com/documentation/security/secidentitygettypeid() — `func SecIdentityGetTypeID() -> CFTypeID`
public func SecIdentityGetTypeID() -> CFTypeID {
    shimmed("SecIdentityGetTypeID")
}

/// https://developer.apple.com/documentation/security/seccertificategettypeid() — `func SecCertificateGetTypeID() -> CFTypeID`
public func SecCertificateGetTypeID() -> CFTypeID {
    shimmed("SecCertificateGetTypeID")
}

extension URLCredential {
    /// https://developer.apple.com/documentation/foundation/urlcredential/init(identity:certificates:persistence:)
    /// `convenience init(identity: SecIdentity, certificates certArray: [Any]?, persistence: URLCredential.Persistence)`
    /// — declared by Foundation on Apple platforms (FoundationNetworking, which has no Security, lacks it).
    public convenience init(identity: SecIdentity, certificates certArray: [Any]?, persistence: URLCredential.Persistence) {
        shimmed("URLCredential(identity:certificates:persistence:)")
    }
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

// The options and result keys of SecPKCS12Import.
/// https://developer.apple.com/documentation/security/ksecimportexportpassphrase
nonisolated(unsafe) public let kSecImportExportPassphrase: CFString = "passphrase"
/// https://developer.apple.com/documentation/security/ksecimportitemidentity
nonisolated(unsafe) public let kSecImportItemIdentity: CFString = "identity"
/// https://developer.apple.com/documentation/security/ksecimporttomemoryonly (iOS 18, macOS 15)
@available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, *)
nonisolated(unsafe) public let kSecImportToMemoryOnly: CFString = "memory"
/// https://developer.apple.com/documentation/security/ksecimportitemcertchain
nonisolated(unsafe) public let kSecImportItemCertChain: CFString = "chain"
