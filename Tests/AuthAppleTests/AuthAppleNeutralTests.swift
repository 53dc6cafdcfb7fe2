import AuthApple
import AuthCore
import AuthOIDC
import AuthTesting
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

    @Test("The login button's taps: sign in (title Sign out, tokens stored), sign out (revoked and removed, title Sign in); a failed sign-in stays signed out")
    @MainActor
    func loginToggle() async throws {
        let idp = TestIdentityProvider()
        let storage = InMemoryTokenStorage()
        let provider = OpenIDProvider(
            issuer: TestIdentityProvider.defaultIssuer,
            client: ClientRegistration(clientID: TestIdentityProvider.defaultClientID, redirectURI: TestIdentityProvider.defaultRedirectURI)
        )
        let client = AuthClient(provider: provider, storage: storage, transport: idp.transport, clock: idp.clock)
        let agent = HeadlessUserAgent(transport: idp.transport)
        let toggle = LoginToggle()
        #expect(toggle.title == "Sign in")
        guard case .ignored = await toggle.tap(signIn: nil) else {
            Issue.record("a tap with no data source did something")
            return
        }

        guard case .signedIn(.success) = await toggle.tap(signIn: { try await client.signIn(with: agent) }) else {
            Issue.record("the first tap did not sign in")
            return
        }
        #expect(toggle.title == "Sign out" && toggle.session != nil && !toggle.isBusy)
        #expect(await storage.storedKeys().count == 1)

        guard case .signedOut = await toggle.tap(signIn: { try await client.signIn(with: agent) }) else {
            Issue.record("the second tap did not sign out")
            return
        }
        #expect(toggle.title == "Sign in" && toggle.session == nil)
        #expect(await storage.storedKeys().isEmpty)
        #expect(await idp.requestCounts["/revoke"] != nil)

        let refused = await toggle.tap { throw AuthError(.accessDenied, "The user said no.") }
        guard case .signedIn(.failure(let error)) = refused else {
            Issue.record("a failed sign-in was not reported")
            return
        }
        #expect(error.code == .accessDenied && toggle.title == "Sign in")
    }

    private struct CocoaLikeError: Error {}
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
