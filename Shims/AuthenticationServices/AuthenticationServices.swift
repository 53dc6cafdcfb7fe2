// AuthenticationServices, as far as this package calls it (AuthApple's WebAuthenticationSessionUserAgent and AppleIDSignIn).
// Declarations in the shape of Apple's documentation (iOS); type-checking only: members trap.
// Apple's framework re-exports Foundation.
@_exported import Foundation
#if canImport(UIKit)
import UIKit
#elseif canImport(AppKit)
import AppKit
#endif

private func shimmed(_ name: String) -> Never {
    fatalError("\(name): the AuthenticationServices shim is for type-checking on Linux only")
}

#if canImport(UIKit)
/// https://developer.apple.com/documentation/authenticationservices/aspresentationanchor — on iOS
/// `typealias ASPresentationAnchor = UIWindow`.
public typealias ASPresentationAnchor = UIWindow
#elseif canImport(AppKit)
/// https://developer.apple.com/documentation/authenticationservices/aspresentationanchor — on macOS
/// `typealias ASPresentationAnchor = NSWindow`.
public typealias ASPresentationAnchor = NSWindow
#endif

/// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationpresentationcontextproviding
/// `@MainActor protocol ASWebAuthenticationPresentationContextProviding : NSObjectProtocol`
@MainActor
public protocol ASWebAuthenticationPresentationContextProviding: NSObjectProtocol {
    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationpresentationcontextproviding/presentationanchor(for:)
    /// `func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor`
    func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor
}

/// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession
/// `class ASWebAuthenticationSession` (an `NSObject`; iOS 12).
open class ASWebAuthenticationSession: NSObject {
    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/completionhandler
    /// `typealias CompletionHandler = (URL?, (any Error)?) -> Void`
    public typealias CompletionHandler = (URL?, (any Error)?) -> Void

    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/callback
    /// `class Callback` (iOS 17.4), made by its two class methods.
    @available(iOS 17.4, macOS 14.4, tvOS 17.4, watchOS 10.4, visionOS 1.1, *)
    open class Callback: NSObject {
        /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/callback/customscheme(_:)
        /// `class func customScheme(_ customScheme: String) -> Self`
        open class func customScheme(_ customScheme: String) -> Self { shimmed("Callback.customScheme") }
        /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/callback/https(host:path:)
        /// `class func https(host: String, path: String) -> Self`
        open class func https(host: String, path: String) -> Self { shimmed("Callback.https") }
    }

    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/init(url:callbackurlscheme:completionhandler:)-7fpox
    /// `init(url URL: URL, callbackURLScheme: String?, completionHandler: @escaping ASWebAuthenticationSession.CompletionHandler)`
    /// (iOS 12.0 – 27.0: deprecated from iOS 27 in favour of the callback form).
    @available(iOS, introduced: 12.0, deprecated: 27.0)
    @available(macOS, introduced: 10.15, deprecated: 27.0)
    public init(url URL: URL, callbackURLScheme: String?, completionHandler: @escaping CompletionHandler) { super.init() }

    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/init(url:callback:completionhandler:)-6nut7
    /// `init(url URL: URL, callback: ASWebAuthenticationSession.Callback, completionHandler: @escaping ASWebAuthenticationSession.CompletionHandler)`
    @available(iOS 17.4, macOS 14.4, tvOS 17.4, watchOS 10.4, visionOS 1.1, *)
    public init(url URL: URL, callback: Callback, completionHandler: @escaping CompletionHandler) { super.init() }

    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/presentationcontextprovider
    /// `weak var presentationContextProvider: (any ASWebAuthenticationPresentationContextProviding)? { get set }`
    open weak var presentationContextProvider: (any ASWebAuthenticationPresentationContextProviding)?

    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/prefersephemeralwebbrowsersession
    /// `var prefersEphemeralWebBrowserSession: Bool { get set }` (iOS 13)
    open var prefersEphemeralWebBrowserSession: Bool = false

    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/start() — `func start() -> Bool`
    open func start() -> Bool { shimmed("ASWebAuthenticationSession.start") }

    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/cancel() — `func cancel()`
    open func cancel() { shimmed("ASWebAuthenticationSession.cancel") }
}

/// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsessionerror
/// `struct ASWebAuthenticationSessionError` — an error with a `code`; `error as? ASWebAuthenticationSessionError`
/// is how callers read it.
public struct ASWebAuthenticationSessionError: Error, Sendable {
    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsessionerror/code-swift.enum
    public enum Code: Int, Sendable {
        /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsessionerror/code-swift.enum/canceledlogin
        case canceledLogin = 1
        /// …/presentationcontextnotprovided
        case presentationContextNotProvided = 2
        /// …/presentationcontextinvalid
        case presentationContextInvalid = 3
    }

    /// The error's code.
    public let code: Code

    /// Makes an error of `code` (Apple's is made by the framework).
    public init(_ code: Code) { self.code = code }
}

// MARK: Sign in with Apple (AuthApple's AppleIDSignIn)

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationprovider
/// `protocol ASAuthorizationProvider : NSObjectProtocol`
public protocol ASAuthorizationProvider: NSObjectProtocol {}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationcredential
/// `protocol ASAuthorizationCredential : NSCopying, NSSecureCoding, NSObjectProtocol` (the coding requirements left
/// out: nothing here encodes a credential).
public protocol ASAuthorizationCredential: NSObjectProtocol {}

/// https://developer.apple.com/documentation/authenticationservices/asauthorization
/// `class ASAuthorization : NSObject`
open class ASAuthorization: NSObject {
    /// https://developer.apple.com/documentation/authenticationservices/asauthorization/scope
    /// `struct Scope` — `RawRepresentable` by `String`, with the static members `fullName` and `email`.
    public struct Scope: RawRepresentable, Hashable, Sendable {
        /// The scope's name.
        public let rawValue: String
        /// Creates a scope.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// https://developer.apple.com/documentation/authenticationservices/asauthorization/scope/fullname
        public static let fullName = Scope(rawValue: "full_name")
        /// https://developer.apple.com/documentation/authenticationservices/asauthorization/scope/email
        public static let email = Scope(rawValue: "email")
    }

    /// https://developer.apple.com/documentation/authenticationservices/asauthorization/provider
    /// `var provider: any ASAuthorizationProvider { get }`
    open var provider: any ASAuthorizationProvider { shimmed("ASAuthorization.provider") }
    /// https://developer.apple.com/documentation/authenticationservices/asauthorization/credential
    /// `var credential: any ASAuthorizationCredential { get }`
    open var credential: any ASAuthorizationCredential { shimmed("ASAuthorization.credential") }
}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationrequest
/// `class ASAuthorizationRequest : NSObject`
open class ASAuthorizationRequest: NSObject {}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationopenidrequest
/// `class ASAuthorizationOpenIDRequest : ASAuthorizationRequest`
open class ASAuthorizationOpenIDRequest: ASAuthorizationRequest {
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationopenidrequest/requestedscopes
    /// `var requestedScopes: [ASAuthorization.Scope]? { get set }`
    open var requestedScopes: [ASAuthorization.Scope]?
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationopenidrequest/nonce
    /// `var nonce: String? { get set }`
    open var nonce: String?
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationopenidrequest/state
    /// `var state: String? { get set }`
    open var state: String?
}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidrequest
/// `class ASAuthorizationAppleIDRequest : ASAuthorizationOpenIDRequest`
open class ASAuthorizationAppleIDRequest: ASAuthorizationOpenIDRequest {
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidrequest/user
    /// `var user: String? { get set }`
    open var user: String?
}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidprovider
/// `class ASAuthorizationAppleIDProvider : NSObject, ASAuthorizationProvider`
open class ASAuthorizationAppleIDProvider: NSObject, ASAuthorizationProvider {
    /// `init()`
    override public init() { super.init() }
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidprovider/createrequest()
    /// `func createRequest() -> ASAuthorizationAppleIDRequest`
    open func createRequest() -> ASAuthorizationAppleIDRequest { shimmed("ASAuthorizationAppleIDProvider.createRequest") }
}

