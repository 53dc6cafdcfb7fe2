// `import GOVUKCompat` is the one import a migrating app needs: the provider's configuration and route types come with it.
@_exported public import AuthGOVUK

/// The vendor SDK's name for `GOVUKAppConfiguration` (AuthGOVUK).
public typealias LoginSessionConfiguration = GOVUKAppConfiguration
