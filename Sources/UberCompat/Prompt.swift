public import AuthUber

/// The vendor's `Prompt`: an option set, so `.authorizationCode(prompt: .login)` and `[.login, .consent]` compile as
/// with UberAuth (uber/rides-ios-sdk `Sources/UberAuth/Authorize/Prompt.swift`, the same raw values).
public struct Prompt: OptionSet, Sendable, Hashable {
    /// The bits: `login` is 1, `consent` 2.
    public let rawValue: Int

    /// The set for `rawValue`.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Force the login screen (in app only: native routes drop it, as the vendor's do).
    public static let login = Prompt(rawValue: 1 << 0)
    /// Force the consent screen.
    public static let consent = Prompt(rawValue: 1 << 1)

    /// The same screens as AuthUber's `UberPrompt` set.
    public var uberPrompts: Set<UberPrompt> {
        var prompts: Set<UberPrompt> = []
        if contains(.login) { prompts.insert(.login) }
        if contains(.consent) { prompts.insert(.consent) }
        return prompts
    }
}
