// `import OneLoginCompat` is the one import a migrating app needs: the provider's configuration and route types come with it.
@_exported public import AuthOneLogin

/// The vendor SDK's name for `OneLoginConfiguration` (AuthOneLogin).
public typealias OLOidcConfig = OneLoginConfiguration
