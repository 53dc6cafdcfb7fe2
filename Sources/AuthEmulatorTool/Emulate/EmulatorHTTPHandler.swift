import AuthCore
import AuthEmulators
import AuthTesting
import CommandLineOutput
import Foundation
import NIOCore
import NIOHTTP1

/// The HTTP front of an in-process emulator: each request is turned into a `CapturedRequest` for the same handler the
/// in-process transport calls, so the emulator's rules exist once, whichever front a client reaches it through.
/// Every response closes the connection (a test server, not a production one).
final class EmulatorHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// Request bodies are small forms; anything larger is refused.
    static let maximumBodySize = 1 << 20

    /// What request paths are resolved against: the emulator reads only the path and query of a request, so the
    /// host and port need not be known when a connection is accepted.
    static let base = URL(string: "http://127.0.0.1/")!

    private let serve: @Sendable (CapturedRequest) async -> (Data, HTTPResponse)
    private var head: HTTPRequestHead?
    private var body: ByteBuffer?

    init(serve: @escaping @Sendable (CapturedRequest) async -> (Data, HTTPResponse)) {
        self.serve = serve
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = context.channel.allocator.buffer(capacity: 0)
        case .body(var chunk):
            guard (body?.readableBytes ?? 0) + chunk.readableBytes <= Self.maximumBodySize else {
                head = nil
                Self.respond(context, status: 413, headers: [:], body: Data("Request body too large".utf8))
                return
            }
            body?.writeBuffer(&chunk)
        case .end:
            guard let head else { return }
            self.head = nil
            guard let url = URL(string: head.uri, relativeTo: Self.base)?.absoluteURL else {
                Self.respond(context, status: 400, headers: [:], body: Data("Bad request target".utf8))
                return
            }
            var requestHead = HTTPRequest(method: HTTPRequest.Method(head.method.rawValue) ?? .get, url: url)
            for header in head.headers {
                guard let name = HTTPField.Name(header.name) else { continue }
                requestHead.headerFields.append(HTTPField(name: name, value: header.value))
            }
            let request = CapturedRequest(requestHead, body: body.flatMap { $0.readableBytes > 0 ? Data($0.readableBytesView) : nil })
            let loop = context.eventLoop
            let bound = NIOLoopBound(context, eventLoop: loop)
            let serve = serve
            let sent = request
            loop.makeFutureWithTask { await Self.answer(sent, serve) }.whenSuccess { status, headers, data in
                Self.respond(bound.value, status: status, headers: headers, body: data)
            }
        }
    }

    /// The emulator's answer to `request`: status, headers and body.
    @Sendable private static func answer(
        _ request: CapturedRequest,
        _ serve: @Sendable (CapturedRequest) async -> (Data, HTTPResponse)
    ) async -> (Int, [String: String], Data) {
        let (data, response) = await serve(request)
        var headers: [String: String] = [:]
        for field in response.headerFields {
            headers[field.name.rawName] = headers[field.name.rawName].map { "\($0), \(field.value)" } ?? field.value
        }
        return (response.status.code, headers, data)
    }

    private static func respond(_ context: ChannelHandlerContext, status: Int, headers: [String: String], body: Data) {
        var fields = HTTPHeaders(headers.map { ($0.key, $0.value) })
        fields.replaceOrAdd(name: "Content-Length", value: String(body.count))
        fields.replaceOrAdd(name: "Connection", value: "close")
        let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: status), headers: fields)
        context.write(NIOAny(HTTPServerResponsePart.head(head)), promise: nil)
        context.write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
    }
}
