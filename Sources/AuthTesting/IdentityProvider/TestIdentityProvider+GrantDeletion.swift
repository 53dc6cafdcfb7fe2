import AuthCore
import Foundation

// An app's own grant deletion (GitHub's "Delete an app authorization",
// https://docs.github.com/en/rest/apps/oauth-applications#delete-an-app-authorization).
extension TestIdentityProvider {
    /// `DELETE <Paths/grantDeletion>` (also under `/api/v3`, as GitHub Enterprise Server serves it) with HTTP Basic
    /// client authentication (the client id of the path and its secret) and a JSON body `{"access_token": …}`: the
    /// grant of that token's user to that app ends — every access and refresh token the app holds for the user — and the
    /// answer is 204 with no body. As GitHub answers: 422 "Validation Failed" for a body without `access_token`; 404
    /// "Not Found" for missing or wrong client credentials, a client id that is not the path's, and a token that is
    /// unknown, revoked or another app's (GitHub's "Check a token" says "Invalid tokens will return 404 NOT FOUND", and
    /// GitHub answers 404 where a request lacks the authentication a resource needs:
    /// https://docs.github.com/en/rest/using-the-rest-api/troubleshooting-the-rest-api#404-not-found-for-an-existing-resource).
    /// `nil` for any other request.
    func deleteGrant(_ request: CapturedRequest, path: String, url: URL) -> (Data, HTTPResponse)? {
        guard let template = configuration.paths.grantDeletion, request.httpMethod == "DELETE",
            let placeholder = template.range(of: "{client_id}")
        else { return nil }
        let path = path.hasPrefix("/api/v3/") ? String(path.dropFirst("/api/v3".count)) : path
        let prefix = String(template[..<placeholder.lowerBound])
        let suffix = String(template[placeholder.upperBound...])
        guard path.hasPrefix(prefix), path.hasSuffix(suffix), path.count > prefix.count + suffix.count else { return nil }
        let pathClientID = String(path.dropFirst(prefix.count).dropLast(suffix.count)).removingPercentEncoding ?? ""
        let notFound = githubError(404, "Not Found", "https://docs.github.com/rest/apps/oauth-applications#delete-an-app-authorization")
        guard let (clientID, secret) = basicCredentials(request), clientID == pathClientID,
            let client = configuration.clients.first(where: { $0.id == clientID }), let registered = client.secret,
            constantTimeEquals(secret, registered)
        else { return notFound }
        guard let body = request.httpBody, let object = try? JSONValue.parseObject(body), let token = object["access_token"]?.stringValue,
            !token.isEmpty
        else {
            return githubError(422, "Validation Failed", "https://docs.github.com/rest/apps/oauth-applications#delete-an-app-authorization")
        }
        guard let record = accessTokens[token], record.clientID == clientID, isActive(record) else { return notFound }
        // The grant: every token of this app for this user, through their families (refresh tokens too). The records
        // stay, refused by `isActive`, so that `apiAnswers(toTokensOf:path:)` can still present them.
        for other in accessTokens.values where other.subject == record.subject && other.clientID == clientID {
            revokedFamilies.insert(other.family)
        }
        grantDeletions += 1
        return (Data(), .make(status: 204))
    }

    /// What the provider's API at `path` answers each access token it issued to `subject`, as any holder of a copy of
    /// the token would call it (with a `User-Agent`): the statuses, sorted. For a test that cannot see the tokens — an
    /// app keeps them encrypted — to show that a sign-out left none of them working.
    package func apiAnswers(toTokensOf subject: String, path: String) -> [Int] {
        accessTokens.filter { $0.value.subject == subject }.keys.map { token in
            let request = CapturedRequest(url: endpoint(path), headers: ["Authorization": "Bearer \(token)", "User-Agent": "auth-emulator"])
            if let api = configuration.quirks.api, let answer = api(request, bearerSubject(request)) { return answer.status }
            return protectedResource(request, url: endpoint(path)).1.status.code
        }.sorted()
    }

    /// GitHub's error body: `message` and `documentation_url`, with `status`.
    private func githubError(_ status: Int, _ message: String, _ documentation: String) -> (Data, HTTPResponse) {
        let body: JSONValue = .object(["message": .string(message), "documentation_url": .string(documentation), "status": .string(String(status))])
        return ((try? body.jsonData()) ?? Data(), .make(status: status, headers: ["Content-Type": "application/json; charset=utf-8"]))
    }

    /// The user name and password of an `Authorization: Basic` header.
    private func basicCredentials(_ request: CapturedRequest) -> (String, String)? {
        guard let header = request.value(forHTTPHeaderField: "Authorization"), header.lowercased().hasPrefix("basic "),
            let decoded = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
            let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }

    private func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
