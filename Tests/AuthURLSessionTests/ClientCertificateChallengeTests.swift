import Foundation
import Testing

@testable import AuthURLSession

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The transport's answer to an authentication challenge: the client certificate (mutual TLS) goes only to a server
/// that asks for one. On Linux a `URLCredential(identity:…)` cannot be made, so a password credential stands in for
/// the identity's: the rule under test is which challenge gets it, not what it holds.
@Suite("URLSessionTransport's authentication challenges: the client certificate only where one is asked for")
struct ClientCertificateChallengeTests {
    private let configured = URLCredential(user: "stand-in", password: "for-an-identity", persistence: .forSession)

    private func space(_ method: String) -> URLProtectionSpace {
        URLProtectionSpace(host: "op.example", port: 443, protocol: "https", realm: nil, authenticationMethod: method)
    }

    @Test("A client certificate challenge is answered with the configured identity, for this session only")
    func clientCertificateChallenge() {
        let (disposition, credential) = StreamingDelegate.answer(
            space(clientCertificateAuthenticationMethod), clientCredential: configured)
        #expect(disposition == .useCredential)
        #expect(credential === configured)
    }

    @Test(
        "Any other challenge — the server's trust, a password realm — keeps URLSession's default handling, without the identity",
        arguments: ["NSURLAuthenticationMethodServerTrust", NSURLAuthenticationMethodHTTPBasic, NSURLAuthenticationMethodDefault])
    func otherChallenges(method: String) {
        let (disposition, credential) = StreamingDelegate.answer(space(method), clientCredential: configured)
        #expect(disposition == .performDefaultHandling)
        #expect(credential == nil)
    }

    @Test("Without an identity, a client certificate challenge is left to URLSession (the connection goes on without one)")
    func noIdentity() {
        let (disposition, credential) = StreamingDelegate.answer(space(clientCertificateAuthenticationMethod), clientCredential: nil)
        #expect(disposition == .performDefaultHandling)
        #expect(credential == nil)
    }
}
