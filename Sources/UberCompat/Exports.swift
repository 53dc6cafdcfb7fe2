// `import UberCompat` is the one import a migrating app needs: the provider's configuration and route types come with it.
@_exported public import AuthUber

/// The vendor SDK's name for `UberDestination` (AuthUber).
public typealias AuthDestination = UberDestination
