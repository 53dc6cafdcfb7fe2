import AuthCore
import AuthTesting
import Foundation
import Testing

@Suite("Step-up (RFC 9470): a resource's insufficient_user_authentication challenge, met by one new sign-in")
struct StepUpSessionTests {
    private static let multiFactor = TestIdentityProvider.StepUpSettings.multiFactorClass

    @Test("send throws step_up_required with the challenge's acr_values, without refreshing or retrying")
    func sendSurfacesChallenge() async throws {
        let fixture = StepUpFixture()
        let session = try await fixture.signIn()
        let error = await authError { _ = try await session.send(fixture.get("/api/high-assurance")) }
        #expect(error?.code == .stepUpRequired)
        #expect(error?.stepUp?.acrValues == [Self.multiFactor])
        #expect(error?.stepUp?.maxAge == nil)
        #expect(error?.httpStatus == 401)
        #expect(await fixture.idp.requestCounts["/api/high-assurance"] == 1)
        #expect(await fixture.idp.tokenRequestsByGrant["refresh_token"] == nil)
    }

    @Test("send(steppingUpWith:) signs in again with acr_values as essential, stores the stronger tokens and retries once")
    func stepUpToACR() async throws {
        let fixture = StepUpFixture()
        let session = try await fixture.signIn()
        #expect(await session.idTokenClaims?.authenticationContextClass == TestIdentityProvider.StepUpSettings.passwordClass)
        let before = try #require(try await fixture.stored())

        let (data, response) = try await session.send(fixture.get("/api/high-assurance"), steppingUpWith: fixture.agent)
        #expect(response.status == .ok)
        #expect(String(decoding: data, as: UTF8.self).contains(Self.multiFactor))
        #expect(fixture.agent.urls.count == 2, "one sign-in, one step-up")
        let query = try #require(fixture.agent.urls.last).queryParameters
        #expect(query["acr_values"] == Self.multiFactor)
        #expect(query["claims"]?.contains("\"essential\":true") == true)
        #expect(query["max_age"] == nil)
        #expect(await session.idTokenClaims?.authenticationContextClass == Self.multiFactor)
        let after = try #require(try await fixture.stored())
        #expect(after.accessToken != before.accessToken)
        #expect(after.accessToken == (await session.credential.accessToken))
        #expect(after.storageKey == before.storageKey)
        #expect(try await fixture.storage.storedKeys().count == 1)
        #expect(await fixture.idp.requestCounts["/api/high-assurance"] == 2)
        // The stronger authentication is kept: the next request needs no step-up, nor after a refresh.
        #expect(try await session.send(fixture.get("/api/high-assurance")).1.status == .ok)
        try await session.refresh()
        #expect(try await session.send(fixture.get("/api/high-assurance")).1.status == .ok)
        #expect(fixture.agent.urls.count == 2)
    }

    @Test("A max_age challenge: a new authentication whose auth_time is now")
    func stepUpToRecentAuthentication() async throws {
        let fixture = StepUpFixture()
        let session = try await fixture.signIn()
        #expect(try await session.send(fixture.get("/api/recent-authentication")).1.status == .ok)
        fixture.clock.advance(by: 600)
        let error = await authError { _ = try await session.send(fixture.get("/api/recent-authentication")) }
        #expect(error?.code == .stepUpRequired)
        #expect(error?.stepUp?.maxAge == 300)
        #expect(error?.stepUp?.acrValues == [])

        let (_, response) = try await session.send(fixture.get("/api/recent-authentication"), steppingUpWith: fixture.agent)
        #expect(response.status == .ok)
        #expect(try #require(fixture.agent.urls.last).queryParameters["max_age"] == "300")
        #expect(await session.idTokenClaims?.authenticationTime == fixture.clock.now())
    }

    @Test("Without a challenge, send(steppingUpWith:) is send: no sign-in")
    func noChallengeNoSignIn() async throws {
        let fixture = StepUpFixture()
        let session = try await fixture.signIn()
        #expect(try await session.send(fixture.get("/api/resource"), steppingUpWith: fixture.agent).1.status == .ok)
        #expect(fixture.agent.urls.count == 1)
    }

