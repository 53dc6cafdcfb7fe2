import AuthCore
import AuthURLSession
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A scripted browser for django-oauth-toolkit: follows redirects itself, keeps the CSRF and session cookies,
/// fills in Django's login form when one is shown, and finally requests the loopback redirect like a browser.
actor FormLoginBrowser {
    enum Failure: Error, CustomStringConvertible {
        case unexpectedPage(Int, URL)
        case tooManyRedirects
        var description: String {
            switch self {
            case .unexpectedPage(let status, let url): "unexpected HTTP \(status) at \(url.path)"
            case .tooManyRedirects: "too many redirects"
            }
        }
    }

    private let username: String
    private let password: String
    private let serverPort: Int
    private let transport: URLSessionTransport
    private var cookies: [String: String] = [:]
    /// How many times the login form was submitted.
    private(set) var loginsSubmitted = 0
    /// Every URL requested, in order.
    private(set) var visited: [URL] = []

    init(username: String, password: String, serverPort: Int) {
        self.username = username
        self.password = password
        self.serverPort = serverPort
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        transport = URLSessionTransport(configuration: configuration)
    }

    /// Drives `url` to completion: ends after requesting a URL that is not on the identity server.
    func open(_ url: URL) async throws {
        var next = url
        var form: [(String, String)]?
        for _ in 0..<12 {
            var request = HTTPRequest(method: form == nil ? .get : .post, url: next)
            var body: Data?
            if let form {
                body = Data(FormEncoding.encode(form).utf8)
                request.headerFields[.contentType] = "application/x-www-form-urlencoded"
                request.headerFields[.referer] = next.absoluteString
            }
            if !cookies.isEmpty {
                request.headerFields[.cookie] = cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
            }
            visited.append(next)
            let (data, response) = try await transport.send(request, body: body)
            absorbCookies(response)
            if next.port != serverPort { return }  // the redirect reached the app's loopback listener
            form = nil
            if (300..<400).contains(response.statusCode), let location = response.value(forHTTPHeaderField: "Location"),
                let target = URL(string: location, relativeTo: next)?.absoluteURL
            {
                next = target
                continue
            }
            let page = String(decoding: data, as: UTF8.self)
            if response.statusCode == 200, let token = Self.csrfToken(in: page) {
                let nextField = Self.hiddenValue("next", in: page) ?? ""
                form = [("csrfmiddlewaretoken", token), ("username", username), ("password", password), ("next", nextField)]
                loginsSubmitted += 1
                continue
            }
            throw Failure.unexpectedPage(response.statusCode, next)
        }
        throw Failure.tooManyRedirects
    }

    private func absorbCookies(_ response: HTTPResponse) {
        let header = response.value(forHTTPHeaderField: "Set-Cookie") ?? ""
        for name in ["csrftoken", "sessionid"] {
            guard let range = header.range(of: "\(name)=") else { continue }
            let value = header[range.upperBound...].prefix { $0 != ";" && $0 != "," && !$0.isWhitespace }
            if value.isEmpty || value == "\"\"" { cookies[name] = nil } else { cookies[name] = String(value) }
        }
    }

    private static func csrfToken(in page: String) -> String? {
        hiddenValue("csrfmiddlewaretoken", in: page)
    }

    private static func hiddenValue(_ name: String, in page: String) -> String? {
        guard let nameRange = page.range(of: "name=\"\(name)\" value=\""), !nameRange.isEmpty else { return nil }
        let value = page[nameRange.upperBound...].prefix { $0 != "\"" }
        return String(value).replacingOccurrences(of: "&amp;", with: "&")
    }
}
