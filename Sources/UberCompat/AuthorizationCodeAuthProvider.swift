import AuthUber
/// The vendor's grant-flow value for `AuthContext(authDestination:authProvider:prefill:)`: the authorization code
/// flow, with or without the code exchange here. (Its protocol `AuthProviding` had this one conformer; the concrete
/// type keeps the vendor's `.authorizationCode(…)` spelling.)
public struct AuthorizationCodeAuthProvider: Sendable, Equatable {
    /// Whether the code is exchanged here for tokens, or returned for a backend.
    public var shouldExchangeAuthCode: Bool
    /// Screens to force.
    public var prompt: Set<UberPrompt>

    /// The vendor's factory; its defaults: the code is returned, not exchanged, and no prompt.
    public static func authorizationCode(shouldExchangeAuthCode: Bool = false, prompt: Set<UberPrompt> = []) -> AuthorizationCodeAuthProvider {
        AuthorizationCodeAuthProvider(shouldExchangeAuthCode: shouldExchangeAuthCode, prompt: prompt)
    }
}

extension AuthContext {
    /// The vendor's initializer: destination (`.native` by default), grant flow and prefill.
    public init(authDestination: UberDestination = .native, authProvider: AuthorizationCodeAuthProvider, prefill: Prefill? = nil) {
        self.init(authDestination: authDestination, prompt: authProvider.prompt,
                  shouldExchangeAuthCode: authProvider.shouldExchangeAuthCode, prefill: prefill)
    }
}
