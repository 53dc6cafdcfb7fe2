import AuthCore
import Foundation
import NIOCore
import NIOHTTP1

/// Answers the browser's request to the loopback listener. The redirect path with the pending `state` (or an OAuth
/// `error`), the way the provider was asked to answer (a `GET` with the answer in the query, or a `POST` of an
/// `application/x-www-form-urlencoded` body for `response_mode=form_post`, at most
/// `LoopbackUserAgent.maximumFormBodySize` bytes), gets a "you can close this window" page and is handed to the
/// waiter: a `POST`'s form becomes the query of the redirect the engine checks, so every check of a `GET` applies.
///
/// An answer the listener cannot take (another method than asked for, a body that is not a form, one too large) gets
/// a page saying so and ends the wait with its own code when it names the pending `state`; one that does not is
/// answered, reported once on the status line, and kept as the reason should the wait time out. The redirect path
/// without the pending state gets 400 and changes nothing; any other path gets 404. Every response closes the
/// connection.
final class RedirectHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// A body longer than this is not read further (its first `maximumFormBodySize` bytes are kept).
    static let readLimit = 64 * LoopbackUserAgent.maximumFormBodySize

    private let path: String
    private let waiter: RedirectWaiter
    private let pending: LockedValue<PendingRedirect?>
    private let report: @Sendable (String) -> Void
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var received = 0
    private var answered = false

    init(path: String, waiter: RedirectWaiter, pending: LockedValue<PendingRedirect?>, report: @escaping @Sendable (String) -> Void) {
        self.path = path
        self.waiter = waiter
        self.pending = pending
        self.report = report
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
            received = 0
            answered = false
            // curl (and FoundationNetworking) wait a second for this before sending a larger body.
            if head.method == .POST, head.headers["Expect"].contains(where: { $0.lowercased() == "100-continue" }) {
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .continue))), promise: nil)
            }
        case .body(var buffer):
            guard !answered else { return }
            received += buffer.readableBytes
            let room = LoopbackUserAgent.maximumFormBodySize - body.count
            if room > 0, let bytes = buffer.readBytes(length: min(room, buffer.readableBytes)) { body += bytes }
            // Past the read limit the request is answered now, from what was kept; the rest is never read.
            if received > Self.readLimit { answer(context) }
        case .end:
            guard !answered else { return }
            answer(context)
        }
    }

    private func answer(_ context: ChannelHandlerContext) {
        guard let head else { return }
        answered = true
        self.head = nil
        let requestPath = String(head.uri.prefix { $0 != "?" && $0 != "#" })
        guard requestPath == path else {
            respond(context, status: .notFound, body: Self.page("Not found", "This address only receives the sign-in redirect."))
            return
        }
        let query = head.uri.firstIndex(of: "?").map { String(head.uri[head.uri.index(after: $0)...].prefix { $0 != "#" }) } ?? ""
        let expected = pending.withLock { $0 }
        switch head.method {
        case .GET:
            take(context, pairs: FormEncoding.decode(query), posted: false, expected: expected, uri: head.uri)
        case .POST:
            if received > LoopbackUserAgent.maximumFormBodySize {
                refuse(
                    context, expected: expected, query: query, status: .payloadTooLarge,
                    AuthError(
                        .redirectTooLarge,
                        "The provider posted a \(received > Self.readLimit ? "body of more than \(Self.readLimit) bytes" : "\(received)-byte body") to the loopback redirect; it takes at most \(LoopbackUserAgent.maximumFormBodySize)."
                    )
                )
            } else if !Self.isForm(head.headers["Content-Type"].first) {
                let type = head.headers["Content-Type"].first.map { "Content-Type \(Self.printable($0))" } ?? "no Content-Type"
                refuse(
                    context, expected: expected, query: query, status: .unsupportedMediaType,
                    AuthError(
                        .redirectFormInvalid,
                        "The provider posted its answer to the loopback redirect with \(type), not an application/x-www-form-urlencoded form; the listener cannot read it."
                    )
                )
            } else {
                let form = String(decoding: body, as: UTF8.self)
                take(context, pairs: FormEncoding.decode(form), posted: true, expected: expected, uri: path + "?" + FormEncoding.encode(FormEncoding.decode(form)))
            }
        default:
            refuse(
                context, expected: expected, query: query, status: .methodNotAllowed,
                AuthError(
                    .redirectMethodMismatch,
                    "The provider answered the loopback redirect with \(Self.printable(head.method.rawValue)); only GET (the answer in the query) and POST (response_mode=form_post) are taken."
                )
            )
        }
    }

    /// A readable answer: the pending request's, the way it was asked for, is handed to the waiter.
    private func take(_ context: ChannelHandlerContext, pairs: [(String, String)], posted: Bool, expected: PendingRedirect?, uri: String) {
        let state = pairs.first { $0.0 == "state" }?.1
        // Only the pending request's answer may end the wait: anything else on this port — another local process,
        // a web page probing 127.0.0.1 — is answered and ignored. That includes an `error` without `state`: any
        // page can send one, so accepting it would let it cancel the user's sign-in; a provider that drops the
        // state on errors leaves the wait to its timeout (or the user's cancel) instead.
        guard let expected, state == expected.state else {
            respond(context, status: .badRequest, body: Self.page("Not this sign-in", "This request does not belong to the sign-in in progress."))
            return
        }
        let failed = pairs.contains { $0.0 == "error" }
        // The answer must come the way it was asked for: a form_post answer's code never in a URL (browser history),
        // and a query sign-in's answer never from a form. An error carries no code, so it goes to the engine either
        // way: a provider that cannot answer with a form (unsupported response_mode) says so in the query.
        guard posted == expected.formPost || failed else {
            let message =
                expected.formPost
                ? "The provider answered in the redirect's query (GET) though the sign-in asked for response_mode=form_post; the provider may not support form_post: sign in without asking for it."
                : "The provider answered with a form POST though the sign-in asked for the answer in the redirect's query (no response_mode=form_post)."
            end(context, status: .badRequest, AuthError(.redirectMethodMismatch, message))
            return
        }
        let waiter = waiter
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

    /// An answer the listener cannot take: it ends the wait with `error` when it names the pending state (in its query,
    /// or anywhere in the part of its body that was read); otherwise it is kept as the reason a timeout gives.
    private func refuse(_ context: ChannelHandlerContext, expected: PendingRedirect?, query: String, status: HTTPResponseStatus, _ error: AuthError) {
        guard let expected else {
            respond(context, status: status, body: Self.refusalPage(status), allow: status == .methodNotAllowed)
            return
        }
        let named = FormEncoding.decode(query).contains { $0.0 == "state" && $0.1 == expected.state } || expected.isNamed(in: body)
        guard named else {
            respond(context, status: status, body: Self.refusalPage(status), allow: status == .methodNotAllowed)
            let waiter = waiter
            let report = report
            Task {
                if await waiter.noteRefusal(error) {
                    report("The redirect listener refused an answer it cannot take (\(error.code)): \(error.message) Still waiting.")
                }
            }
            return
        }
        end(context, status: status, error)
    }

    /// Answers with a refusal page and ends the wait with `error`.
    private func end(_ context: ChannelHandlerContext, status: HTTPResponseStatus, _ error: AuthError) {
        let waiter = waiter
        respond(context, status: status, body: Self.refusalPage(status), allow: status == .methodNotAllowed) {
            Task { await waiter.fail(error) }
        }
    }

    private func respond(
        _ context: ChannelHandlerContext, status: HTTPResponseStatus, body: String, allow: Bool = false, then sent: (@Sendable () -> Void)? = nil
    ) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/html; charset=utf-8")
        headers.add(name: "Content-Length", value: String(body.utf8.count))
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "Referrer-Policy", value: "no-referrer")
        headers.add(name: "Connection", value: "close")
        if allow { headers.add(name: "Allow", value: "GET, POST") }
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
}

