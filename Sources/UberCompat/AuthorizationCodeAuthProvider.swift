import AuthUber

#if canImport(AuthenticationServices)
    public import AuthenticationServices
#endif

/// The vendor's grant-flow protocol (UberAuth 2.x `AuthProviding`), so the README's
/// `let authProvider: AuthProviding = .authorizationCode(…)` compiles (`any AuthProviding` with `ExistentialAny`). Its one conformer is
/// ``AuthorizationCodeAuthProvider``; the login itself is ``UberAuth``'s, so the vendor's `execute`, `logout`,
/// `handle` and `isLoggedIn` requirements are ``UberAuth``'s methods instead.
public protocol AuthProviding: Sendable {
    /// The authorization code flow's settings.
    var authorizationCode: AuthorizationCodeAuthProvider { get }
}

/// The authorization code flow, with or without the code exchange here.
public struct AuthorizationCodeAuthProvider: AuthProviding, Sendable, Equatable {
    /// The vendor's default scopes: `profile`.
    public static let defaultScopes = ["profile"]

    /// Whether the code is exchanged here for tokens, or returned for a backend.
    public var shouldExchangeAuthCode: Bool
    /// Screens to force.
    public var prompt: Set<UberPrompt>
    /// Scopes asked for in addition to the configuration's (`Scopes` in the `Uber` plist section, `profile` by
    /// default): the vendor's `scopes:` replaced its default `["profile"]`; here they are added to the configured ones.
    public var scopes: [String]

    /// This value.
    public var authorizationCode: AuthorizationCodeAuthProvider { self }

    /// Creates the settings.
    public init(shouldExchangeAuthCode: Bool = true, prompt: Set<UberPrompt> = [], scopes: [String] = AuthorizationCodeAuthProvider.defaultScopes) {
        self.shouldExchangeAuthCode = shouldExchangeAuthCode
        self.prompt = prompt
        self.scopes = scopes
    }
}

extension AuthProviding where Self == AuthorizationCodeAuthProvider {
    /// The vendor's factory, with its defaults: the code is exchanged here for tokens (UberAuth 2.x's
    /// `AuthProviding.authorizationCode(presentationAnchor:scopes:shouldExchangeAuthCode: Bool = true, prompt:)`), and
    /// no prompt. So the `AuthContext(authDestination: .inApp, authProvider: .authorizationCode(), prefill: prefill)`
    /// of Uber's iOS SDK README stores tokens and a ``LoginButton`` using it shows the user logged in. Pass
    /// `shouldExchangeAuthCode: false` to get the code for a backend.
    public static func authorizationCode(
        scopes: [String] = AuthorizationCodeAuthProvider.defaultScopes,
        shouldExchangeAuthCode: Bool = true,
        prompt: Prompt? = nil
    ) -> AuthorizationCodeAuthProvider {
        AuthorizationCodeAuthProvider(shouldExchangeAuthCode: shouldExchangeAuthCode, prompt: prompt?.uberPrompts ?? [], scopes: scopes)
    }

    #if canImport(AuthenticationServices)
        /// The vendor's factory with its `presentationAnchor:` first. The in-app sheet is presented by the
        /// `WebAuthenticationSessionUserAgent(anchor:)` (AuthApple) that ``UberAuth`` was created with, so the anchor
        /// given here is not used: pass the same window to that agent.
        @MainActor
        public static func authorizationCode(
            presentationAnchor: ASPresentationAnchor,
            scopes: [String] = AuthorizationCodeAuthProvider.defaultScopes,
            shouldExchangeAuthCode: Bool = true,
            prompt: Prompt? = nil
        ) -> AuthorizationCodeAuthProvider {
            authorizationCode(scopes: scopes, shouldExchangeAuthCode: shouldExchangeAuthCode, prompt: prompt)
        }
    #endif
}

extension AuthContext {
    /// The vendor's initializer: destination (`.native` by default), grant flow and prefill.
    public init(authDestination: UberDestination = .native, authProvider: any AuthProviding, prefill: Prefill? = nil) {
        let settings = authProvider.authorizationCode
        self.init(
            authDestination: authDestination, prompt: settings.prompt,
            shouldExchangeAuthCode: settings.shouldExchangeAuthCode, prefill: prefill)
        additionalScopes = settings.scopes
    }
}
