import AuthApple
import AuthCore
import Foundation
import Testing

@Suite("AuthApple's platform-neutral decisions")
struct AuthAppleNeutralTests {
    @Test("Callbacks: custom schemes by scheme, claimed https links by host and path")
    func callbackMatching() {
        let custom = CallbackMatcher(redirectURI: URL(string: "com.example.app:/oauth/callback")!)
        #expect(custom == .customScheme("com.example.app"))
        #expect(custom.matches(URL(string: "COM.EXAMPLE.APP:/oauth/callback?code=x")!))
        #expect(!custom.matches(URL(string: "com.other.app:/oauth/callback?code=x")!))

        let https = CallbackMatcher(redirectURI: URL(string: "https://app.example.gov.uk/redirect")!)
        #expect(https == .https(host: "app.example.gov.uk", path: "/redirect"))
        #expect(https.matches(URL(string: "https://APP.example.gov.uk/redirect?code=x&state=y")!))
        #expect(!https.matches(URL(string: "https://app.example.gov.uk/other?code=x")!))
        #expect(!https.matches(URL(string: "https://evil.example/redirect?code=x")!))
        #expect(!https.matches(URL(string: "http://app.example.gov.uk/redirect?code=x")!))
    }

    @Test("A web session's ending: its callback is the answer, a closed or cancelled sheet is user_cancelled, anything else a failure")
    func webSessionOutcome() throws {
        let matcher = CallbackMatcher(redirectURI: URL(string: "com.example.app:/oauth/callback")!)
        let provider = ProviderID(rawValue: "govuk")
        let callback = URL(string: "com.example.app:/oauth/callback?code=c&state=s")!
        #expect(try WebSessionOutcome.result(url: callback, cancelled: false, error: nil, matcher: matcher, providerID: provider).get() == callback)

        // The user closed the sheet, or the app cancelled the sign-in (GOV.UK's finalise, Schibsted's cancel).
        let closed = WebSessionOutcome.result(url: nil, cancelled: true, error: CocoaLikeError(), matcher: matcher, providerID: provider)
        #expect(closed.failure?.code == .userCancelled)
        #expect(closed.failure?.providerID == provider)

        // A redirect to somewhere else is never handed to the engine as if it were the callback.
        let elsewhere = WebSessionOutcome.result(
            url: URL(string: "com.other.app:/oauth/callback?code=c")!, cancelled: false, error: nil, matcher: matcher, providerID: provider
        )
        #expect(elsewhere.failure?.code == .authorizationFailed)
        #expect(elsewhere.failure?.message.contains("not this sign-in's redirect URI") == true)

        let broken = WebSessionOutcome.result(url: nil, cancelled: false, error: CocoaLikeError(), matcher: matcher, providerID: provider)
        #expect(broken.failure?.code == .authorizationFailed)
    }

    private struct CocoaLikeError: Error {}
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
