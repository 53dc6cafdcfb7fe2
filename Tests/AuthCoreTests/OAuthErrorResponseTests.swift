import AuthTesting
import Foundation
import Testing

@testable import AuthCore

/// One reader of a provider's OAuth error, wherever it arrives: the same codes mean `invalid_grant` at any status,
/// the same text rule for redirects and bodies.
@Suite("OAuthErrorResponse: one reader of a provider's OAuth error")
struct OAuthErrorResponseTests {
    @Test(
        "GitHub's invalid_grant codes mean invalid_grant with an error status too, not only inside HTTP 200",
        arguments: ["invalid_grant", "bad_refresh_token", "bad_verification_code"]
    )
    func invalidGrantAtAnyStatus(code: String) {
        let body = Data(#"{"error":"\#(code)","error_description":"gone"}"#.utf8)
        let response = OAuthErrorResponse(body: body, contentType: "application/json")
        for status in [400, 401] {
            let error = OAuthErrorResponse.error(forStatus: status, response: response, providerID: "p")
            #expect(error.code == .invalidGrant && error.oauthError == code && error.httpStatus == status)
        }
        #expect(response?.endpointError(httpStatus: 200, providerID: "p").code == .invalidGrant)
    }

    @Test("A refresh refused with HTTP 400 bad_refresh_token signs the user out, as one answered with 200 does")
    func badRefreshTokenWith400SignsOut() async throws {
        let fixture = Fixture()
        let session = try await fixture.signIn()
        let body = Data(#"{"error":"bad_refresh_token"}"#.utf8)
        await fixture.idp.update { $0.tokenResponseReplacement = (status: 400, body: body, headers: ["Content-Type": "application/json"]) }
        let error = await authError { _ = try await session.refresh() }
        #expect(error?.code == .invalidGrant && error?.httpStatus == 400)
        #expect(await session.isSignedIn == false)
        #expect(try await fixture.storedCount() == 0)
    }

    @Test("Other codes are token_request_failed; 5xx is a retryable server error whatever the body; no error member is http_error")
    func otherShapes() {
        let json = { (text: String) in OAuthErrorResponse(body: Data(text.utf8), contentType: "application/json; charset=utf-8") }
        #expect(OAuthErrorResponse.error(forStatus: 400, response: json(#"{"error":"invalid_client"}"#), providerID: nil).code == .tokenRequestFailed)
        let server = OAuthErrorResponse.error(forStatus: 503, response: json(#"{"error":"temporarily_unavailable"}"#), providerID: nil)
        #expect(server.code == .serverError && server.isRetryable && server.oauthError == "temporarily_unavailable")
        #expect(OAuthErrorResponse.error(forStatus: 404, response: json("<html>"), providerID: nil).code == .httpError)
        #expect(json(#"{"error":""}"#) == nil && json(#"{"error":7}"#) == nil)
    }

    @Test("The same text rule for a redirect, a JSON body and a form body: controls and bidi marks removed, non-ASCII kept, 300 characters")
    func oneTextRule() throws {
        let hostile = "Ugyldig forespørsel\u{1b}[31m\u{202e}\r\nFAKE LOG LINE"
        let expected = "Ugyldig forespørsel[31mFAKE LOG LINE"
        let fromRedirect = OAuthErrorResponse(parameters: ["error": "access_denied\u{7}", "error_description": hostile])
        let fromJSON = OAuthErrorResponse(members: ["error": "access_denied\u{7}", "error_description": .string(hostile)])
        let form = "error=access_denied%07&error_description=" + (hostile.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        let fromForm = OAuthErrorResponse(body: Data(form.utf8), contentType: "application/x-www-form-urlencoded")
        for response in [fromRedirect, fromJSON, fromForm] {
            #expect(response?.error == "access_denied")
            #expect(response?.description == expected)
        }
        let long = OAuthErrorResponse(parameters: ["error": "e", "error_description": String(repeating: "x", count: 1000)])
        #expect(try #require(long?.description).count <= OAuthErrorResponse.maximumLength + 1)
    }

    @Test("A redirect's error and a token endpoint's error quote the provider the same way")
    func sameQuoting() throws {
        let response = try #require(OAuthErrorResponse(parameters: ["error": "access_denied", "error_description": "No"]))
        #expect(response.authorizationError.message == "The provider refused the sign-in with 'access_denied': No.")
        #expect(response.endpointError(httpStatus: 400, providerID: nil).message == "The provider refused the request with 'access_denied': No (HTTP 400).")
    }
}
