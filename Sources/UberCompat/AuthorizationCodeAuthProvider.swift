import AuthUber

/// The vendor's grant-flow value for `AuthContext(authDestination:authProvider:prefill:)`: the authorization code
/// flow, with or without the code exchange here. (Its protocol `AuthProviding` had this one conformer; the concrete
/// type keeps the vendor's `.authorizationCode(…)` spelling.)
public struct AuthorizationCodeAuthProvider: Sendable, Equatable {
    /// Whether the code is exchanged here for tokens, or returned for a backend.
    public var shouldExchangeAuthCode: Bool
    /// Screens to force.
    public var prompt: Set<UberPrompt>

    /// The vendor's factory, with its defaults: the code is exchanged here for tokens (UberAuth 2.x's
    /// `AuthProviding.authorizationCode(shouldExchangeAuthCode: Bool = true, …)`), and no prompt. So the
    /// `AuthContext(authDestination: .inApp, authProvider: .authorizationCode(), prefill: prefill)` of Uber's iOS SDK
    /// README stores tokens and a ``LoginButton`` using it shows the user logged in. Pass `shouldExchangeAuthCode: false`
    /// to get the code for a backend.
    public static func authorizationCode(shouldExchangeAuthCode: Bool = true, prompt: Set<UberPrompt> = []) -> AuthorizationCodeAuthProvider {
        AuthorizationCodeAuthProvider(shouldExchangeAuthCode: shouldExchangeAuthCode, prompt: prompt)
    }
}

extension AuthContext {
    /// The vendor's initializer: destination (`.native` by default), grant flow and prefill.
    public init(authDestination: UberDestination = .native, authProvider: AuthorizationCodeAuthProvider, prefill: Prefill? = nil) {
        self.init(
            authDestination: authDestination, prompt: authProvider.prompt,
            shouldExchangeAuthCode: authProvider.shouldExchangeAuthCode, prefill: prefill)
    }
}
