// Compiled with the "AsyncHTTPClientTransport" trait only, so async-http-client (and swift-nio-ssl, …) stay out of
// apps that do not enable it: `.package(url: …, from: …, traits: ["AsyncHTTPClientTransport"])`.
#if AsyncHTTPClientTransport
    public import AsyncHTTPClient
    public import AuthCore
    public import Foundation
    public import HTTPTypes
    public import NIOCore
    import NIOHTTP1

    /// An ``AuthCore/HTTPTransport`` on AsyncHTTPClient, for server-side Swift on Linux (Hummingbird, Vapor): no
    /// libcurl and no thread hop per request, one connection pool shared with the rest of the service.
    ///
    /// - The body is read chunk by chunk and abandoned as soon as it passes the cap (`response_too_large`), so a
    ///   hostile provider cannot make the process buffer more than the limit.
    /// - One deadline covers the whole exchange, body included (`timed_out`); cancelling the calling task cancels
    ///   the request.
    /// - Redirects are never followed: the transport's own client refuses them, and a response that arrived through
    ///   a redirect of a shared client that follows them is refused (`unexpected_redirect`) — create shared clients
    ///   with ``makeClient(eventLoopGroup:)`` or `redirectConfiguration: .disallow`.
    ///
    /// ```swift
    /// let http = AsyncHTTPClientTransport.makeClient()            // or your service's HTTPClient (redirects disallowed)
    /// let client = AuthClient(provider: provider, transport: AsyncHTTPClientTransport(client: http))
    /// …
    /// try await http.shutdown()                                   // the owner shuts it down
    /// ```
    public final class AsyncHTTPClientTransport: HTTPTransport {
        /// The HTTP client requests go through.
        public let client: HTTPClient
        /// Whether requests ask for compressed answers (`Accept-Encoding: gzip, deflate`), as URLSession does; only for
        /// a client that decompresses them.
        public let acceptsCompressedResponses: Bool
        private let ownsClient: Bool

        /// Uses `client`, which its owner shuts down. It must not follow redirects (see ``makeClient(eventLoopGroup:)``).
        ///
        /// - Parameter acceptsCompressedResponses: pass `true` only for a client with decompression enabled (one from
        ///   ``makeClient(eventLoopGroup:)`` has it); some providers compress their answers when asked.
        public init(client: HTTPClient, acceptsCompressedResponses: Bool = false) {
            self.client = client
            self.acceptsCompressedResponses = acceptsCompressedResponses
            self.ownsClient = false
        }

        /// Creates and owns a client (``makeClient(eventLoopGroup:)``) on the shared event loop group; call
        /// ``shutdown()`` when done.
        public init() {
            self.client = Self.makeClient()
            self.acceptsCompressedResponses = true
            self.ownsClient = true
        }

        /// Owns `client` (made here): ``shutdown()`` shuts it down.
        init(ownedClient client: HTTPClient) {
            self.client = client
            self.acceptsCompressedResponses = true
            self.ownsClient = true
        }

        /// A client configured for back-channel requests: redirects disallowed; gzip and deflate answers decompressed
        /// while they stream (at most 100× expansion per response — the body cap then applies to the decompressed bytes).
        public static func makeClient(eventLoopGroup: any EventLoopGroup = HTTPClient.defaultEventLoopGroup) -> HTTPClient {
            var configuration = HTTPClient.Configuration()
            configuration.redirectConfiguration = .disallow
            configuration.decompression = .enabled(limit: .ratio(100))
            return HTTPClient(eventLoopGroup: eventLoopGroup, configuration: configuration)
        }

        /// Shuts down the client if this transport created it (a shared client is left to its owner).
        public func shutdown() async throws {
            if ownsClient { try await client.shutdown() }
        }

        /// Sends `request` with `body`, reading the response body while it arrives up to
        /// `limits.maximumResponseSize`, all within `limits.timeout`.
        ///
        /// - Throws: `response_too_large`, `timed_out`, `unexpected_redirect` (a shared client followed one),
        ///   `CancellationError`, or AsyncHTTPClient's error for a transport failure.
        public func send(_ request: HTTPRequest, body: Data?, limits: HTTPRequestLimits) async throws -> (Data, HTTPResponse) {
            guard let url = request.url else {
                throw AuthError(.invalidConfiguration, "\(request.summary) has no URL to send to.")
            }
            var outgoing = HTTPClientRequest(url: url.absoluteString)
            outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
            for field in request.headerFields {
                outgoing.headers.add(name: field.name.rawName, value: field.value)
            }
            if acceptsCompressedResponses, request.headerFields[.acceptEncoding] == nil {
                outgoing.headers.add(name: "Accept-Encoding", value: "gzip, deflate")
            }
            if let body {
                outgoing.body = .bytes(ByteBuffer(bytes: body))
            }
            let client = self.client
            let prepared = outgoing
            let timeout = limits.timeout
            // Our deadline bounds the whole exchange, body included, even if the client were slow to notice its own.
            return try await withDeadline(timeout, onTimeout: { AuthError.requestTimedOut(request, limits) }) {
                let response: HTTPClientResponse
                do {
                    response = try await client.execute(prepared, deadline: .now() + .nanoseconds(timeout.nanoseconds))
                } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
                    throw AuthError.requestTimedOut(request, limits)
                } catch let error as HTTPClientError where error == .cancelled {
                    throw CancellationError()
                }
                guard response.history.count <= 1 else {
                    throw AuthError(
                        .unexpectedRedirect,
                        "\(request.summary) was answered through a redirect that the shared HTTPClient followed; create it with redirectConfiguration: .disallow.",
                        httpStatus: Int(response.status.code)
                    )
                }
                var data = Data()
                for try await chunk in response.body {
                    guard data.count + chunk.readableBytes <= limits.maximumResponseSize else {
                        // Leaving the loop drops the body stream; AsyncHTTPClient then closes the connection.
                        throw AuthError.responseTooLarge(request, limits)
                    }
                    chunk.withUnsafeReadableBytes { data.append(contentsOf: $0) }
                }
                var head = HTTPResponse(status: .init(code: Int(response.status.code), reasonPhrase: response.status.reasonPhrase))
                for header in response.headers {
                    guard let name = HTTPField.Name(header.name) else { continue }
                    head.headerFields.append(HTTPField(name: name, value: header.value))
                }
                return (data, head)
            }
        }
    }
#endif
