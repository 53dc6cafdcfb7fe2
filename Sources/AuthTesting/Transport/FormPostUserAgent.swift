public import AuthCore
public import Foundation

/// A `UserAgent` without a browser for providers that answer with the OAuth 2.0 Form Post Response Mode
/// (https://openid.net/specs/oauth-v2-form-post-response-mode-1_0.html): it follows redirects like
/// `HeadlessUserAgent`, and when a page is an auto-submitting form that POSTs to the redirect URI, it returns the
/// redirect URI with the form's fields as its query — what a web app's POST callback route rebuilds before it calls
/// `AuthClient.completeSignIn(redirect:)`.
public struct FormPostUserAgent: UserAgent {
    private let transport: any HTTPTransport
    private let maximumRedirects: Int

    /// Creates an agent that browses through `transport`.
    public init(transport: any HTTPTransport, maximumRedirects: Int = 5) {
        self.transport = transport
        self.maximumRedirects = maximumRedirects
    }

    /// Follows the authorization URL to the redirect URI, by a redirect or by a posted form.
    ///
    /// - Throws: `authorization_failed` when a page neither redirects nor posts a form to the redirect URI.
    public func authorize(_ request: AuthorizationRequest) async throws -> URL {
        var url = request.url
        for _ in 0...maximumRedirects {
            let (body, response) = try await transport.send(HTTPRequest(method: .get, url: url))
            if (300..<400).contains(response.statusCode), let location = response.value(forHTTPHeaderField: "Location"),
                let next = URL(string: location, relativeTo: url)?.absoluteURL
            {
                if AuthorizationResponse.redirect(next, matches: request.redirectURI) || next.isLoopback { return next }
                url = next
                continue
            }
            if response.statusCode == 200, let form = Self.postedForm(in: String(decoding: body, as: UTF8.self)),
                let action = URL(string: form.action), AuthorizationResponse.redirect(action, matches: request.redirectURI)
            {
                return action.appendingQuery(form.fields)
            }
            throw AuthError(
                .authorizationFailed,
                "The authorization page answered HTTP \(response.statusCode) without redirecting or posting back.",
                providerID: request.providerID,
                httpStatus: response.statusCode
            )
        }
        throw AuthError(.authorizationFailed, "The authorization page redirected more than \(maximumRedirects) times.")
    }

    /// The first `<form method="post" action="…">` of `html` and its hidden fields, in order, HTML entities decoded;
    /// `nil` when there is none.
    public static func postedForm(in html: String) -> (action: String, fields: [(String, String)])? {
        guard let formStart = html.range(of: "<form", options: .caseInsensitive),
            let formEnd = html.range(of: "</form>", options: .caseInsensitive, range: formStart.upperBound..<html.endIndex)
        else { return nil }
        let form = String(html[formStart.lowerBound..<formEnd.lowerBound])
        guard let tagEnd = form.firstIndex(of: ">") else { return nil }
        let tag = String(form[..<tagEnd])
        guard attribute("method", in: tag)?.lowercased() == "post", let action = attribute("action", in: tag) else { return nil }
        var fields: [(String, String)] = []
        var rest = form[tagEnd...]
        while let input = rest.range(of: "<input", options: .caseInsensitive) {
            let end = rest[input.upperBound...].firstIndex(of: ">") ?? rest.endIndex
            let inputTag = String(rest[input.lowerBound..<end])
            if let name = attribute("name", in: inputTag) { fields.append((name, attribute("value", in: inputTag) ?? "")) }
            rest = rest[end...]
        }
        return (action, fields)
    }

    /// The double-quoted value of `name` in `tag`, entities decoded.
    private static func attribute(_ name: String, in tag: String) -> String? {
        guard let start = tag.range(of: " \(name)=\"", options: .caseInsensitive),
            let end = tag[start.upperBound...].firstIndex(of: "\"")
        else { return nil }
        return decodeEntities(String(tag[start.upperBound..<end]))
    }

    /// `&quot;`, `&#39;`, `&lt;`, `&gt;` and `&amp;` decoded (`&amp;` last, so `&amp;quot;` stays `&quot;`).
    private static func decodeEntities(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
