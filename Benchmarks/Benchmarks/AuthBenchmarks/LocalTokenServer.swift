import AuthCore
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A token endpoint on 127.0.0.1 for the transport benchmarks: every request gets the same small JSON token
/// response at once, keep-alive, so what is measured is the client transport, not the server.
final class TokenResponder: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    static let body = #"{"access_token":"at-0123456789abcdef","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-0123456789abcdef"}"#

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .end = unwrapInboundIn(data) else { return }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Content-Length", value: String(Self.body.utf8.count))
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: Self.body)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}

enum LocalTokenServer {
    /// Starts the server once per process and returns its token endpoint.
    static let endpoint: URL = {
        let channel = try! ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.configureHTTPServerPipeline()
                    try child.pipeline.syncOperations.addHandler(TokenResponder())
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .wait()
        return URL(string: "http://127.0.0.1:\(channel.localAddress!.port!)/token")!
    }()

    /// A refresh-shaped token request: the head and the form body.
    static func request() -> (HTTPRequest, Data) {
        var request = HTTPRequest(method: .post, url: endpoint)
        request.headerFields[.contentType] = "application/x-www-form-urlencoded"
        request.headerFields[.accept] = "application/json"
        return (request, Data("grant_type=refresh_token&refresh_token=rt-0123456789abcdef&client_id=bench".utf8))
    }
}
