import AuthCore
import Foundation
import Testing

@Suite("Step-up challenges: WWW-Authenticate as RFC 9110 §11.6.1 writes it, and RFC 9470 §3's parameters")
struct StepUpChallengeTests {
    private func response(_ fields: [String], status: HTTPResponse.Status = .unauthorized) -> HTTPResponse {
        var response = HTTPResponse(status: status)
        for field in fields { response.headerFields.append(HTTPField(name: HTTPField.Name("WWW-Authenticate")!, value: field)) }
        return response
    }

    @Test("RFC 9110's example: two challenges in one field, a token68-free scheme, escapes in a quoted string")
    func rfc9110Example() throws {
        let challenges = try AuthenticationChallenge.parse([#"Newauth realm="apps", type=1, title="Login to \"apps\"", Basic realm="simple""#])
        #expect(challenges.count == 2)
        #expect(challenges[0].scheme == "newauth")
        #expect(challenges[0].parameters == ["realm": "apps", "type": "1", "title": #"Login to "apps""#])
        #expect(challenges[1].scheme == "basic")
        #expect(challenges[1].parameters == ["realm": "simple"])
    }

    @Test("Schemes and parameter names are case-insensitive; whitespace around '=' and empty list elements are accepted")
    func caseAndWhitespace() throws {
        let challenges = try AuthenticationChallenge.parse([#"BEARER Realm = "x" ,, ERROR= invalid_token"#, "Negotiate abc+/==", "Basic"])
        #expect(challenges.map(\.scheme) == ["bearer", "negotiate", "basic"])
        #expect(challenges[0].parameters == ["realm": "x", "error": "invalid_token"])
        #expect(challenges[1].token68 == "abc+/==")
        #expect(challenges[2].parameters.isEmpty && challenges[2].token68 == nil)
    }

    @Test(
        "Malformed fields are refused",
        arguments: [
            #"Bearer error="unterminated"#, #"Bearer error="a", error="b""#, "Bearer =x", #"Bearer error="x" realm="y""#,
            "Bearer error=\"a\u{01}b\"", #"Bearer error="x\"#, "Bearer a=b c"
        ])
    func malformed(_ field: String) {
        #expect(throws: AuthenticationChallenge.Malformed.self) { try AuthenticationChallenge.parse([field]) }
    }

    @Test("RFC 9470 §3's example, and acr_values with max_age")
    func rfc9470() throws {
        let example = try StepUpRequirement.required(
            by: response([#"Bearer error="insufficient_user_authentication", error_description="A different authentication level is required", acr_values="myACR""#])
        )
        #expect(example == StepUpRequirement(acrValues: ["myACR"]))
        let both = try StepUpRequirement.required(
            by: response([#"Bearer realm="api", error="insufficient_user_authentication", acr_values="urn:a  urn:b", max_age=5"#])
        )
        #expect(both == StepUpRequirement(acrValues: ["urn:a", "urn:b"], maxAge: 5))
        #expect(try StepUpRequirement.required(by: response([#"Bearer error="insufficient_user_authentication", max_age="0""#])) == StepUpRequirement(maxAge: 0))
    }

    @Test("The step-up challenge is found among several challenges and fields, for the DPoP scheme too")
    func severalChallenges() throws {
        let found = try StepUpRequirement.required(
            by: response([#"Basic realm="x""#, #"DPoP algs="ES256", error="insufficient_user_authentication", max_age=60, Bearer realm="y""#])
        )
        #expect(found == StepUpRequirement(maxAge: 60))
        // An unreadable field of another layer beside it hides nothing.
        let beside = try StepUpRequirement.required(
            by: response([#"Basic realm="unterminated"#, #"Bearer error="insufficient_user_authentication", acr_values="urn:a""#]))
        #expect(beside == StepUpRequirement(acrValues: ["urn:a"]))
    }

    @Test("Not a step-up: another error, no error, another scheme, another status, no field")
    func notStepUp() throws {
        #expect(try StepUpRequirement.required(by: response([#"Bearer error="invalid_token""#])) == nil)
        #expect(try StepUpRequirement.required(by: response(["Bearer"])) == nil)
        #expect(try StepUpRequirement.required(by: response([#"Basic error="insufficient_user_authentication""#])) == nil)
        #expect(try StepUpRequirement.required(by: response([#"Bearer error="insufficient_user_authentication""#], status: .forbidden)) == nil)
        #expect(try StepUpRequirement.required(by: response([])) == nil)
        // An unreadable field that does not name the step-up error is an ordinary 401.
        #expect(try StepUpRequirement.required(by: response([#"Bearer error="invalid_token"#])) == nil)
    }

    @Test(
        "A step-up challenge that cannot be read is invalid_step_up_challenge",
        arguments: [
            #"Bearer error="insufficient_user_authentication", acr_values="a"#,
            #"Bearer error="insufficient_user_authentication", max_age=-1"#,
            #"Bearer error="insufficient_user_authentication", max_age="1e3""#,
            #"Bearer error="insufficient_user_authentication", max_age=99999999999"#,
            #"Bearer error="insufficient_user_authentication", acr_values="""#,
            #"Bearer error="insufficient_user_authentication", acr_values="a\"b""#,
            "Bearer error=\"insufficient_user_authentication\", acr_values=\"caf\u{E9}\"",
            #"Bearer error="insufficient_user_authentication", max_age=5, max_age=6"#
        ])
    func unreadable(_ field: String) {
        do {
            _ = try StepUpRequirement.required(by: response([field]))
            Issue.record("accepted \(field)")
        } catch let error as AuthError {
            #expect(error.code == .invalidStepUpChallenge)
        } catch {
            Issue.record("\(error)")
        }
    }
}
