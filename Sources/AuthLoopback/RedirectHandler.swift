import AuthCore
import Foundation
import NIOCore
import NIOHTTP1

/// Answers the browser's request to the loopback listener: the redirect path with the pending `state` (or an OAuth
/// `error`) gets a "you can close this window" page and is handed to the waiter; the redirect path without them
/// gets 400 and changes nothing; anything else gets 404. Every response closes the connection.
final class RedirectHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let path: String
    private let waiter: RedirectWaiter
    private let expectedState: LockedValue<String?>
    private var head: HTTPRequestHead?

    init(path: String, waiter: RedirectWaiter, expectedState: LockedValue<String?>) {
        self.path = path
        self.waiter = waiter
        self.expectedState = expectedState
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body:
            break
        case .end:
            guard let head else { return }
            self.head = nil
            let requestPath = String(head.uri.prefix { $0 != "?" && $0 != "#" })
            guard head.method == .GET, requestPath == path else {
                respond(context, status: .notFound, body: Self.page("Not found", "This address only receives the sign-in redirect."))
                return
            }
            let query = head.uri.firstIndex(of: "?").map { String(head.uri[head.uri.index(after: $0)...].prefix { $0 != "#" }) } ?? ""
            let parameters = FormEncoding.decode(query)
            let state = parameters.first { $0.0 == "state" }?.1
            let hasError = parameters.contains { $0.0 == "error" }
            let expected = expectedState.withLock { $0 }
            // Only the pending request's answer may end the wait: anything else on this port — another local process,
            // a web page probing 127.0.0.1 — is answered and ignored. That includes an `error` without `state`: any
            // page can send one, so accepting it would let it cancel the user's sign-in; a provider that drops the
            // state on errors leaves the wait to its timeout (or the user's cancel) instead.
            guard expected != nil, state == expected else {
                respond(context, status: .badRequest, body: Self.page("Not this sign-in", "This request does not belong to the sign-in in progress."))
                return
            }
            let waiter = waiter
            let uri = head.uri
            let failed = hasError
            // The page goes out before the redirect is handed over: an application that ends at once on an error
            // (a command line) would otherwise leave the browser with a dropped connection instead of the page.
            respond(
                context,
                status: .ok,
                body: failed
                    ? Self.page("Sign-in did not complete", "The provider reported an error. Return to the application for details; you can close this window.")
                    : Self.page("Signed in", "You can close this window and return to the application.")
            ) {
                Task {
                    guard let origin = await waiter.origin, let url = URL(string: uri, relativeTo: origin)?.absoluteURL else { return }
                    await waiter.deliver(url)
                }
            }
        }
    }

    private func respond(_ context: ChannelHandlerContext, status: HTTPResponseStatus, body: String, then sent: (@Sendable () -> Void)? = nil) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/html; charset=utf-8")
        headers.add(name: "Content-Length", value: String(body.utf8.count))
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "Referrer-Policy", value: "no-referrer")
        headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        var buffer = context.channel.allocator.buffer(capacity: body.utf8.count)
        buffer.writeString(body)
        context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            loopBound.value.close(promise: nil)
            sent?()
        }
    }

    /// A fixed page: only constant text, so nothing from the request is reflected into HTML.
    private static func page(_ title: String, _ message: String) -> String {
        """
        <!doctype html><html><head><meta charset="utf-8"><title>\(title)</title></head>
        <body style="font-family: system-ui, sans-serif; margin: 3em"><h1>\(title)</h1><p>\(message)</p></body></html>
        """
    }
}
