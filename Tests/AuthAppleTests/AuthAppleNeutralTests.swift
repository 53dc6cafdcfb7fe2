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
}
