import AuthCore
import AuthDeviceFlow
import AuthTesting
import Foundation
import Testing

/// Token endpoint answers in the two shapes besides RFC 6749 §5.1's JSON that a provider (GitHub) sends: a
/// form-encoded body, and an OAuth error inside HTTP 200.
@Suite("token responses: form-encoded bodies and errors inside HTTP 200")
struct TokenResponseShapesTests {
    private static let form = "application/x-www-form-urlencoded; charset=utf-8"

    @Test("A form-encoded body is read by its Content-Type; JSON otherwise; anything else is invalid_response")
    func members() throws {
        let body = Data("access_token=gho_abc&scope=repo%2Cgist&token_type=bearer&expires_in=28800".utf8)
        let members = try TokenResponse.members(of: body, contentType: Self.form)
        #expect(members["access_token"]?.stringValue == "gho_abc" && members["scope"]?.stringValue == "repo,gist")
        let tokens = try TokenResponse(members: members)
        #expect(tokens.tokenType == "Bearer" && tokens.expiresIn == 28800 && tokens.refreshToken == nil)
        #expect(try TokenResponse.members(of: Data(#"{"access_token":"x"}"#.utf8), contentType: "application/json")["access_token"] == "x")
        #expect(TokenResponse.isFormEncoded("Application/X-WWW-Form-Urlencoded"))
        #expect(!TokenResponse.isFormEncoded("application/json") && !TokenResponse.isFormEncoded(nil))
        // A form body without the form Content-Type is not guessed at.
        let untyped = #expect(throws: AuthError.self) { try TokenResponse.members(of: body, contentType: "text/plain") }
        #expect(untyped?.code == .invalidResponse)
        let invalid = #expect(throws: AuthError.self) { try TokenResponse.members(of: Data([0x61, 0x3D, 0xFF]), contentType: Self.form) }
        #expect(invalid?.code == .invalidResponse)
    }

    @Test("A refresh answered form-encoded (HTTP 200) updates the session")
    func formEncodedRefresh() async throws {
        let fixture = Fixture()
        let session = try await fixture.signIn()
        let body = Data("access_token=at_form_encoded&token_type=bearer&expires_in=7200&refresh_token=rt_form_encoded&scope=openid+email".utf8)
        await fixture.idp.update { $0.tokenResponseReplacement = (status: 200, body: body, headers: ["Content-Type": Self.form]) }
        let credential = try await session.refresh()
        #expect(credential.accessToken.reveal() == "at_form_encoded" && credential.refreshToken?.reveal() == "rt_form_encoded")
        #expect(credential.expiresAt == fixture.clock.now().addingTimeInterval(7200))
        #expect(credential.scopes == ["openid", "email"])
    }

