// AuthenticationServices, as far as this package calls it (AuthApple's WebAuthenticationSessionUserAgent).
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
