import AuthCore
public import Foundation
public import HTTPTypes

/// A request as ``WebSignInCore`` sees it, whatever the web framework: method, path, query, header fields and, for
/// the routes that read one, the body the adapter collected (at most ``WebSignInCore/maximumFormBodySize`` bytes).
public struct WebRequest: Sendable {
    /// The request method.
    public var method: HTTPRequest.Method
    /// The path, without the query (`/auth/oidc/callback`).
    public var path: String
    /// The query after `?`, undecoded; `nil` when there is none.
    public var query: String?
    /// The header fields (cookies, `Content-Type`, `X-CSRF-Token`).
    public var headerFields: HTTPFields
    /// The body, for the routes that read one (POST callbacks, sign-out, back-channel logout, native sign-in);
    /// `nil` when the adapter did not collect it.
    public var body: Data?

    /// Creates a request.
    public init(method: HTTPRequest.Method, path: String, query: String? = nil, headerFields: HTTPFields = [:], body: Data? = nil) {
        self.method = method
        self.path = path
        self.query = query
        self.headerFields = headerFields
        self.body = body
    }

    /// The value of the cookie `name`, or `nil`. With several cookies of that name (one planted beside the app's),
    /// the first wins, as the browser sends the most specific path first (RFC 6265 §5.4).
    public func cookie(_ name: String) -> String? {
        for header in headerFields[values: .cookie] {
            for pair in header.split(separator: ";") {
                let trimmed = pair.drop { $0 == " " || $0 == "\t" }
                guard let equals = trimmed.firstIndex(of: "=") else { continue }
                if trimmed[..<equals] == name { return String(trimmed[trimmed.index(after: equals)...]) }
            }
        }
        return nil
    }

    /// The body as `application/x-www-form-urlencoded` pairs, in order; `nil` when the request has another content
    /// type (or none) or no body.
    var formPairs: [(String, String)]? {
        guard let body, let type = headerFields[.contentType],
            type.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() == "application/x-www-form-urlencoded"
        else { return nil }
        return FormEncoding.decode(String(decoding: body, as: UTF8.self))
    }

    /// The first value of `name` in the body read as a form (the content type is not checked: sign-out's and
    /// back-channel logout's callers send forms, and a value in anything else simply does not match).
    func formValue(_ name: String) -> String? {
        guard let body else { return nil }
        return FormEncoding.decode(String(decoding: body, as: UTF8.self)).first { $0.0 == name }?.1
    }
}
