public import Foundation

/// What a provider hook knows of the sign-in it shapes or checks: the app's options, the provider's endpoints, the
/// scopes and the redirect URI (``AuthProvider/authorizationParameters(for:)``, ``AuthProvider/validate(_:for:)``).
public struct SignInContext: Sendable {
    /// The app's options for this sign-in.
    public let options: SignInOptions
    /// The provider's endpoints.
    public let metadata: ProviderMetadata
    /// The scopes requested (the provider's defaults plus the options' additions).
    public let scopes: [String]
    /// The redirect URI used.
    public let redirectURI: URL

    /// Creates a context.
    package init(options: SignInOptions, metadata: ProviderMetadata, scopes: [String], redirectURI: URL) {
        self.options = options
        self.metadata = metadata
        self.scopes = scopes
        self.redirectURI = redirectURI
    }
}
