import AuthCore
import Foundation

// Pushed authorization requests (RFC 9126), strict as the RFC says: the client authenticates as at the token endpoint,
// a `request_uri` is used once and only before it expires, and a provider that requires pushed requests refuses any
// other authorization request.
extension TestIdentityProvider {
    /// How the provider serves pushed authorization requests.
    public struct PushedAuthorizationSettings: Sendable {
        /// Whether discovery says `require_pushed_authorization_requests: true` and the authorization endpoint refuses
        /// a request that was not pushed.
        public var required: Bool
        /// The `expires_in` of every `request_uri`, in seconds.
        public var requestLifetime: Int

        /// Creates settings.
        public init(required: Bool = false, requestLifetime: Int = 60) {
            self.required = required
            self.requestLifetime = requestLifetime
        }
    }

    /// A pushed request waiting for its authorization request.
    struct PushedRequest {
        let clientID: String
        let parameters: [String: String]
        let expiresAt: Date
    }

    /// The pushed authorization request endpoint (RFC 9126 §2): the client authenticated, no `request_uri` inside, a
    /// signed request object verified and unpacked, the redirect URI registered; then `201` with a single-use
    /// `request_uri` and its `expires_in`.
    func pushedAuthorization(_ request: CapturedRequest, url: URL) -> (Data, HTTPResponse) {
        if let (status, body) = behavior.pushedAuthorizationAnswer { return json(body, status: status, url: url, headers: ["Cache-Control": "no-store"]) }
        let form = formParameters(request)
        let client: Client
        switch authenticateClient(request, form: form) {
        case .success(let authenticated): client = authenticated
        case .failure(let failure):
            pushedAuthorizationFailures.append("client authentication: \(failure.rawValue)")
            return clientAuthenticationError(failure, url: url)
        }
        func refuse(_ error: String, _ reason: String) -> (Data, HTTPResponse) {
            pushedAuthorizationFailures.append(reason)
            return oauthError(error, description: reason, url: url)
        }
        guard form["request_uri"] == nil else { return refuse("invalid_request", "request_uri inside a pushed request") }
        guard form["client_id"] == nil || form["client_id"] == client.id else { return refuse("invalid_request", "client_id is not the authenticated client") }
        let authentication: Set<String> = ["client_assertion", "client_assertion_type", "client_secret"]
        var parameters = form.filter { !authentication.contains($0.key) }
        if let requestObject = parameters["request"] {
            guard let (signed, audienceMatches) = verifyRequestObject(requestObject, client: client), audienceMatches else {
                return refuse("invalid_request_object", "invalid request object")
            }
            parameters.merge(signed) { _, fromObject in fromObject }
            parameters["request"] = nil
        }
        parameters["client_id"] = client.id
        guard let redirect = parameters["redirect_uri"].flatMap(URL.init(string:)),
            client.redirectURIs.contains(where: { Self.redirect(redirect, matchesRegistered: $0) })
        else { return refuse("invalid_request", "redirect_uri not registered") }
        let lifetime = configuration.pushedAuthorization?.requestLifetime ?? 60
        let requestURI = "urn:ietf:params:oauth:request_uri:" + SecureRandom.token(byteCount: 24)
        pushedRequests[requestURI] = PushedRequest(clientID: client.id, parameters: parameters, expiresAt: clock.now().addingTimeInterval(TimeInterval(lifetime)))
        return json(
            ["request_uri": .string(requestURI), "expires_in": .number(Double(lifetime))], status: 201, url: url, headers: ["Cache-Control": "no-store"])
    }

    /// For an authorization request at a provider that serves pushed requests: a `request_uri` replaces the query with
    /// the pushed parameters (used once, before it expires, by the client that pushed it); without one, a provider
    /// that requires pushed requests refuses. Returns the error page, or `nil` to go on.
    func resolvePushedRequest(_ query: inout [String: String], client: Client, url: URL) -> (Data, HTTPResponse)? {
        guard let settings = configuration.pushedAuthorization else { return nil }
        guard let requestURI = query["request_uri"] else {
            guard settings.required else { return nil }
            pushedAuthorizationFailures.append("authorization request not pushed")
            return page("This server requires pushed authorization requests (RFC 9126).", status: 400, url: url)
        }
        // Removed at the first use, whatever follows: a request_uri is never accepted twice.
        guard let pushed = pushedRequests.removeValue(forKey: requestURI) else {
            pushedAuthorizationFailures.append("unknown or used request_uri")
            return page("Unknown or already used request_uri.", status: 400, url: url)
        }
        guard pushed.clientID == client.id else {
            pushedAuthorizationFailures.append("request_uri of another client")
            return page("The request_uri was pushed by another client.", status: 400, url: url)
        }
        guard pushed.expiresAt > clock.now() else {
            pushedAuthorizationFailures.append("expired request_uri")
            return page("The request_uri has expired.", status: 400, url: url)
        }
        query = pushed.parameters
        return nil
    }
}
