// Without the "VaporSignIn" trait this module is empty: enable the trait on the package dependency to get the web
// sign-in routes for Vapor 4 (`VaporWebSignIn`) and its middleware:
// `.package(url: "https://github.com/…/swift-auth-providers", from: …, traits: ["VaporSignIn"])`.
// The routes' work is AuthWebSignIn's framework-neutral `WebSignInCore`, the same as AuthHummingbird's; this module
// routes Vapor requests to it.
#if VaporSignIn
    // The store, configuration and user types an app names with the routes (`InMemoryWebSessionStore`,
    // `WebSignInConfiguration`, `SignedInUser`) live in the neutral core; `import AuthVapor` brings them.
    @_exported public import AuthWebSignIn
#endif
