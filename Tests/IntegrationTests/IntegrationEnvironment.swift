import AuthCore
import AuthURLSession
import Foundation

#if AsyncHTTPClientTransport
    import AuthAsyncHTTPClient
#endif

/// The real identity server the integration tests talk to, from the variables `Scripts/services/idp/dot.sh env` prints.
///
/// `Scripts/test.sh` starts the server, exports these variables and `AUTH_IT_REQUIRED=1`; a plain `swift test`
/// without them skips the suite. With `AUTH_IT_REQUIRED=1` and no server, the tests fail instead of skipping.
struct IntegrationEnvironment: Sendable {
    let issuer: URL
    let publicClientID: String
    let confidentialClientID: String
    let confidentialSecret: String
    let username: String
    let password: String

    static let current: IntegrationEnvironment? = {
        let env = ProcessInfo.processInfo.environment
        guard let issuer = env["AUTH_IT_ISSUER"].flatMap(URL.init(string:)),
            let publicClientID = env["AUTH_IT_PUBLIC_CLIENT"],
            let confidentialClientID = env["AUTH_IT_CONFIDENTIAL_CLIENT"],
            let confidentialSecret = env["AUTH_IT_CONFIDENTIAL_SECRET"],
            let username = env["AUTH_IT_USERNAME"],
            let password = env["AUTH_IT_PASSWORD"]
        else { return nil }
        return IntegrationEnvironment(
            issuer: issuer, publicClientID: publicClientID, confidentialClientID: confidentialClientID,
            confidentialSecret: confidentialSecret, username: username, password: password
        )
    }()

    static let required = ProcessInfo.processInfo.environment["AUTH_IT_REQUIRED"] == "1"

    /// Whether the suite runs: configured, or required (then a missing configuration fails the tests).
    static let enabled = current != nil || required

    /// The transport under test for every back-channel request: URLSession, or — built with the
    /// `AsyncHTTPClientTransport` trait and `AUTH_IT_TRANSPORT=async-http-client` — AsyncHTTPClient (one client for
    /// the process, as a service would hold it). `Scripts/test.sh` runs the suite both ways.
    static let backChannelTransport: any HTTPTransport = {
        #if AsyncHTTPClientTransport
            if ProcessInfo.processInfo.environment["AUTH_IT_TRANSPORT"] == "async-http-client" { return AsyncHTTPClientTransport() }
        #endif
        return URLSessionTransport()
    }()

    /// The transport's name, for test output.
    static var backChannelTransportName: String { String(describing: type(of: backChannelTransport)) }
}
