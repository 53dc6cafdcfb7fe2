@_exported public import AuthCore
@_exported public import AuthGOVUK
@_exported public import AuthGitHub
@_exported public import AuthGoogle
@_exported public import AuthGrab
@_exported public import AuthMicrosoft
@_exported public import AuthOIDC
@_exported public import AuthOneLogin
@_exported public import AuthSchibsted
@_exported public import AuthSignInWithApple
@_exported public import AuthUber

extension ProviderRegistry {
    /// A registry with every provider this package ships, selected by id (`oidc`, …).
    ///
    /// Apps that ship only some providers can start from an empty `ProviderRegistry` and register those.
    public static var builtIn: ProviderRegistry {
        var registry = ProviderRegistry()
        registry.register(OpenIDProvider.self)
        // One id for GOV.UK One Login: an app's configuration or a web service's (with a key or secret).
        registry.register(id: GOVUKProvider.id, displayName: GOVUKProvider.displayName, factory: GOVUKProvider.appOrService)
        registry.register(OneLoginProvider.self)
        registry.register(SchibstedProvider.self)
        registry.register(UberProvider.self)
        registry.register(GrabProvider.self)
        registry.register(GoogleProvider.self)
        registry.register(MicrosoftProvider.self)
        registry.register(GitHubProvider.self)
        registry.register(SignInWithAppleProvider.self)
        return registry
    }
}
