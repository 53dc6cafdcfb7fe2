public import AuthCore
public import Foundation

/// A `UserAgent` without a browser: it requests the authorization URL through a transport and follows
/// redirects until one reaches the redirect URI, which it returns. The in-process identity provider approves
/// its configured user at once, so this completes a sign-in in microseconds.
public struct HeadlessUserAgent: UserAgent {
    private let transport: any HTTPTransport
    private let maximumRedirects: Int

    /// Creates an agent that browses through `transport`.
    public init(transport: any HTTPTransport, maximumRedirects: Int = 5) {
        self.transport = transport
        self.maximumRedirects = maximumRedirects
    }

    /// Follows the authorization URL's redirects to the redirect URI.
    ///
    /// - Throws: `authorization_failed` when the page answers without redirecting (an error page).
    public func authorize(_ request: AuthorizationRequest) async throws -> URL {
        try await followRedirects(request)
    }

    /// Follows the authorization URL's redirects and returns the first URL on a loopback host or matching the
    /// redirect URI, without delivering it anywhere (scripted browsers then request it themselves).
    public func followRedirects(_ request: AuthorizationRequest) async throws -> URL {
        var url = request.url
        for _ in 0...maximumRedirects {
            let page = HTTPRequest(method: .get, url: url)
            let (_, response) = try await transport.send(page)
            guard (300..<400).contains(response.statusCode),
                let location = response.value(forHTTPHeaderField: "Location"),
                let next = URL(string: location, relativeTo: url)?.absoluteURL
            else {
                throw AuthError(
                    .authorizationFailed,
                    "The authorization page answered HTTP \(response.statusCode) instead of redirecting back.",
                    providerID: request.providerID,
                    httpStatus: response.statusCode
                )
            }
            if AuthorizationResponse.redirect(next, matches: request.redirectURI) || next.isLoopback { return next }
            url = next
        }
        throw AuthError(.authorizationFailed, "The authorization page redirected more than \(maximumRedirects) times.")
    }
}
