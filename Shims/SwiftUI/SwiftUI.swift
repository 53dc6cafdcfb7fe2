// SwiftUI, as far as this package calls it (AuthApple's SignInButton). Declarations in the shape of Apple's
// documentation — `View` and its `body` are main-actor isolated there since the iOS 18 SDK. Type-checking only:
// bodies of primitive views trap.
import Foundation

private func shimmed(_ name: String) -> Never {
    fatalError("\(name): the SwiftUI shim is for type-checking on Linux only")
}

/// https://developer.apple.com/documentation/swiftui/view
/// `@MainActor @preconcurrency protocol View`, with `associatedtype Body : View` and
/// `@ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }`.
@MainActor @preconcurrency
public protocol View {
    associatedtype Body: View
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

/// https://developer.apple.com/documentation/swift/never — `extension Never : View` (the body of primitive views).
extension Never: View {
    public var body: Never { shimmed("Never.body") }
}

/// https://developer.apple.com/documentation/swiftui/viewbuilder — `@resultBuilder struct ViewBuilder`
@resultBuilder
public struct ViewBuilder {
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock(_:)-1g8mv
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildexpression(_:)
    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
}

/// https://developer.apple.com/documentation/swiftui/dynamicproperty — `protocol DynamicProperty`
public protocol DynamicProperty {}

/// https://developer.apple.com/documentation/swiftui/state
/// `@frozen @propertyWrapper struct State<Value>` — `var wrappedValue: Value { get nonmutating set }`.
@propertyWrapper
public struct State<Value>: DynamicProperty {
    private final class Box {
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    private let box: Box

    /// https://developer.apple.com/documentation/swiftui/state/init(wrappedvalue:) — `init(wrappedValue value: Value)`
    public init(wrappedValue value: Value) { box = Box(value) }

    /// https://developer.apple.com/documentation/swiftui/state/wrappedvalue — `var wrappedValue: Value { get nonmutating set }`
    public var wrappedValue: Value {
        get { box.value }
        nonmutating set { box.value = newValue }
    }
}

/// https://developer.apple.com/documentation/swiftui/state — `extension State : Sendable where Value : Sendable`
extension State: @unchecked Sendable where Value: Sendable {}

/// https://developer.apple.com/documentation/swiftui/text — `@frozen struct Text`, a primitive `View`.
public struct Text: View {
    /// https://developer.apple.com/documentation/swiftui/text/init(_:)-9d1g4 — `init<S>(_ content: S) where S : StringProtocol`
    public init<S: StringProtocol>(_ content: S) {}
    public var body: Never { shimmed("Text.body") }
}

/// https://developer.apple.com/documentation/swiftui/button
/// `@MainActor @preconcurrency struct Button<Label> where Label : View`
@MainActor @preconcurrency
public struct Button<Label: View>: View {
    /// https://developer.apple.com/documentation/swiftui/button/init(action:label:)
    /// `init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label)`
    public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {}
    public var body: Never { shimmed("Button.body") }
}

extension Button where Label == Text {
    /// https://developer.apple.com/documentation/swiftui/button/init(_:action:)-lpm7
    /// `nonisolated init<S>(_ title: S, action: @escaping @MainActor () -> Void) where S : StringProtocol`
    public nonisolated init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) {}
}

/// https://developer.apple.com/documentation/swiftui/modifiedcontent — `@frozen struct ModifiedContent<Content, Modifier>`
public struct ModifiedContent<Content, Modifier>: View {
    public var body: Never { shimmed("ModifiedContent.body") }
}

/// The modifier `disabled(_:)` applies (SwiftUI's own is an environment-writing modifier).
public struct _DisabledModifier {}

extension View {
    /// https://developer.apple.com/documentation/swiftui/view/disabled(_:)
    /// `nonisolated func disabled(_ disabled: Bool) -> some View`
    public nonisolated func disabled(_ disabled: Bool) -> some View { ModifiedContent<Self, _DisabledModifier>() }
}
