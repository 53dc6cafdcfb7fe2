public import AuthAppSupport
public import AuthCore
import AuthTesting
public import Foundation

/// Installed native apps, emulated: `canOpen(_:)` answers from the installed URL schemes, and `open(_:)` plays
/// the app — it completes the login against the emulated provider and calls the host app back with the redirect,
/// as the real app would through the app's URL handler.
public actor EmulatedAppHandoff: AppHandoff {
    /// Which installed app (by scheme) claims a link, or `nil` when none does.
    public typealias Claim = @Sendable (URL) -> String?

    /// The URL schemes of the installed apps.
    public let installedSchemes: Set<String>
    private let transport: any HTTPTransport
    private let claim: Claim
    private let prepare: @Sendable (URL) -> URL?
    private let respond: @Sendable (URL) -> URL
    private var deliver: (@Sendable (URL) async -> Void)?
    /// Every URL the host asked to open, in order.
    public private(set) var opened: [URL] = []
    /// Whether opening should fail although the app is installed (an app that refuses the link).
    public var refusesToOpen = false
    /// Whether the app opens but never calls back (the user leaves it, or it crashes).
    public var neverCallsBack = false

    /// Creates the emulated apps.
    ///
    /// - Parameters:
    ///   - installedSchemes: the schemes of the installed apps.
    ///   - transport: reaches the emulated provider.
    ///   - claim: which installed scheme claims a link (by default the link's own scheme).
    ///   - prepare: turns the opened link into the provider request the app sends (by default unchanged);
    ///     `nil` means the app opens without logging anyone in (the App Store).
    ///   - respond: turns the provider's redirect into the callback the app sends the host app (by default
    ///     unchanged; Uber's apps drop `state`).
    public init(
        installedSchemes: Set<String>,
        transport: any HTTPTransport,
        claim: @escaping Claim = { $0.scheme },
        prepare: @escaping @Sendable (URL) -> URL? = { $0 },
        respond: @escaping @Sendable (URL) -> URL = { $0 }
    ) {
        self.installedSchemes = installedSchemes
        self.transport = transport
        self.claim = claim
        self.prepare = prepare
        self.respond = respond
    }

    /// Where the app's callback goes (the host app's `handle(url)`).
    public func onCallback(_ deliver: @escaping @Sendable (URL) async -> Void) {
        self.deliver = deliver
    }

    /// Makes installed apps refuse to open links.
    public func setRefusesToOpen(_ refuses: Bool) { refusesToOpen = refuses }

    /// Makes installed apps open links but never call the host app back.
    public func setNeverCallsBack(_ never: Bool) { neverCallsBack = never }

    /// Whether the scheme of `url` belongs to an installed app.
    public func canOpen(_ url: URL) -> Bool {
        url.scheme.map(installedSchemes.contains) ?? false
    }

    /// Plays the app that claims `url`: logs the user in at the emulated provider and delivers the redirect.
    public func open(_ url: URL) async -> Bool {
        opened.append(url)
        guard !refusesToOpen, let scheme = claim(url), installedSchemes.contains(scheme) else { return false }
        guard let start = prepare(url), !neverCallsBack else { return true }
        guard let redirect = await callback(for: start).map(respond) else { return false }
        let deliver = deliver
        Task { await deliver?(redirect) }
        return true
    }

    /// Follows the provider's redirects until one leaves the provider's host: the callback to the host app.
    private func callback(for start: URL) async -> URL? {
        var url = start
        for _ in 0..<6 {
            let request = HTTPRequest(method: .get, url: url)
            guard let (_, response) = try? await transport.send(request), (300..<400).contains(response.statusCode),
                let location = response.value(forHTTPHeaderField: "Location"),
                let next = URL(string: location, relativeTo: url)?.absoluteURL
            else { return nil }
            if next.host != url.host || next.scheme != url.scheme { return next }
            url = next
        }
        return nil
    }
}
