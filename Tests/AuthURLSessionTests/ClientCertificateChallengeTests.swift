import AuthCore
import Foundation
import Testing

@testable import AuthURLSession

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The transport's answer to an authentication challenge: the client certificate (mutual TLS) goes only to a server
/// that asks for one. The challenges are handed to the session delegate's own callback, as URLSession hands them. On
/// Linux a `URLCredential(identity:…)` cannot be made, so a password credential stands in for the identity's: the
/// rule under test is which challenge gets it, not what it holds.
@Suite("URLSessionTransport's authentication challenges: the client certificate only where one is asked for")
struct ClientCertificateChallengeTests {
    private static let configured = URLCredential(user: "stand-in", password: "for-an-identity", persistence: .forSession)

    /// A challenge sender that expects nothing: the delegate answers through its completion handler.
    private final class Sender: NSObject, URLAuthenticationChallengeSender {
        func use(_ credential: URLCredential, for challenge: URLAuthenticationChallenge) {}
        func continueWithoutCredential(for challenge: URLAuthenticationChallenge) {}
        func cancel(_ challenge: URLAuthenticationChallenge) {}
        func performDefaultHandling(for challenge: URLAuthenticationChallenge) {}
        func rejectProtectionSpaceAndContinue(with challenge: URLAuthenticationChallenge) {}
    }

    /// What the delegate's challenge callback answers to a challenge for `method`.
    private func answer(_ method: String, identity: Bool) -> (URLSession.AuthChallengeDisposition, URLCredential?) {
        var makeCredential: (@Sendable () -> URLCredential)?
        if identity { makeCredential = { Self.configured } }
        let delegate = StreamingDelegate(clientCredential: makeCredential)
        let space = URLProtectionSpace(host: "op.example", port: 443, protocol: "https", realm: nil, authenticationMethod: method)
        let challenge = URLAuthenticationChallenge(
            protectionSpace: space, proposedCredential: nil, previousFailureCount: 0, failureResponse: nil, error: nil, sender: Sender())
        let task = URLSession.shared.dataTask(with: URL(string: "https://op.example/token")!)
        let answered = LockedValue<(URLSession.AuthChallengeDisposition, URLCredential?)?>(nil)
        delegate.urlSession(URLSession.shared, task: task, didReceive: challenge) { disposition, credential in
            answered.withLock { $0 = (disposition, credential) }
        }
        return answered.withLock { $0 } ?? (.cancelAuthenticationChallenge, nil)
    }

    @Test("A client certificate challenge is answered with the configured identity")
    func clientCertificateChallenge() {
        #expect(clientCertificateAuthenticationMethod == "NSURLAuthenticationMethodClientCertificate")
        let (disposition, credential) = answer(clientCertificateAuthenticationMethod, identity: true)
        #expect(disposition == .useCredential)
        #expect(credential === Self.configured)
    }

    @Test(
        "Any other challenge — the server's trust, a password realm — keeps URLSession's default handling, without the identity",
        arguments: ["NSURLAuthenticationMethodServerTrust", NSURLAuthenticationMethodHTTPBasic, NSURLAuthenticationMethodDefault])
    func otherChallenges(method: String) {
        let (disposition, credential) = answer(method, identity: true)
        #expect(disposition == .performDefaultHandling)
        #expect(credential == nil)
    }

    @Test("Without an identity, a client certificate challenge is left to URLSession (the connection goes on without one)")
    func noIdentity() {
        let (disposition, credential) = answer(clientCertificateAuthenticationMethod, identity: false)
        #expect(disposition == .performDefaultHandling)
        #expect(credential == nil)
    }
}
