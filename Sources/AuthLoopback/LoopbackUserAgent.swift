public import AuthCore
public import Foundation
import NIOCore
import NIOPosix

/// A desktop and command-line `UserAgent` (RFC 8252 §7.3): opens the system browser (or prints the URL) and
/// receives the redirect on `127.0.0.1` (or `::1`).
///
/// The listener binds the loopback address only, on the redirect URI's port or — when the URI has no port or
/// port 0 — an ephemeral port, which `redirectURI` then reports. It accepts exactly one answer on the redirect path
/// that carries the pending request's `state` (or an OAuth `error`) — a `GET` with it in the query, or, when the
/// authorization request asked for `response_mode=form_post`, a `POST` of an `application/x-www-form-urlencoded`
/// body of at most ``maximumFormBodySize`` bytes, whose form becomes the query of the redirect the engine checks —
/// answers the browser with a small "you can close this window" page, answers every other path with 404 and a request
/// to the redirect path without the pending `state` with 400 — and keeps waiting, so another local process or a web
/// page cannot end the sign-in first. It gives up after the timeout and closes the listener when done.
///
/// An answer it cannot take ends the sign-in with its own code when it carries the pending `state`, instead of a
/// silent wait: `redirect_method_mismatch` (a `GET` with a code to a form_post sign-in, a `POST` to a query one,
/// another method), `redirect_form_invalid` (a body that is not a form), `redirect_too_large`. A provider's `error` in
/// the URL of a form_post sign-in carries no code and goes to the engine. One without the state (anyone can send it)
/// is answered, reported once on the status line, and is what the timeout error names should no answer follow.
///
/// A `localhost` redirect URI listens on both `127.0.0.1` and `::1` with one port, since the browser may resolve
/// `localhost` to either (RFC 8252 §8.3 prefers the IP literal; use it when you can).
///
/// ```swift
/// let session = try await client.signInWithLoopback(browser: .system)
/// ```
public final class LoopbackUserAgent: UserAgent {
    /// How the authorization URL reaches a browser.
    public enum Browser: Sendable {
        /// Open the system browser (`open` on macOS, `xdg-open` elsewhere); print the URL if that fails.
        case system
        /// Print the URL on a line of its own to standard output and wait.
        case print
        /// Hand the URL to your own code (a test's scripted browser, an embedded web view).
        case custom(@Sendable (URL) async throws -> Void)
    }

    /// The largest `POST` body (`response_mode=form_post`) the listener takes, in bytes: 16 KiB, as the web module's.
    public static let maximumFormBodySize = 16 * 1024

    /// The redirect URI with the port actually bound; put it in the authorization request.
    public let redirectURI: URL
    private let browser: Browser
    private let timeout: Duration
    private let status: @Sendable (String) -> Void
    private let channels: [any Channel]
    private let waiter: RedirectWaiter
    private let pending: LockedValue<PendingRedirect?>

    private init(
        redirectURI: URL,
        browser: Browser,
        timeout: Duration,
        status: @escaping @Sendable (String) -> Void,
        channels: [any Channel],
        waiter: RedirectWaiter,
        pending: LockedValue<PendingRedirect?>
    ) {
        self.redirectURI = redirectURI
        self.browser = browser
        self.timeout = timeout
        self.status = status
        self.channels = channels
        self.waiter = waiter
        self.pending = pending
    }

