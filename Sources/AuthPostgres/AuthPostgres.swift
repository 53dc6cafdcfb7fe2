// Without the "PostgresStorage" trait this module is empty: enable the trait on the package dependency to get the
// PostgreSQL web-session store and credential storage (postgres-nio):
// `.package(url: "https://github.com/…/swift-auth-providers", from: …, traits: ["PostgresStorage"])`.
