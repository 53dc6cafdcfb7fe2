// Run with the trait: `swift test --traits AsyncHTTPClientTransport --filter AsyncHTTPClientTransportTests`.
#if AsyncHTTPClientTransport
    import AsyncHTTPClient
    import AuthAsyncHTTPClient
    import AuthCore
    import Foundation
    import NIOCore
    import NIOHTTP1
    import NIOPosix
    import Testing

    /// A hostile HTTP server on 127.0.0.1 for the transport: a normal answer, a redirect, a huge body, a body that
    /// drips, and a request never answered.
    private final class HostileHandler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        private var uri: String?

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head): uri = head.uri
            case .body: break
            case .end:
                switch uri ?? "" {
                case "/ok": respond(context, status: .ok, headers: [("Content-Type", "application/json")], body: #"{"ok":true}"#)
                case "/redirect": respond(context, status: .found, headers: [("Location", "/ok")], body: "")
                case "/big": stream(context, chunks: 64, chunkSize: 16 * 1024, interval: .zero)
                case "/drip": stream(context, chunks: 6_000, chunkSize: 1, interval: .milliseconds(20))  // 120 s in all
                default: break  // "/silent": never answered
                }
            }
        }

        private func respond(_ context: ChannelHandlerContext, status: HTTPResponseStatus, headers: [(String, String)], body: String) {
            var fields = HTTPHeaders(headers)
            fields.add(name: "Content-Length", value: String(body.utf8.count))
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: fields))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }

        private func stream(_ context: ChannelHandlerContext, chunks: Int, chunkSize: Int, interval: TimeAmount) {
            var fields = HTTPHeaders()
            fields.add(name: "Content-Length", value: String(chunks * chunkSize))
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: fields))), promise: nil)
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            let chunk = context.channel.allocator.buffer(repeating: UInt8(ascii: "x"), count: chunkSize)
            Self.send(chunks, chunk: chunk, interval: interval, to: bound)
        }

        /// Writes `remaining` chunks, one after another, `interval` apart, then the end.
        private static func send(_ remaining: Int, chunk: ByteBuffer, interval: TimeAmount, to bound: NIOLoopBound<ChannelHandlerContext>) {
            guard remaining > 0 else {
                bound.value.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil)), promise: nil)
                return
            }
            bound.value.writeAndFlush(NIOAny(HTTPServerResponsePart.body(.byteBuffer(chunk)))).whenSuccess {
                if interval == .zero {
                    send(remaining - 1, chunk: chunk, interval: interval, to: bound)
                } else {
                    bound.value.eventLoop.scheduleTask(in: interval) { send(remaining - 1, chunk: chunk, interval: interval, to: bound) }
                }
            }
        }
    }

    private struct HostileServer {
        let channel: any Channel
        var base: String { "http://127.0.0.1:\(channel.localAddress?.port ?? 0)" }

        static func start() async throws -> HostileServer {
            let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .childChannelInitializer { child in
                    child.eventLoop.makeCompletedFuture {
                        try child.pipeline.syncOperations.configureHTTPServerPipeline()
                        try child.pipeline.syncOperations.addHandler(HostileHandler())
                    }
                }
                .bind(host: "127.0.0.1", port: 0)
                .get()
            return HostileServer(channel: channel)
        }

        func request(_ path: String) -> HTTPRequest {
            HTTPRequest(method: .get, url: URL(string: base + path)!)
        }
    }

    @Suite("AsyncHTTPClientTransport against a hostile server over real HTTP")
    struct AsyncHTTPClientTransportTests {
        @Test("an answer arrives with its status and headers")
        func ok() async throws {
            let server = try await HostileServer.start()
            let transport = AsyncHTTPClientTransport()
            let (data, response) = try await transport.send(server.request("/ok"), body: nil, limits: HTTPRequestLimits())
            #expect(response.status.code == 200 && String(decoding: data, as: UTF8.self) == #"{"ok":true}"#)
            #expect(response.headerFields[.contentType] == "application/json")
            try await transport.shutdown()
            try await server.channel.close()
        }

        @Test("a redirect is returned, never followed; a shared client that follows is refused")
        func redirects() async throws {
            let server = try await HostileServer.start()
            let own = AsyncHTTPClientTransport()
            let (_, response) = try await own.send(server.request("/redirect"), body: nil, limits: HTTPRequestLimits())
            #expect(response.status.code == 302 && response.headerFields[.location] == "/ok")
            try await own.shutdown()

            let following = HTTPClient(
                eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: HTTPClient.Configuration(redirectConfiguration: .follow(max: 3, allowCycles: false)))
            let shared = AsyncHTTPClientTransport(client: following)
            let error = await #expect(throws: AuthError.self) { _ = try await shared.send(server.request("/redirect"), body: nil, limits: HTTPRequestLimits()) }
            #expect(error?.code == .unexpectedRedirect)
            try await following.shutdown()
            try await server.channel.close()
        }

        @Test("a body over the cap is abandoned while it arrives (response_too_large)")
        func bodyCap() async throws {
            let server = try await HostileServer.start()
            let transport = AsyncHTTPClientTransport()
            let error = await #expect(throws: AuthError.self) {
                _ = try await transport.send(server.request("/big"), body: nil, limits: HTTPRequestLimits(maximumResponseSize: 32 * 1024, timeout: .seconds(10)))
            }
            #expect(error?.code == .responseTooLarge)
            try await transport.shutdown()
            try await server.channel.close()
        }

        @Test("one deadline covers the whole exchange — a silent server and a dripping body both time out")
        func deadline() async throws {
            let server = try await HostileServer.start()
            let transport = AsyncHTTPClientTransport()
            // The bound is far below the 120 seconds either would take, with room for a machine busy with other suites.
            for path in ["/silent", "/drip"] {
                let started = ContinuousClock.now
                let error = await #expect(throws: AuthError.self) {
                    _ = try await transport.send(server.request(path), body: nil, limits: HTTPRequestLimits(timeout: .milliseconds(400)))
                }
                #expect(error?.code == .timedOut, "\(path)")
                #expect(ContinuousClock.now - started < .seconds(30), "\(path)")
            }
            try await transport.shutdown()
            try await server.channel.close()
        }

        @Test("cancelling the calling task ends the request")
        func cancellation() async throws {
            let server = try await HostileServer.start()
            let transport = AsyncHTTPClientTransport()
            let request = server.request("/silent")
            let task = Task { try await transport.send(request, body: nil, limits: HTTPRequestLimits(timeout: .seconds(120))) }
            try await Task.sleep(for: .milliseconds(100))
            let started = ContinuousClock.now
            task.cancel()
            let result = await task.result
            #expect(throws: CancellationError.self) { try result.get() }
            #expect(ContinuousClock.now - started < .seconds(30))
            try await transport.shutdown()
            try await server.channel.close()
        }
    }
#endif