    /// Binds the listener for `redirectURI`.
    ///
    /// - Parameters:
    ///   - redirectURI: an `http` URI on `127.0.0.1`, `[::1]` or `localhost` (which binds both `127.0.0.1` and
    ///     `::1` on one port).
    ///   - browser: how to show the authorization URL.
    ///   - timeout: how long to wait for the redirect.
    ///   - status: where progress messages go (standard error by default).
    /// - Throws: `invalid_configuration` for a non-loopback or non-http URI; `network_error` when the port is taken.
    public static func start(
        redirectURI: URL,
        browser: Browser = .system,
        timeout: Duration = .seconds(300),
        status: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
    ) async throws -> LoopbackUserAgent {
        guard redirectURI.scheme?.lowercased() == "http", let host = redirectURI.host?.lowercased(),
            ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host)
        else {
            throw AuthError(
                .invalidConfiguration,
                "A loopback redirect URI must be http://127.0.0.1[:port]/path (RFC 8252 §7.3); got \(redirectURI.absoluteString)."
            )
        }
        let bindHosts = host == "localhost" ? ["127.0.0.1", "::1"] : [host.contains(":") ? "::1" : "127.0.0.1"]
        let path = redirectURI.path.isEmpty ? "/" : redirectURI.path
        let waiter = RedirectWaiter()
        let pending = LockedValue<PendingRedirect?>(nil)
        var channels: [any Channel] = []
        var port = redirectURI.port ?? 0
        for bindHost in bindHosts {
            do {
                let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                    .childChannelInitializer { child in
                        child.eventLoop.makeCompletedFuture {
                            try child.pipeline.syncOperations.configureHTTPServerPipeline()
                            try child.pipeline.syncOperations.addHandler(
                                RedirectHandler(path: path, waiter: waiter, pending: pending, report: status)
                            )
                        }
                    }
                    .bind(host: bindHost, port: port)
                    .get()
                channels.append(channel)
                // The second address (localhost's ::1) must listen on the port the first one got.
                port = channel.localAddress?.port ?? port
            } catch {
                channels.forEach { $0.close(promise: nil) }
                let hint = bindHosts.count > 1 ? " A localhost redirect needs both 127.0.0.1 and ::1; register http://127.0.0.1 instead if IPv6 is off." : ""
                throw AuthError(
                    .network,
                    "Cannot listen on \(bindHost):\(port) for the redirect; is another program using the port?\(hint)",
                    underlying: error
                )
            }
        }
        var components = URLComponents(url: redirectURI, resolvingAgainstBaseURL: false)!
        components.port = port
        if components.path.isEmpty { components.path = "/" }
        // The components came from a valid URL with only the port changed.
        let bound = components.url!
        await waiter.setOrigin(bound)
        return LoopbackUserAgent(
            redirectURI: bound, browser: browser, timeout: timeout, status: status, channels: channels, waiter: waiter,
            pending: pending
        )
    }

    /// Shows `request` in the browser and waits for its redirect, then closes the listener.
    ///
    /// - Throws: `timed_out` when no redirect arrives in time (or the code of an answer the listener refused in
    ///   that time, without the pending state); `redirect_method_mismatch`, `redirect_form_invalid` or
    ///   `redirect_too_large` when the pending request's answer comes in a way the listener cannot take;
    ///   `user_cancelled` when the task is cancelled.
    public func authorize(_ request: AuthorizationRequest) async throws -> URL {
        defer { close() }
        pending.withLock { $0 = PendingRedirect(state: request.state, authorizationURL: request.url) }
        switch browser {
        case .print:
            Self.printLine(request.url.absoluteString)
            // A pushed request's URL works only for its short lifetime (RFC 9126); say so, as the URL is opened by hand.
            let within = request.pushedRequestExpiresAt.map { " within \(max(0, Int($0.timeIntervalSinceNow))) s (the pushed request expires then)" } ?? ""
            status("Open the URL above in a browser\(within); waiting up to \(timeout) for the redirect to \(redirectURI.absoluteString) …")
        case .system:
            if Self.openSystemBrowser(request.url) {
                status("Opened the browser; waiting up to \(timeout) for the redirect to \(redirectURI.absoluteString) …")
            } else {
                Self.printLine(request.url.absoluteString)
                status("Could not open a browser; open the URL above. Waiting up to \(timeout) …")
            }
        case .custom(let open):
            try await open(request.url)
        }
        let waiter = waiter
        let timeout = timeout
        return try await withThrowingTaskGroup(of: URL.self) { group in
            group.addTask { try await waiter.wait() }
            group.addTask {
                try await Task.sleep(for: timeout)
                if let refusal = await waiter.refusal {
                    throw AuthError(
                        refusal.code,
                        "No usable redirect arrived within \(timeout); the listener refused an answer it cannot take: \(refusal.message)",
                        providerID: request.providerID
                    )
                }
                throw AuthError(.timedOut, "No redirect arrived within \(timeout); run the sign-in again.", providerID: request.providerID)
            }
            defer { group.cancelAll() }
            // The group has two tasks, so next() yields at least one result.
            return try await group.next()!
        }
    }

    /// Closes the listener (also done after `authorize(_:)`).
    public func close() {
        channels.forEach { $0.close(promise: nil) }
    }

    /// Whether the listener still accepts connections.
    public var isListening: Bool { channels.contains { $0.isActive } }

    /// Writes `line` to standard output unbuffered: a script reading the URL from a pipe must see it now,
    /// not when the process exits.
    private static func printLine(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    private static func openSystemBrowser(_ url: URL) -> Bool {
        let process = Process()
        #if os(macOS)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/open")
            process.arguments = [url.absoluteString]
        #else
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["xdg-open", url.absoluteString]
        #endif
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus == 0
        } catch {
            return false
        }
    }
}

extension AuthClient {
    /// Signs in through the system browser (or `browser`) with a loopback redirect listener.
    ///
    /// The redirect URI comes from `options.redirectURI` or the provider's registration; with no port (or port 0)
    /// an ephemeral port is chosen and sent in the authorization and token requests.
    public func signInWithLoopback(
        browser: LoopbackUserAgent.Browser = .system,
        timeout: Duration = .seconds(300),
        options: SignInOptions = SignInOptions()
    ) async throws -> Session {
        let agent = try await LoopbackUserAgent.start(
            redirectURI: options.redirectURI ?? provider.client.redirectURI,
            browser: browser,
            timeout: timeout
        )
        defer { agent.close() }
        var options = options
        options.redirectURI = agent.redirectURI
        return try await signIn(with: agent, options: options)
    }
}