    @Test("A code exchange answered HTTP 200 with an error member fails with that error; nothing stored")
    func errorInsideHTTP200() async throws {
        let fixture = Fixture()
        let body = Data(
            #"{"error":"incorrect_client_credentials","error_description":"The client_id and/or client_secret passed are incorrect.","access_token":"at_not_tokens"}"#.utf8)
        await fixture.idp.update { $0.tokenResponseReplacement = (status: 200, body: body, headers: ["Content-Type": "application/json"]) }
        let (_, redirect) = try await fixture.redirect()
        let error = await authError { _ = try await fixture.client.completeSignIn(redirect: redirect) }
        #expect(error?.code == .tokenRequestFailed)
        #expect(error?.oauthError == "incorrect_client_credentials" && error?.httpStatus == 200)
        #expect(error?.providerID == "plain")
        #expect(error?.message.contains("at_not_tokens") == false)
        #expect(try await fixture.storedCount() == 0)
    }

    @Test("A form-encoded error inside HTTP 200 (bad_verification_code) is invalid_grant; nothing stored")
    func formEncodedErrorInsideHTTP200() async throws {
        let fixture = Fixture()
        let body = Data("error=bad_verification_code&error_description=The+code+passed+is+incorrect+or+expired.".utf8)
        await fixture.idp.update { $0.tokenResponseReplacement = (status: 200, body: body, headers: ["Content-Type": Self.form]) }
        let (_, redirect) = try await fixture.redirect()
        let error = await authError { _ = try await fixture.client.completeSignIn(redirect: redirect) }
        #expect(error?.code == .invalidGrant && error?.oauthError == "bad_verification_code" && error?.httpStatus == 200)
        #expect(error?.message.contains("The code passed is incorrect or expired.") == true)
        #expect(try await fixture.storedCount() == 0)
    }

    @Test("A form-encoded error with HTTP 400 is read as its OAuth error")
    func formEncodedErrorWith400() async throws {
        let fixture = Fixture()
        await fixture.idp.update {
            $0.tokenResponseReplacement = (status: 400, body: Data("error=invalid_grant&error_description=expired".utf8), headers: ["Content-Type": Self.form])
        }
        let (_, redirect) = try await fixture.redirect()
        let error = await authError { _ = try await fixture.client.completeSignIn(redirect: redirect) }
        #expect(error?.code == .invalidGrant && error?.oauthError == "invalid_grant" && error?.httpStatus == 400)
        #expect(try await fixture.storedCount() == 0)
    }

    @Test("A refresh answered HTTP 200 bad_refresh_token signs the user out, as invalid_grant does")
    func badRefreshTokenSignsOut() async throws {
        let fixture = Fixture()
        let session = try await fixture.signIn()
        #expect(try await fixture.storedCount() == 1)
        let body = Data(#"{"error":"bad_refresh_token","error_description":"The refresh token passed is incorrect or expired."}"#.utf8)
        await fixture.idp.update { $0.tokenResponseReplacement = (status: 200, body: body, headers: ["Content-Type": "application/json"]) }
        let error = await authError { _ = try await session.refresh() }
        #expect(error?.code == .invalidGrant && error?.oauthError == "bad_refresh_token")
        #expect(try await fixture.storedCount() == 0)
    }

    @Test("A device poll answered HTTP 200 authorization_pending, then slow_down, keeps polling and slows down")
    func devicePollErrorsInsideHTTP200() async throws {
        let pending = Data(#"{"error":"authorization_pending"}"#.utf8)
        let slowDown = Data("error=slow_down&interval=10".utf8)
        let answers = AnswerQueue([
            (pending, "application/json"), (slowDown, Self.form)
        ])
        var options = AuthClient.Options()
        let intervals = IntervalLog()
        let box = FixtureBox()
        options.pollingSleep = { interval in
            let count = await intervals.append(interval)
            // After the two scripted errors the provider answers honestly again, with the device approved.
            guard let idp = await box.idp else { return }
            if count == 3, let code = await box.userCode {
                await idp.update { $0.tokenResponseReplacement = nil }
                await idp.approveDevice(userCode: code)
            } else if let next = await answers.next() {
                await idp.update { $0.tokenResponseReplacement = (status: 200, body: next.0, headers: ["Content-Type": next.1]) }
            }
        }
        let fixture = Fixture(options: options)
        await box.set(fixture.idp)
        let authorization = try await fixture.client.startDeviceAuthorization()
        await box.set(userCode: authorization.userCode)
        let session = try await fixture.client.completeDeviceAuthorization(authorization)
        #expect(await session.idTokenClaims?.subject == "user-1234")
        #expect(await intervals.all == [.seconds(5), .seconds(5), .seconds(10)])
        #expect(try await fixture.storedCount() == 1)
    }
}

private actor AnswerQueue {
    private var answers: [(Data, String)]
    init(_ answers: [(Data, String)]) { self.answers = answers }
    func next() -> (Data, String)? { answers.isEmpty ? nil : answers.removeFirst() }
}

private actor IntervalLog {
    private(set) var all: [Duration] = []
    func append(_ interval: Duration) -> Int {
        all.append(interval)
        return all.count
    }
}

private actor FixtureBox {
    private(set) var idp: TestIdentityProvider?
    private(set) var userCode: String?
    func set(_ idp: TestIdentityProvider) { self.idp = idp }
    func set(userCode: String) { self.userCode = userCode }
}
