import AuthCore
public import Foundation
public import HTTPTypes

/// An answer of ``WebSignInCore``, whatever the web framework: the adapter copies status, header fields (with every
/// `Set-Cookie`) and body into its own response type.
public struct WebResponse: Sendable {
    /// The status.
    public var status: HTTPResponse.Status
    /// The header fields, `Set-Cookie` included (one field per cookie).
    public var headerFields: HTTPFields
    /// The body (empty for redirects).
    public var body: Data

    /// Creates a response.
    public init(status: HTTPResponse.Status, headerFields: HTTPFields = [:], body: Data = Data()) {
        self.status = status
        self.headerFields = headerFields
        self.body = body
    }

    /// A redirect to `location` (`302 Found` or `303 See Other`), never cached.
    static func redirect(to location: String, status: HTTPResponse.Status) -> WebResponse {
        WebResponse(status: status, headerFields: [.location: location, .cacheControl: "no-store"])
    }

    /// Adds `cookie`'s `Set-Cookie` field.
    mutating func setCookie(_ cookie: WebCookie) {
        headerFields.append(HTTPField(name: .setCookie, value: cookie.headerValue))
    }

    /// A small HTML page; the text is escaped, nothing is scripted, and it cannot be framed.
    public static func page(status: HTTPResponse.Status, title: String, message: String) -> WebResponse {
        let html = """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><title>\(HTMLText.escape(title))</title></head>\
            <body><h1>\(HTMLText.escape(title))</h1><p>\(HTMLText.escape(message))</p><p><a href="/">Back</a></p></body></html>
            """
        return WebResponse(
            status: status,
            headerFields: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                .contentSecurityPolicy: "default-src 'none'; frame-ancestors 'none'"
            ],
            body: Data(html.utf8)
        )
    }

    /// `object` as JSON with `status`, never cached.
    static func json(_ object: [String: JSONValue], status: HTTPResponse.Status = .ok) -> WebResponse {
        WebResponse(
            status: status,
            headerFields: [.contentType: "application/json", .cacheControl: "no-store"],
            body: (try? JSONValue.object(object).jsonData()) ?? Data("{}".utf8)
        )
    }

    /// The 503 page a request gets while the session store is not answering (its database is down or restarting):
    /// at once, with `Retry-After`, instead of hanging or a bare 500.
    public static var storeUnavailable: WebResponse {
        var response = page(
            status: .serviceUnavailable, title: "Unavailable for a moment", message: "Sign-in is unavailable for a moment; please try again shortly."
        )
        response.headerFields[.retryAfter] = "5"
        return response
    }
}
