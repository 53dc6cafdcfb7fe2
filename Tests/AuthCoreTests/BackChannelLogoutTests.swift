import AuthCore
import AuthTesting
import Foundation
import Testing

/// OpenID Connect Back-Channel Logout 1.0: a verified logout token ends the matching stored sessions; anything
/// else is refused with its exact error and changes nothing.
@Suite("Back-channel logout")
struct BackChannelLogoutTests {
    private func sessionID(of session: Session) async throws -> String {
        let idToken = try #require(await session.credential.idToken)
        return try #require(try JSONValue.parseObject(try CompactJWS(parsing: idToken.reveal()).payload)["sid"]?.stringValue)
    }

    @Test("A valid logout token for the user's sid ends that stored session and emits signedOut(.backChannelLogout)")
    func endsMatchingSession() async throws {
        let fixture = Fixture()
        let session = try await fixture.signIn()
        let events = await session.events()
        let sid = try await sessionID(of: session)
        let token = await fixture.idp.logoutToken(subject: "user-1234", sessionID: sid)
        let result = try await fixture.client.handleBackChannelLogout(token)
        #expect(result.endedAccounts == [session.storageKey])
        #expect(result.sessionID == sid)
        #expect(try await fixture.storedCount() == 0)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next()?.kind == .signedOut(.backChannelLogout))
        // The live session finds nothing to refresh from.
        fixture.clock.advance(by: 3600)
        let error = await authError { _ = try await session.validAccessToken() }
        #expect(error?.code == .notSignedIn)
    }

    @Test("A token for another sid or subject ends nothing (and is not an error)")
    func otherSessionUntouched() async throws {
        let fixture = Fixture()
        _ = try await fixture.signIn()
        let otherSID = try await fixture.client.handleBackChannelLogout(await fixture.idp.logoutToken(subject: "user-1234", sessionID: "sid-elsewhere"))
        #expect(otherSID.endedAccounts.isEmpty)
        let otherUser = try await fixture.client.handleBackChannelLogout(await fixture.idp.logoutToken(subject: "someone-else"))
        #expect(otherUser.endedAccounts.isEmpty)
        #expect(try await fixture.storedCount() == 1)
        // sub alone ends every session of that user.
        let bySubject = try await fixture.client.handleBackChannelLogout(await fixture.idp.logoutToken(subject: "user-1234"))
        #expect(bySubject.endedAccounts.count == 1)
    }

    /// One hostile logout token: what is changed, and the error it must produce.
    struct HostileCase: Sendable, CustomStringConvertible {
        let description: String
        var overrides: [String: JSONValue] = [:]
        var removals: Set<String> = []
    }

    static let hostileCases: [HostileCase] = [
        HostileCase(description: "with a nonce", overrides: ["nonce": "n"]),
        HostileCase(description: "without events", removals: ["events"]),
        HostileCase(description: "with another event", overrides: ["events": .object(["http://schemas.openid.net/event/other": .object([:])])]),
        HostileCase(description: "without sub or sid", removals: ["sub", "sid"]),
        HostileCase(description: "for another client", overrides: ["aud": "another-client"]),
        HostileCase(description: "from another issuer", overrides: ["iss": "https://impostor.example.test"]),
        HostileCase(description: "issued an hour ago", overrides: ["iat": .number(ManualClock.defaultEpoch - 3600)]),
        HostileCase(description: "issued in the future", overrides: ["iat": .number(ManualClock.defaultEpoch + 3600)]),
        HostileCase(description: "without a jti", removals: ["jti"])
    ]

    @Test("Hostile logout tokens are refused with invalid_logout_token, and nothing is removed", arguments: hostileCases)
    func hostile(_ hostileCase: HostileCase) async throws {
        let fixture = Fixture()
        _ = try await fixture.signIn()
        let token = await fixture.idp.logoutToken(subject: "user-1234", overrides: hostileCase.overrides, removals: hostileCase.removals)
        let error = await authError { _ = try await fixture.client.handleBackChannelLogout(token) }
        #expect(error?.code == .invalidLogoutToken, "\(hostileCase)")
        #expect(try await fixture.storedCount() == 1)
    }

    @Test("A replayed logout token is refused; a forged signature and alg none too")
    func replayAndSignature() async throws {
        let fixture = Fixture()
        _ = try await fixture.signIn()
        let token = await fixture.idp.logoutToken(subject: "nobody-here")
        _ = try await fixture.client.handleBackChannelLogout(token)
        let replay = await authError { _ = try await fixture.client.handleBackChannelLogout(token) }
        #expect(replay?.code == .invalidLogoutToken)
        #expect(replay?.message.contains("replayed") == true)

        let real = await fixture.idp.logoutToken(subject: "user-1234")
        let parts = real.split(separator: ".")
        let forgedPayload = Base64URL.encode(try JSONValue.object(try JSONValue.parseObject(Base64URL.decode(parts[1])!)).jsonData() + Data(" ".utf8))
        let forged = "\(parts[0]).\(forgedPayload).\(parts[2])"
        let badSignature = await authError { _ = try await fixture.client.handleBackChannelLogout(forged) }
        #expect(badSignature?.code == .invalidSignature)
        let unsigned = Base64URL.encode(Data(#"{"alg":"none"}"#.utf8)) + "." + parts[1] + "."
        let none = await authError { _ = try await fixture.client.handleBackChannelLogout(unsigned) }
        #expect(none?.code == .unsupportedAlgorithm)
        #expect(try await fixture.storedCount() == 1)
    }
}
