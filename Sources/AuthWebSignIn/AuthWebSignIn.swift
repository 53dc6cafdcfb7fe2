// The framework-neutral web sign-in core (`WebSignInCore`) that the Hummingbird adapter (AuthHummingbird), the Vapor
// adapter (AuthVapor) and other frameworks' adapters route requests to, the session store protocol and its in-memory
// store (PostgreSQL: AuthPostgres). It imports no web framework and no database driver, so it needs no package trait:
// the traits HummingbirdSignIn and VaporSignIn bring the frameworks' adapters, PostgresStorage the PostgreSQL store.
