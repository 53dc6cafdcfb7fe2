// Without the "WebSignIn" trait this module is empty: enable the trait on the package dependency to get the web
// sign-in routes (`WebSignIn`), the middleware and the in-memory session store (PostgreSQL: AuthPostgres):
// `.package(url: "https://github.com/…/swift-auth-providers", from: …, traits: ["WebSignIn"])`.