    @Test("A challenge after the step-up is step_up_loop: one step-up sign-in, two requests, never a third")
    func challengeLoop() async throws {
        let fixture = StepUpFixture()
        let session = try await fixture.signIn()
        await fixture.idp.update { $0.stepUpChallenge = #"Bearer error="insufficient_user_authentication", acr_values="urn:example:loa:2""# }
        let error = await authError { _ = try await session.send(fixture.get("/api/high-assurance"), steppingUpWith: fixture.agent) }
        #expect(error?.code == .stepUpLoop)
        #expect(error?.stepUp?.acrValues == [Self.multiFactor])
        #expect(fixture.agent.urls.count == 2)
        #expect(await fixture.idp.requestCounts["/api/high-assurance"] == 2)
        #expect(fixture.logger.lines.contains { $0.contains("request.step_up_loop") })
    }

    @Test("A step-up whose ID token's acr is not asked for is step_up_not_satisfied; the stored tokens stay")
    func acrNotMet() async throws {
        let fixture = StepUpFixture()
        let session = try await fixture.signIn()
        let before = try await fixture.stored()
        await fixture.idp.update { $0.idTokenClaimOverrides["acr"] = "urn:example:loa:1" }
        let error = await authError { _ = try await session.send(fixture.get("/api/high-assurance"), steppingUpWith: fixture.agent) }
        #expect(error?.code == .stepUpNotSatisfied)
        #expect((error?.underlying as? AuthError)?.code == .acrNotSatisfied)
        #expect(try await fixture.stored() == before)
        #expect(await session.credential == before)
        #expect(await fixture.idp.requestCounts["/api/high-assurance"] == 1)
    }

    @Test("A step-up whose auth_time is older than max_age, or missing, is step_up_not_satisfied")
    func authTimeNotMet() async throws {
        for change: @Sendable (inout TestIdentityProvider.Behavior) -> Void in [
            { $0.idTokenClaimOverrides["auth_time"] = .number(ManualClock.defaultEpoch) },
            { $0.idTokenClaimRemovals = ["auth_time"] }
        ] {
            let fixture = StepUpFixture()
            let session = try await fixture.signIn()
            let before = try await fixture.stored()
            fixture.clock.advance(by: 600)
            await fixture.idp.update(change)
            let error = await authError { _ = try await session.send(fixture.get("/api/recent-authentication"), steppingUpWith: fixture.agent) }
            #expect(error?.code == .stepUpNotSatisfied)
            #expect(try await fixture.stored() == before)
        }
    }

    @Test("A step-up that authenticates another user is subject_mismatch; nothing stored")
    func anotherUser() async throws {
        let fixture = StepUpFixture()
        let session = try await fixture.signIn()
        let before = try await fixture.stored()
        await fixture.idp.setUser(TestIdentityProvider.User(subject: "mallory", claims: [:]))
        let error = await authError { _ = try await session.send(fixture.get("/api/high-assurance"), steppingUpWith: fixture.agent) }
        #expect(error?.code == .subjectMismatch)
        #expect(try await fixture.stored() == before)
        #expect(try await fixture.storage.storedKeys().count == 1)
    }

    @Test("A malformed step-up challenge is invalid_step_up_challenge: no sign-in, no refresh")
    func malformedChallenge() async throws {
        let fixture = StepUpFixture()
        let session = try await fixture.signIn()
        await fixture.idp.update { $0.stepUpChallenge = #"Bearer error="insufficient_user_authentication", max_age=-5"# }
        let error = await authError { _ = try await session.send(fixture.get("/api/high-assurance"), steppingUpWith: fixture.agent) }
        #expect(error?.code == .invalidStepUpChallenge)
        #expect(fixture.agent.urls.count == 1)
        #expect(await fixture.idp.tokenRequestsByGrant["refresh_token"] == nil)
    }

    @Test("Concurrent requests challenged at once share one step-up sign-in")
    func concurrentChallengesShareOneStepUp() async throws {
        let fixture = StepUpFixture()
        let session = try await fixture.signIn()
        let request = fixture.get("/api/high-assurance")
        let agent = fixture.agent
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 { group.addTask { try await session.send(request, steppingUpWith: agent).1.status.code } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 20))
        #expect(fixture.agent.urls.count == 2, "one sign-in and one shared step-up")
    }
}
