public import AuthCore
public import Foundation

/// A request as a transport handed it over — the head and the body — with the accessors tests and in-process
/// handlers read (`url`, `httpMethod`, `httpBody`, `value(forHTTPHeaderField:)`).
public struct CapturedRequest: Sendable {
    /// The method, URL and header fields.
    public var head: HTTPRequest
    /// The body, or `nil` when there was none.
    public var body: Data?

    /// Captures `head` and `body`.
    public init(_ head: HTTPRequest, body: Data? = nil) {
        self.head = head
        self.body = body
    }

    /// A request for `url` (tests that drive a handler directly).
    public init(method: HTTPRequest.Method = .get, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        var head = HTTPRequest(method: method, url: url)
        for (name, value) in headers {
            guard let field = HTTPField.Name(name) else { preconditionFailure("'\(name)' is not an HTTP field name") }
            head.headerFields[field] = value
        }
        self.init(head, body: body)
    }

    /// The URL (scheme, authority, path and query).
    public var url: URL? { head.url }
    /// The method, such as `POST` (setting a name HTTP does not allow is a programming error of the test).
    public var httpMethod: String {
        get { head.method.rawValue }
        set {
            guard let method = HTTPRequest.Method(newValue) else { preconditionFailure("'\(newValue)' is not an HTTP method") }
            head.method = method
        }
    }
    /// The body, or `nil`.
    public var httpBody: Data? {
        get { body }
        set { body = newValue }
    }

    /// Sets the header field `name` to `value` (replacing earlier values), or removes it for `nil`.
    public mutating func setValue(_ value: String?, forHTTPHeaderField name: String) {
        guard let field = HTTPField.Name(name) else { preconditionFailure("'\(name)' is not an HTTP field name") }
        head.headerFields[field] = value
    }

    /// The value of the header field `name` (case-insensitive; repeated fields joined with `, `).
    public func value(forHTTPHeaderField name: String) -> String? {
        head.headerFields.value(named: name)
    }

    /// Every header field, by its name as sent (repeated fields joined with `, `).
    public var allHTTPHeaderFields: [String: String] {
        var fields: [String: String] = [:]
        for field in head.headerFields {
            fields[field.name.rawName] = fields[field.name.rawName].map { "\($0), \(field.value)" } ?? field.value
        }
        return fields
    }
}

extension HTTPResponse {
    /// A response for in-process handlers.
    public static func make(status: Int, headers: [String: String] = [:]) -> HTTPResponse {
        var response = HTTPResponse(status: .init(code: status))
        for (name, value) in headers {
            guard let field = HTTPField.Name(name) else { preconditionFailure("'\(name)' is not an HTTP field name") }
            response.headerFields[field] = value
        }
        return response
    }

    /// The value of the header field `name` (case-insensitive), for tests that spell names as strings.
    public func value(forHTTPHeaderField name: String) -> String? {
        headerFields.value(named: name)
    }

    /// The status code, as `HTTPURLResponse` spells it.
    public var statusCode: Int { status.code }
}

extension HTTPTransport {
    /// Sends a captured request on (handlers that forward to another transport), under the default limits.
    public func send(_ request: CapturedRequest) async throws -> (Data, HTTPResponse) {
        try await send(request.head, body: request.body)
    }
}

extension Session {
    /// Sends a captured request with the session's access token (`Session.send(_:body:)`).
    public func send(_ request: CapturedRequest) async throws -> (Data, HTTPResponse) {
        try await send(request.head, body: request.body)
    }
}
