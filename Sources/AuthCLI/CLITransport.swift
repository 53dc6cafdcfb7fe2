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
}
