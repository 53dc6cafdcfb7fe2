// Without the "WebSignInCore" trait (which WebSignIn, VaporSignIn and PostgresStorage enable) this module is empty.
// With it: the framework-neutral web sign-in core (`WebSignInCore`) that the Hummingbird adapter (AuthHummingbird),
// the Vapor adapter (AuthVapor) and other frameworks' adapters route requests to,
// the session store protocol and its in-memory store (PostgreSQL: AuthPostgres). It imports no web framework.
