package import AuthCore
package import Foundation

extension TestIdentityProvider {
    /// What receives people in front of the provider's protocol endpoints: AuthEmulators' HTTP emulators put their
    /// login page, their own endpoints (`/_emulator/…`, the device verification page) and queued faults here, so that
    /// AuthTesting keeps only the protocol.
    ///
    /// The provider asks its front desk (`TestIdentityProvider/frontDesk`) at three points and otherwise applies its
    /// own rules; a provider without one approves every valid authorization request at once, as an in-process test
    /// wants. Each requirement runs isolated to the provider it serves, so it may call the provider's package API
    /// (`approve(_:)`, `authorizationRedirect(_:_:)`, `json(_:status:url:headers:)`, …) synchronously; a front
    /// desk serves one provider, and keeps its state (logins waiting for an answer, queued faults) for it.
    package protocol FrontDesk: AnyObject, Sendable {
        /// Answers `request` (at `path`, relative to the endpoint base) before the provider routes it, or returns `nil`
        /// to let the provider answer.
        func respond(to request: CapturedRequest, path: String, url: URL, provider: isolated TestIdentityProvider) async
            -> (Data, HTTPResponse)?

        /// Answers a valid authorization request instead of approving it at once (with a login page that approves it
        /// later), or returns `nil` to let the provider approve it now.
        func respond(to authorization: AnswerableAuthorizationRequest, provider: isolated TestIdentityProvider) -> (Data, HTTPResponse)?

        /// Claims to set in the ID token the provider is issuing at `now` (a queued fault, spent by this call); none
        /// leaves it as the provider made it.
        func idTokenClaimOverrides(now: Date, provider: isolated TestIdentityProvider) -> [String: JSONValue]
    }

    /// What a front desk is opened with, carried by `Configuration/frontDeskSettings`: each provider made from the
    /// configuration opens its own front desk, so providers share no logins or faults.
    package protocol FrontDeskSettings: Sendable {
        /// A new front desk for one provider.
        func openFrontDesk() -> any FrontDesk
    }
}