/// https://developer.apple.com/documentation/authenticationservices/asuserdetectionstatus
/// `enum ASUserDetectionStatus : Int` (`real_user_status` of the ID token).
public enum ASUserDetectionStatus: Int, Sendable {
    /// …/unsupported
    case unsupported = 0
    /// …/unknown
    case unknown = 1
    /// …/likelyreal
    case likelyReal = 2
}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidcredential
/// `class ASAuthorizationAppleIDCredential : NSObject, ASAuthorizationCredential`
open class ASAuthorizationAppleIDCredential: NSObject, ASAuthorizationCredential {
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidcredential/user
    /// `var user: String { get }`
    open var user: String { shimmed("ASAuthorizationAppleIDCredential.user") }
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidcredential/identitytoken
    /// `var identityToken: Data? { get }`
    open var identityToken: Data? { shimmed("ASAuthorizationAppleIDCredential.identityToken") }
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidcredential/authorizationcode
    /// `var authorizationCode: Data? { get }`
    open var authorizationCode: Data? { shimmed("ASAuthorizationAppleIDCredential.authorizationCode") }
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidcredential/fullname
    /// `var fullName: PersonNameComponents? { get }`
    open var fullName: PersonNameComponents? { shimmed("ASAuthorizationAppleIDCredential.fullName") }
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidcredential/email
    /// `var email: String? { get }`
    open var email: String? { shimmed("ASAuthorizationAppleIDCredential.email") }
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidcredential/realuserstatus
    /// `var realUserStatus: ASUserDetectionStatus { get }`
    open var realUserStatus: ASUserDetectionStatus { shimmed("ASAuthorizationAppleIDCredential.realUserStatus") }
}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontrollerdelegate
/// `@MainActor protocol ASAuthorizationControllerDelegate : NSObjectProtocol`. Both methods are `optional` in
/// Apple's Objective-C protocol; declared as requirements here (no `@objc` on Linux), which only asks more of a
/// conformer.
@MainActor
public protocol ASAuthorizationControllerDelegate: NSObjectProtocol {
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontrollerdelegate/authorizationcontroller(controller:didcompletewithauthorization:)
    func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization)
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontrollerdelegate/authorizationcontroller(controller:didcompletewitherror:)
    func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error)
}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontrollerpresentationcontextproviding
/// `@MainActor protocol ASAuthorizationControllerPresentationContextProviding : NSObjectProtocol`
@MainActor
public protocol ASAuthorizationControllerPresentationContextProviding: NSObjectProtocol {
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontrollerpresentationcontextproviding/presentationanchor(for:)
    /// `func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor`
    func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor
}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontroller
/// `@MainActor class ASAuthorizationController : NSObject`
@MainActor
open class ASAuthorizationController: NSObject {
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontroller/init(authorizationrequests:)
    /// `init(authorizationRequests: [ASAuthorizationRequest])`
    public init(authorizationRequests: [ASAuthorizationRequest]) { super.init() }
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontroller/delegate
    /// `weak var delegate: (any ASAuthorizationControllerDelegate)? { get set }`
    open weak var delegate: (any ASAuthorizationControllerDelegate)?
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontroller/presentationcontextprovider
    /// `weak var presentationContextProvider: (any ASAuthorizationControllerPresentationContextProviding)? { get set }`
    open weak var presentationContextProvider: (any ASAuthorizationControllerPresentationContextProviding)?
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontroller/performrequests()
    /// `func performRequests()`
    open func performRequests() { shimmed("ASAuthorizationController.performRequests") }
}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationerror
/// `struct ASAuthorizationError` — an error with a `code`; `error as? ASAuthorizationError` is how callers read it.
public struct ASAuthorizationError: Error, Sendable {
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationerror/code
    public enum Code: Int, Sendable {
        /// …/unknown
        case unknown = 1000
        /// …/canceled
        case canceled = 1001
        /// …/invalidresponse
        case invalidResponse = 1002
        /// …/nothandled
        case notHandled = 1003
        /// …/failed
        case failed = 1004
        /// …/notinteractive
        case notInteractive = 1005
    }

    /// The error's code.
    public let code: Code

    /// Makes an error of `code` (Apple's is made by the framework).
    public init(_ code: Code) { self.code = code }
}
