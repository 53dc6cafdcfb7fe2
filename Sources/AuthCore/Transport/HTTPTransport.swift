public import Foundation
public import HTTPTypes

/// How an HTTP request is sent: AsyncHTTPClient on servers (AuthAsyncHTTPClient), URLSession in apps
/// (AuthURLSession), in-process in tests (AuthTesting), or your own client.
///
/// The seam speaks swift-http-types, as Hummingbird 2, AsyncHTTPClient and swift-openapi-runtime do, so AuthCore
/// needs neither URLSession nor, on Linux, Foundation's networking library (libcurl). A transport:
///
/// - sends exactly one request and returns the response as received — HTTP error statuses are returned, not
///   thrown, and redirects are never followed (the 3xx itself comes back; the engine refuses it);
/// - enforces `limits` **while the body arrives**: it stops reading once the body passes
///   ``HTTPRequestLimits/maximumResponseSize`` (`response_too_large`) and gives up at ``HTTPRequestLimits/timeout``
///   for the whole exchange (`timed_out`), so a hostile server can neither exhaust memory nor hold a caller;
/// - ends the request when the calling task is cancelled (`CancellationError`);
/// - never logs bodies or the `Authorization` header.
///
/// ## Migrating a transport written for `URLRequest`
/// Earlier versions of this seam had `send(_: URLRequest) async throws -> (Data, HTTPURLResponse)`. Such a transport keeps
/// its method and declares conformance to AuthURLSession's `URLRequestTransport` instead; that protocol provides
/// this one's requirement by converting each way (swift-http-types' HTTPTypesFoundation) and checking the limits
/// on the complete body. Streaming limits need a native implementation of ``send(_:body:limits:)``.
public protocol HTTPTransport: Sendable {
    /// Sends `request` with `body` under `limits` and returns the response body and head.
    ///
    /// - Parameters:
    ///   - request: the method, the URL (scheme, authority, path and query) and the header fields.
    ///   - body: the request body, or `nil` for none.
    ///   - limits: the size cap applied while the body arrives, and one deadline for the whole exchange.
    /// - Throws: `response_too_large` past the size cap, `timed_out` past the deadline, `CancellationError` when
    ///   the calling task is cancelled, or the client's error for a transport failure (no response).
    func send(_ request: HTTPRequest, body: Data?, limits: HTTPRequestLimits) async throws -> (Data, HTTPResponse)
}

extension HTTPTransport {
    /// Sends `request` under the default limits (1 MiB, 30 s).
    ///
    /// Package-only: an app sends through `Session.send(_:body:)` (which adds the token) and a transport implements
    /// ``send(_:body:limits:)``; this shorthand serves the package's own emulators, samples and tests.
    package func send(_ request: HTTPRequest, body: Data? = nil) async throws -> (Data, HTTPResponse) {
        try await send(request, body: body, limits: HTTPRequestLimits())
    }
}

extension HTTPRequest {
    /// `METHOD host/path` — what errors and logs name a request by (never the query, which may carry a token).
    package var summary: String {
        let url = self.url
        return "\(method.rawValue) \(url?.host ?? authority ?? "?")\(url?.path ?? "")"
    }
}

extension HTTPFields {
    /// The value of the field named `name` (all values joined with `, `), or `nil` — for names spelled as strings.
    package func value(named name: String) -> String? {
        guard let field = HTTPField.Name(name) else { return nil }
        return self[field]
    }
}

extension AuthError {
    /// `timed_out` for a request that did not complete within `limits.timeout`.
    package static func requestTimedOut(_ request: HTTPRequest, _ limits: HTTPRequestLimits) -> AuthError {
        AuthError(
            .timedOut,
            "\(request.summary) did not complete within \(limits.timeout); the provider may be down or deliberately slow."
        )
    }

    /// `response_too_large` for a body over `limits.maximumResponseSize`.
    package static func responseTooLarge(_ request: HTTPRequest, _ limits: HTTPRequestLimits) -> AuthError {
        AuthError(
            .responseTooLarge,
            "\(request.summary) sent more than \(limits.maximumResponseSize) bytes; the response was abandoned."
        )
    }
}

extension HTTPFields {
    /// Sets the field named `name` (spelled as a string, as provider code and vendor documents do) to `value`.
    ///
    /// Names come from this package's own constants and from `AuthClient.clientAuthentication(for:destination:)`, all valid
    /// tokens; an invalid one is a programming error.
    package mutating func set(_ value: String, forName name: String) {
        guard let field = HTTPField.Name(name) else { preconditionFailure("'\(name)' is not an HTTP field name") }
        self[field] = value
    }
}
