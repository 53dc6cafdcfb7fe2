// `import OneLoginCompat` is the one import a migrating app needs: the provider's configuration and route types come with it.
@_exported public import AuthOneLogin
