// AppKit, as far as this package calls it (AuthApple's SystemAppHandoff on macOS, the web sign-in's presentation
// anchor there). Declarations in the shape of Apple's documentation; type-checking only: members trap.
// Apple's framework re-exports Foundation.
@_exported import Foundation

private func shimmed(_ name: String) -> Never {
    fatalError("\(name): the AppKit shim is for type-checking on Linux only")
}

/// https://developer.apple.com/documentation/appkit/nsresponder — `@MainActor class NSResponder : NSObject`
@MainActor
open class NSResponder: NSObject {}

/// https://developer.apple.com/documentation/appkit/nswindow — `@MainActor class NSWindow : NSResponder`
@MainActor
open class NSWindow: NSResponder {}

/// https://developer.apple.com/documentation/appkit/nsworkspace — `class NSWorkspace : NSObject` (not main-actor
/// isolated; documented as safe to use from any thread).
open class NSWorkspace: NSObject, @unchecked Sendable {
    /// https://developer.apple.com/documentation/appkit/nsworkspace/shared — `class var shared: NSWorkspace { get }`
    open class var shared: NSWorkspace { shimmed("NSWorkspace.shared") }

    /// https://developer.apple.com/documentation/appkit/nsworkspace/urlforapplication(toopen:)-7qkzf (macOS 10.15)
    /// `func urlForApplication(toOpen url: URL) -> URL?`
    @available(macOS 10.15, *)
    open func urlForApplication(toOpen url: URL) -> URL? { shimmed("NSWorkspace.urlForApplication(toOpen:)") }

    /// https://developer.apple.com/documentation/appkit/nsworkspace/open(_:) — `func open(_ url: URL) -> Bool`
    open func open(_ url: URL) -> Bool { shimmed("NSWorkspace.open(_:)") }
}
