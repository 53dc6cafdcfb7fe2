import AuthDeviceFlow
import AuthLoopback
import AuthProviders
import Foundation

/// `auth-cli login --device`: the device authorization grant (RFC 8628) for machines without a browser.
///
/// The URL to open comes first on standard output, on a line of its own (as with `--browser print`), so a script
/// can read it; the code, the instructions, a QR code of `verification_uri_complete` and a live "waiting for
/// approval" line with the time left go to standard error.
enum DeviceSignIn {
    static func run(_ client: AuthClient, scopes: [String]? = nil) async throws -> Session {
        let authorization = try await client.startDeviceAuthorization(scopes: scopes)
        let open = authorization.verificationURIComplete ?? authorization.verificationURI
        // Unbuffered: a script reading standard output through a pipe sees it at once.
        FileHandle.standardOutput.write(Data((open.absoluteString + "\n").utf8))
        let lines =
            [
                "To sign in, open \(authorization.verificationURI.absoluteString) on a phone or another computer",
                "and enter the code   \(authorization.userCode)"
            ] + (authorization.verificationURIComplete.map { ["(or open \($0.absoluteString), which carries the code)"] } ?? [])
        status(lines.joined(separator: "\n") + "\n")
        // A phone's camera opens the page with the code filled in; light modules are drawn (dark terminals).
        if let complete = authorization.verificationURIComplete, let code = TerminalQRCode(complete.absoluteString) {
            status(code.rendered + "\n")
        }
        let live = isatty(STDERR_FILENO) == 1
        let session = try await client.completeDeviceAuthorization(authorization) { poll in
            let left = max(0, Int(poll.remaining.rounded()))
            let text = String(format: "waiting for approval… %d:%02d left", left / 60, left % 60)
            // On a terminal the line is rewritten in place; in a log, one line per minute is enough.
            if live { status("\r\(text) ") } else if poll.polls == 0 || left % 60 < Int(poll.interval.components.seconds) { status(text + "\n") }
        }
        if live { status("\rapproved.                                  \n") }
        return session
    }

    /// Writes `text` to standard error. The provider's parts are safe for a terminal: URLs are percent-encoded and
    /// the engine sanitises the user code.
    private static func status(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
