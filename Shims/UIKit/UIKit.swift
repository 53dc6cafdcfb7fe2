// UIKit, as far as this package calls it (AuthApple's LoginButton and SystemAppHandoff, UberCompat's LoginButton,
// the presentation anchor of the web sign-in). Declarations in the shape of Apple's documentation: every class here is
// `@MainActor` there (UIKit's NS_SWIFT_UI_ACTOR), which is what the type-check is for. Type-checking only: members trap.
// Apple's framework re-exports Foundation (`import UIKit` alone gives `URL`, `CGRect`, `NSCoder`).
@_exported import Foundation

private func shimmed(_ name: String) -> Never {
    fatalError("\(name): the UIKit shim is for type-checking on Linux only")
}

/// https://developer.apple.com/documentation/uikit/uiresponder — `@MainActor class UIResponder : NSObject`
@MainActor
open class UIResponder: NSObject {
    public override init() { super.init() }
}

/// https://developer.apple.com/documentation/uikit/uiview — `@MainActor class UIView : UIResponder`
@MainActor
open class UIView: UIResponder {
    /// https://developer.apple.com/documentation/uikit/uiview/init(frame:) — `init(frame: CGRect)`
    public init(frame: CGRect) { super.init() }
    /// https://developer.apple.com/documentation/uikit/uiview/init(coder:) — `init?(coder: NSCoder)`
    public required init?(coder: NSCoder) { super.init() }
}

/// https://developer.apple.com/documentation/uikit/uicontrol — `@MainActor class UIControl : UIView`
@MainActor
open class UIControl: UIView {
    /// https://developer.apple.com/documentation/uikit/uicontrol/event — `struct Event`, an `OptionSet` of `UInt`
    public struct Event: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// https://developer.apple.com/documentation/uikit/uicontrol/event/touchupinside
        public static let touchUpInside = Event(rawValue: 1 << 6)
    }

    /// https://developer.apple.com/documentation/uikit/uicontrol/state — `struct State`, an `OptionSet` of `UInt`
    public struct State: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// https://developer.apple.com/documentation/uikit/uicontrol/state/normal
        public static let normal = State([])
    }

    /// https://developer.apple.com/documentation/uikit/uicontrol/isenabled — `var isEnabled: Bool { get set }`
    open var isEnabled: Bool {
        get { shimmed("UIControl.isEnabled") }
        set { shimmed("UIControl.isEnabled") }
    }

    /// https://developer.apple.com/documentation/uikit/uicontrol/addaction(_:for:) (iOS 14)
    /// `func addAction(_ action: UIAction, for controlEvents: UIControl.Event)`
    @available(iOS 14.0, tvOS 14.0, *)
    open func addAction(_ action: UIAction, for controlEvents: UIControl.Event) { shimmed("UIControl.addAction") }
}

/// https://developer.apple.com/documentation/uikit/uibutton — `@MainActor class UIButton : UIControl`
@MainActor
open class UIButton: UIControl {
    /// https://developer.apple.com/documentation/uikit/uibutton/settitle(_:for:)
    /// `func setTitle(_ title: String?, for state: UIControl.State)`
    open func setTitle(_ title: String?, for state: UIControl.State) { shimmed("UIButton.setTitle") }
    /// https://developer.apple.com/documentation/uikit/uibutton/title(for:) — `func title(for state: UIControl.State) -> String?`
    open func title(for state: UIControl.State) -> String? { shimmed("UIButton.title(for:)") }
}

/// https://developer.apple.com/documentation/uikit/uiwindow — `@MainActor class UIWindow : UIView`
@MainActor
open class UIWindow: UIView {}

/// https://developer.apple.com/documentation/uikit/uimenuelement — `@MainActor class UIMenuElement : NSObject`
@MainActor
open class UIMenuElement: NSObject {}

/// https://developer.apple.com/documentation/uikit/uiactionhandler — `typealias UIActionHandler = (UIAction) -> Void`,
/// main-actor isolated as every UIKit callback.
@available(iOS 13.0, tvOS 13.0, *)
public typealias UIActionHandler = @MainActor (UIAction) -> Void

/// https://developer.apple.com/documentation/uikit/uiaction — `@MainActor class UIAction : UIMenuElement` (iOS 13)
@MainActor
@available(iOS 13.0, tvOS 13.0, *)
open class UIAction: UIMenuElement {
    /// https://developer.apple.com/documentation/uikit/uiaction/init(title:image:identifier:discoverabilitytitle:attributes:state:handler:)
    /// — the parameters this package passes; the others (`image`, `identifier`, `discoverabilityTitle`,
    /// `attributes`, `state`) have defaults there.
    public init(title: String = "", handler: @escaping UIActionHandler) { super.init() }
}

/// https://developer.apple.com/documentation/uikit/uiapplication — `@MainActor class UIApplication : UIResponder`
@MainActor
open class UIApplication: UIResponder {
    /// https://developer.apple.com/documentation/uikit/uiapplication/shared — `class var shared: UIApplication { get }`
    open class var shared: UIApplication { shimmed("UIApplication.shared") }

    /// https://developer.apple.com/documentation/uikit/uiapplication/canopenurl(_:) — `func canOpenURL(_ url: URL) -> Bool`
    open func canOpenURL(_ url: URL) -> Bool { shimmed("UIApplication.canOpenURL") }

    /// https://developer.apple.com/documentation/uikit/uiapplication/open(_:options:completionhandler:) — its
    /// async form: `func open(_ url: URL, options: [UIApplication.OpenExternalURLOptionsKey : Any] = [:]) async -> Bool`
    open func open(_ url: URL, options: [UIApplication.OpenExternalURLOptionsKey: Any] = [:]) async -> Bool {
        shimmed("UIApplication.open")
    }

    /// https://developer.apple.com/documentation/uikit/uiapplication/openexternalurloptionskey
    public struct OpenExternalURLOptionsKey: Hashable, RawRepresentable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// https://developer.apple.com/documentation/uikit/uiapplication/openexternalurloptionskey/universallinksonly
        public static let universalLinksOnly = OpenExternalURLOptionsKey(rawValue: "UIApplicationOpenURLOptionUniversalLinksOnly")
    }
}

/// https://developer.apple.com/documentation/uikit/uidevice — `@MainActor class UIDevice : NSObject`
@MainActor
open class UIDevice: NSObject {
    /// https://developer.apple.com/documentation/uikit/uidevice/current — `class var current: UIDevice { get }`
    open class var current: UIDevice { shimmed("UIDevice.current") }
    /// https://developer.apple.com/documentation/uikit/uidevice/identifierforvendor — `var identifierForVendor: UUID? { get }`
    open var identifierForVendor: UUID? { shimmed("UIDevice.identifierForVendor") }
}
