package import AuthCore
import Foundation

// Sign-out at GitHub: an OAuth app's user token never expires, so deleting it locally leaves every copy of it usable.
// GitHub has no RFC 7009 endpoint; it deletes the app's grant for the user — and with it every token of the app for
// that user — at `DELETE /applications/{client_id}/grant`, authenticated by HTTP Basic with the client id and secret,
// the token in a JSON body `{"access_token": …}`, answered 204 (REST API "Delete an app authorization",
// https://docs.github.com/en/rest/apps/oauth-applications#delete-an-app-authorization).
extension GitHubProvider: GrantRevokingProvider {
    /// Deletes the app's grant for the user whose access token `credential` holds; `false` without a client secret
    /// (a device-flow client has none to authenticate with, so its sign-out stays local).
    ///
    /// - Throws: `http_error` with GitHub's status for any answer but 204 (404 for a token GitHub does not know or a
    ///   wrong client id or secret, 422 for a malformed request); the engine's transport errors.
    package func revokeGrant(of credential: Credential, through sender: ProviderRequestSender) async throws -> Bool {
        guard let secret = client.clientSecret else { return false }
        let basic = Data("\(client.clientID):\(secret.reveal())".utf8).base64EncodedString()
        let body = try JSONValue.object(["access_token": .string(credential.accessToken.reveal())]).jsonData()
        let (status, _) = try await sender.send(
            method: "DELETE", url: grantURL,
            headers: [
                "Authorization": "Basic \(basic)", "Accept": "application/vnd.github+json", "Content-Type": "application/json",
                "X-GitHub-Api-Version": Self.apiVersion, "User-Agent": userAgent
            ],
            body: body, endpoint: "github_grant_revocation"
        )
        guard status == 204 else {
            throw AuthError(.httpError, "GitHub did not delete the app's grant (HTTP \(status)).", providerID: Self.id, httpStatus: status)
        }
        return true
    }

    /// `<api_url>/applications/<client_id>/grant`.
    var grantURL: URL {
        let clientID = client.clientID.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? client.clientID
        return api("/applications/\(clientID)/grant")
    }
}
