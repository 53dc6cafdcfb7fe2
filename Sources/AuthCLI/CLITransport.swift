import AuthCore
import AuthURLSession
import Foundation

#if AsyncHTTPClientTransport
    import AuthAsyncHTTPClient
#endif

/// How auth-cli sends its back-channel requests: AsyncHTTPClient when built with the `AsyncHTTPClientTransport`
/// trait (no libcurl on Linux), URLSession otherwise; `AUTH_CLI_TRANSPORT=urlsession|async-http-client` chooses.
///
/// One transport per process, never deallocated: AsyncHTTPClient's client must outlive every request, and a
/// command-line process ends without tearing it down.
enum CLITransport {
    /// The names `AUTH_CLI_TRANSPORT` accepts in this build.
    static var available: [String] {
        #if AsyncHTTPClientTransport
            ["async-http-client", "urlsession"]
        #else
            ["urlsession"]
        #endif
    }

    private static let chosen: Result<any HTTPTransport, AuthError> = {
        let name = ProcessInfo.processInfo.environment["AUTH_CLI_TRANSPORT"].flatMap { $0.isEmpty ? nil : $0 } ?? available[0]
        switch name {
        case "urlsession": return .success(URLSessionTransport())
        #if AsyncHTTPClientTransport
            case "async-http-client": return .success(AsyncHTTPClientTransport())
        #endif
        default:
            return .failure(
                AuthError(
                    .invalidConfiguration,
                    "AUTH_CLI_TRANSPORT=\(name) is not available in this build; use one of: \(available.joined(separator: ", ")).",
                    configurationKey: "AUTH_CLI_TRANSPORT"
                ))
        }
    }()

    /// The process's transport.
    ///
    /// - Throws: `invalid_configuration` naming `AUTH_CLI_TRANSPORT` for a transport this build does not have.
    static func shared() throws -> any HTTPTransport {
        try chosen.get()
    }

    /// The transport for a provider's configuration: the process's, unless the configuration names a TLS client
    /// identity (`tls_client_certificate_file`, `tls_client_key_file`, optionally `tls_ca_file`: RFC 8705 mutual
    /// TLS), which gets an AsyncHTTPClient transport presenting it on every request to the provider.
    ///
    /// - Throws: `invalid_configuration` naming the key that is missing or whose file cannot be read, or
    ///   `AUTH_CLI_TRANSPORT` when it asks for URLSession, which cannot present a client certificate on Linux.
    static func shared(for configuration: ProviderConfiguration) throws -> any HTTPTransport {
        guard let identity = try MutualTLSFiles(configuration) else { return try shared() }
        #if AsyncHTTPClientTransport
            guard (try? shared()) is AsyncHTTPClientTransport else {
                throw AuthError(
                    .invalidConfiguration,
                    "A TLS client certificate (tls_client_certificate_file) is presented through AsyncHTTPClient only; unset AUTH_CLI_TRANSPORT=urlsession.",
                    configurationKey: "AUTH_CLI_TRANSPORT")
            }
            let transport = try AsyncHTTPClientTransport(
                mutualTLS: MutualTLSIdentity(certificateChainFile: identity.certificate, privateKeyFile: identity.key, trustRootsFile: identity.trustRoots))
            // Never deallocated, like the process's transport: its client must outlive every request of the command.
            _ = Unmanaged.passRetained(transport)
            return transport
        #else
            _ = identity
            throw AuthError(
                .invalidConfiguration, "This auth-cli was built without the AsyncHTTPClientTransport trait, which a TLS client certificate needs.",
                configurationKey: "tls_client_certificate_file")
        #endif
    }
}
