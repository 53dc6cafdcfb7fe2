#if PostgresStorage
    import ArgumentParser
    public import Foundation
    public import PostgresNIO

    /// The samples' settings that come from the environment: PostgreSQL and the key instances share.
    public enum SampleSettings {
        /// `text` as an absolute URL, or a usage error that says what is wrong.
        public static func url(_ text: String) throws -> URL {
            guard let url = URL(string: text), url.scheme != nil, url.host != nil else {
                throw ValidationError("'\(text)' is not an absolute URL.")
            }
            return url
        }

        /// A client for the database named by `AUTH_PG_*` (what `Scripts/services/postgres.sh env` prints).
        public static func postgresClient() throws -> PostgresClient {
            let environment = ProcessInfo.processInfo.environment
            guard let port = environment["AUTH_PG_PORT"].flatMap(Int.init) else {
                throw ValidationError("--postgres needs AUTH_PG_PORT (and AUTH_PG_HOST, AUTH_PG_USER, AUTH_PG_DATABASE); Scripts/services/postgres.sh env prints them.")
            }
            return PostgresClient(
                configuration: .init(
                    host: environment["AUTH_PG_HOST"] ?? "127.0.0.1", port: port, username: environment["AUTH_PG_USER"] ?? "auth",
                    password: environment["AUTH_PG_PASSWORD"], database: environment["AUTH_PG_DATABASE"] ?? "auth", tls: .disable
                ))
        }

        /// `AUTH_WEB_ENCRYPTION_KEY`: 32 bytes in base64, the same on every instance. Instances sharing PostgreSQL share
        /// it both for the sealed tokens and for the cookie a started sign-in travels in, so that a sign-in started on
        /// one completes on another.
        public static func encryptionKey() throws -> Data {
            guard let text = ProcessInfo.processInfo.environment["AUTH_WEB_ENCRYPTION_KEY"], let key = Data(base64Encoded: text), key.count == 32 else {
                throw ValidationError("--postgres needs AUTH_WEB_ENCRYPTION_KEY: 32 random bytes in base64 (openssl rand -base64 32), the same on every instance.")
            }
            return key
        }
    }
#endif
