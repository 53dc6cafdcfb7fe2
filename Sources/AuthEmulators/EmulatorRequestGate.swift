public import AuthCore
public import AuthTesting
public import Foundation

/// What every HTTP front of an emulator checks before the emulator sees a request: `auth-emulator emulate` and the
/// web sign-in samples' in-process emulators alike.
///
/// An emulator listens on 127.0.0.1, but any web page the developer opens can make their browser send requests there.
/// Two checks keep such a page out: the `Host` header must name the emulator (a DNS-rebinding page's host never does:
/// 421), and a state-changing request to the emulator's own endpoints (`/_emulator/…`: faults, back-channel logout)
/// must not come from another site (`Sec-Fetch-Site: cross-site`, or an `Origin` other than the emulator's: 403).
public struct EmulatorRequestGate: Sendable {
    /// The `host:port` values a request may address: the origin's host, `127.0.0.1` and `localhost`, on `port`.
    public let allowedHosts: Set<String>

    /// A gate for the emulator served at `origin` (its issuer origin) and listening on `port`.
    public init(origin: URL, port: Int) {
        allowedHosts = Set([origin.host?.lowercased() ?? "", "127.0.0.1", "localhost"].map { "\($0):\(port)" })
    }

    /// The refusal of `request` when it fails a check, or `nil`. `host` is the request's `Host` as the server read it
    /// (servers that keep it apart from the header fields, as the `:authority` of swift-http-types); `nil` reads the
    /// `Host` header field of `request`.
    public func refusal(of request: CapturedRequest, host: String? = nil) -> (Data, HTTPResponse)? {
        let host = (host ?? request.value(forHTTPHeaderField: "Host"))?.lowercased() ?? ""
        guard allowedHosts.contains(host) else {
            return Self.refuse(421, "This emulator answers only requests addressed to \(allowedHosts.sorted().joined(separator: " or ")).")
        }
        let path = request.url?.path ?? ""
        // Under the issuer's path, whatever it is: `/_emulator/…` or `/<tenant>/_emulator/…`.
        guard path.contains(TestIdentityProvider.emulatorPathPrefix), request.httpMethod != "GET" else { return nil }
        if request.value(forHTTPHeaderField: "Sec-Fetch-Site")?.lowercased() == "cross-site" {
            return Self.refuse(403, "Cross-site requests to the emulator's own endpoints are refused.")
        }
        // `Origin: null` (a sandboxed frame, a cross-origin redirect) is another site too.
        if let requestOrigin = request.value(forHTTPHeaderField: "Origin"),
            !allowedHosts.contains(where: { requestOrigin.lowercased() == "http://\($0)" })
        {
            return Self.refuse(403, "Requests to the emulator's own endpoints from \(requestOrigin) are refused.")
        }
        return nil
    }

    private static func refuse(_ status: Int, _ message: String) -> (Data, HTTPResponse) {
        (Data(message.utf8), .make(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"]))
    }
}
