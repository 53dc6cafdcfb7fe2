package import Foundation
import HTTPTypes

/// A provider that revokes a user's grant with its own API rather than RFC 7009 (GitHub's
/// `DELETE /applications/{client_id}/grant`): `Session/signOut(revokingTokens:)` calls it, after the local
/// sign-out, instead of the revocation endpoint. Package API: the hook is the engine's business, not an app's.
package protocol GrantRevokingProvider: AuthProvider {
    /// Revokes the grant behind `credential` at the provider, through `sender` (the client's transport, limits, logs
    /// and traces). Returns `false` when it cannot (no client secret to authenticate with): the sign-out is local then.
    ///
    /// - Throws: the provider's refusal or a transport error; the local sign-out has happened regardless.
    func revokeGrant(of credential: Credential, through sender: ProviderRequestSender) async throws -> Bool
}

/// Sends a provider's own API requests through its client: refused redirects, capped bodies, `Retry-After`, logging
/// of the method, host and path only, and tracing.
package struct ProviderRequestSender: Sendable {
    let http: ProviderHTTPClient

    /// Sends `method` to `url` with `headers` and `body`; returns the status and body of whatever the server answered.
    ///
    /// - Parameter endpoint: the endpoint's kind for logs and traces (`grant_revocation`), never its URL.
    /// - Throws: `invalid_configuration` for a header name HTTP does not allow; transport errors as the engine reports
    ///   them.
    package func send(
        method: String, url: URL, headers: [String: String], body: Data?, endpoint: String
    ) async throws -> (status: Int, body: Data) {
        var request = HTTPRequest(method: HTTPRequest.Method(method) ?? .post, url: url)
        for (name, value) in headers {
            guard let field = HTTPField.Name(name) else {
                throw AuthError(.invalidConfiguration, "'\(name)' is not a valid HTTP header name.", providerID: http.providerID)
            }
            request.headerFields[field] = value
        }
        let (data, response) = try await http.send(request, body: body, endpoint: endpoint)
        return (response.status.code, data)
    }
}

extension AuthClient {
    /// Revokes the grant behind `credential` when the provider revokes with its own API; `nil` when it does not
    /// (the caller falls back to RFC 7009), `false` when it could not try.
    func revokeGrantIfProviderDoes(_ credential: Credential) async throws -> Bool? {
        guard let revoking = provider as? any GrantRevokingProvider else { return nil }
        let sender = ProviderRequestSender(http: providerHTTP)
        return try await instrumented(.revocation) { try await revoking.revokeGrant(of: credential, through: sender) }
    }
}
