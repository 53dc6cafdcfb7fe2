// Without the "HummingbirdSignIn" trait this module is empty: enable the trait on the package dependency to get the
// web sign-in routes (`WebSignIn`), the middleware and the in-memory session store (PostgreSQL: AuthPostgres):
// `.package(url: "https://github.com/…/swift-auth-providers", from: …, traits: ["HummingbirdSignIn"])`.
// The routes' work is AuthWebSignIn's framework-neutral `WebSignInCore`; this module routes Hummingbird requests to it.
#if HummingbirdSignIn
    // The store, configuration and user types an app names with the routes (`InMemoryWebSessionStore`,
    // `WebSignInConfiguration`, `SignedInUser`) live in the neutral core; `import AuthHummingbird` keeps bringing them.
    @_exported public import AuthWebSignIn
#endif