extension RedirectHandler {
    /// Whether `contentType` is `application/x-www-form-urlencoded` (parameters such as `charset` allowed).
    static func isForm(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let type = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        return type == "application/x-www-form-urlencoded"
    }

    /// `text` as printable ASCII, at most 80 characters: it goes into a message shown on a terminal.
    static func printable(_ text: String) -> String {
        String(String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }).prefix(80))
    }

    /// The page for a refused answer: fixed text per status.
    static func refusalPage(_ status: HTTPResponseStatus) -> String {
        switch status {
        case .payloadTooLarge: page("Sign-in did not complete", "The answer was too large for this application. Return to the application for details.")
        case .unsupportedMediaType: page("Sign-in did not complete", "The answer was not a form this application can read. Return to the application for details.")
        case .methodNotAllowed: page("Sign-in did not complete", "This address takes the sign-in answer by GET or POST only.")
        default: page("Sign-in did not complete", "The answer did not come the way the application asked for it. Return to the application for details.")
        }
    }

    /// A fixed page: only constant text, so nothing from the request is reflected into HTML.
    static func page(_ title: String, _ message: String) -> String {
        """
        <!doctype html><html><head><meta charset="utf-8"><title>\(title)</title></head>
        <body style="font-family: system-ui, sans-serif; margin: 3em"><h1>\(title)</h1><p>\(message)</p></body></html>
        """
    }
}
