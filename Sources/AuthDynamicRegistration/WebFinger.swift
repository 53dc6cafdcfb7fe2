public import AuthCore
public import Foundation

/// OpenID Connect issuer discovery through WebFinger (RFC 7033; OpenID Connect Discovery 1.0 §2): from a user's
/// `acct:` identifier (or e-mail address, or URL) to the issuer that serves them.
public struct WebFinger: Sendable {
    /// The link relation naming an OpenID Connect issuer.
    public static let issuerRelation = "http://openid.net/specs/connect/1.0/issuer"

    let transport: any HTTPTransport
    let limits: HTTPRequestLimits

    /// Creates a WebFinger client sending through `transport`.
    public init(transport: any HTTPTransport, limits: HTTPRequestLimits = HTTPRequestLimits()) {
        self.transport = transport
        self.limits = limits
    }

    /// The WebFinger request URL for `identifier` (OpenID Connect Discovery §2.1 normalisation): `acct:user@host`
    /// (or `user@host`) asks `https://host`; a URL asks its own origin. Loopback-IP hosts are asked over plain http.
    ///
    /// - Throws: `invalid_configuration` for an identifier without a host.
    public static func requestURL(for identifier: String) throws -> URL {
        var resource = identifier
        let host: String
        if identifier.contains("://"), let url = URL(string: identifier), let name = url.host {
            host = name + (url.port.map { ":\($0)" } ?? "")
        } else {
            if !resource.hasPrefix("acct:") { resource = "acct:" + resource }
            guard let at = resource.lastIndex(of: "@"), resource.index(after: at) < resource.endIndex else {
                throw AuthError(.invalidConfiguration, "The account identifier has no host: use acct:user@host.", configurationKey: "account")
            }
            host = String(resource[resource.index(after: at)...])
        }
        let bare = host.split(separator: ":").first.map(String.init) ?? host
        let scheme = URL.isLoopbackIPLiteral(bare) ? "http" : "https"
        guard var components = URLComponents(string: "\(scheme)://\(host)/.well-known/webfinger") else {
            throw AuthError(.invalidConfiguration, "The account identifier's host is not a valid host.", configurationKey: "account")
        }
        components.queryItems = [URLQueryItem(name: "resource", value: resource), URLQueryItem(name: "rel", value: issuerRelation)]
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        guard let url = components.url else {
            throw AuthError(.invalidConfiguration, "The account identifier's host is not a valid host.", configurationKey: "account")
        }
        return url
    }

    /// The issuer serving `identifier`: the `href` of the answer's `http://openid.net/specs/connect/1.0/issuer` link.
    ///
    /// - Throws: `discovery_failed` for no answer, not JSON, or no issuer link; `webfinger_insecure_issuer` for an
    ///   issuer that is not https (plain http only on a loopback IP).
    public func issuer(for identifier: String) async throws -> String {
        let url = try Self.requestURL(for: identifier)
        var request = HTTPRequest(method: .get, url: url)
        request.headerFields.set("application/jrd+json, application/json", forName: "Accept")
        let (data, response) = try await transport.send(request, body: nil, limits: limits)
        guard response.status.code == 200, let object = try? JSONValue.parseObject(data) else {
            throw AuthError(.discoveryFailed, "WebFinger (\(request.summary)) answered HTTP \(response.status.code) without a JSON document.", endpoint: "webfinger")
        }
        let links = object["links"]?.arrayValue?.compactMap(\.objectValue) ?? []
        guard let href = links.first(where: { $0["rel"]?.stringValue == Self.issuerRelation })?["href"]?.stringValue else {
            throw AuthError(.discoveryFailed, "The WebFinger answer names no OpenID Connect issuer.", endpoint: "webfinger")
        }
        guard let issuer = URL(string: href), issuer.isSecureEndpoint, issuer.query == nil, issuer.fragment == nil else {
            throw AuthError(
                .webFingerInsecureIssuer, "The WebFinger answer names an issuer that is not an https URL without query or fragment (plain http only on 127.0.0.1 or [::1]).",
                endpoint: "webfinger")
        }
        return href
    }
}
