// `import SchibstedCompat` is the one import a migrating app needs: the provider's configuration and route types come with it.
@_exported public import AuthSchibsted

/// The vendor SDK's name for `SchibstedConfiguration` (AuthSchibsted).
public typealias ClientConfiguration = SchibstedConfiguration
