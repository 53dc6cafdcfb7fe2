import AuthCore
import Foundation

/// The TLS client identity a provider's configuration names for mutual TLS (RFC 8705): the keys
/// `tls_client_certificate_file` and `tls_client_key_file` (PEM), and `tls_ca_file` for a server certificate from a
/// private certificate authority. Relative paths are taken from the configuration file's folder at login, which stores
/// them absolute; the key's content is never read here, logged or stored.
struct MutualTLSFiles {
    static let certificateKey = "tls_client_certificate_file"
    static let keyKey = "tls_client_key_file"
    static let trustRootsKey = "tls_ca_file"

    let certificate: URL
    let key: URL
    let trustRoots: URL?

    /// `nil` when the configuration names no client certificate.
    ///
    /// - Throws: `invalid_configuration` naming the key when only one of certificate and key is given, or a value is
    ///   not a string.
    init?(_ configuration: ProviderConfiguration) throws {
        func path(_ key: String) throws -> URL? {
            guard let value = configuration[key], value != .null else { return nil }
            guard let text = value.stringValue, !text.isEmpty else {
                throw AuthError(.invalidConfiguration, "The configuration key '\(key)' must be a file path.", configurationKey: key)
            }
            return URL(fileURLWithPath: (text as NSString).expandingTildeInPath)
        }
        let certificate = try path(Self.certificateKey)
        let key = try path(Self.keyKey)
        switch (certificate, key) {
        case (nil, nil):
            if configuration[Self.trustRootsKey] != nil {
                throw AuthError(
                    .invalidConfiguration, "'\(Self.trustRootsKey)' is for mutual TLS: give '\(Self.certificateKey)' and '\(Self.keyKey)' too.",
                    configurationKey: Self.certificateKey)
            }
            return nil
        case (let certificate?, let key?):
            (self.certificate, self.key, self.trustRoots) = (certificate, key, try path(Self.trustRootsKey))
        case (nil, _):
            throw AuthError(.invalidConfiguration, "'\(Self.keyKey)' needs '\(Self.certificateKey)' (the client's certificate).", configurationKey: Self.certificateKey)
        case (_, nil):
            throw AuthError(.invalidConfiguration, "'\(Self.certificateKey)' needs '\(Self.keyKey)' (the client's private key).", configurationKey: Self.keyKey)
        }
    }

    /// `configuration` with its relative TLS file paths made absolute against `folder` (the configuration file's).
    static func resolvingPaths(in configuration: ProviderConfiguration, against folder: URL) -> ProviderConfiguration {
        var resolved = configuration
        for key in [certificateKey, keyKey, trustRootsKey] {
            guard let text = configuration[key]?.stringValue, !text.isEmpty else { continue }
            let expanded = (text as NSString).expandingTildeInPath
            if !expanded.hasPrefix("/") { resolved[key] = .string(folder.appendingPathComponent(expanded).standardizedFileURL.path) }
        }
        return resolved
    }
}
