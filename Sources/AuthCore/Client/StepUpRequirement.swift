import Foundation
package import HTTPTypes

/// What a resource server asked of the user's authentication in an RFC 9470 step-up challenge: a `401` with
/// `WWW-Authenticate: Bearer error="insufficient_user_authentication"` and its `acr_values` and `max_age`.
///
/// ``Session/send(_:body:)`` throws `step_up_required` with this in ``AuthError/stepUp``;
/// ``Session/send(_:body:steppingUpWith:redirectURI:)`` signs the user in again to meet it and retries the request once.
public struct StepUpRequirement: Sendable, Hashable, Codable {
    /// The authentication context classes the resource accepts, in its order of preference (`acr_values`); empty
    /// when it named none.
    public var acrValues: [String]
    /// How many seconds ago, at most, the user may have authenticated (`max_age`); `nil` when it named no limit.
    public var maxAge: Int?

    package init(acrValues: [String] = [], maxAge: Int? = nil) {
        self.acrValues = acrValues
        self.maxAge = maxAge
    }

    /// The most `acr_values` a challenge may list, and the longest one: a resource asks for a few classes by name.
    static let maximumACRValues = 16
    static let maximumACRLength = 256

    /// The step-up requirement of a `401` answer, or `nil` when it is not a step-up challenge (another error, a
    /// challenge without `error`, another status).
    ///
    /// Every `WWW-Authenticate` field is read with the RFC 9110 §11.6.1 grammar (several challenges, quoted strings
    /// with escapes); the first `Bearer` or `DPoP` challenge with `error="insufficient_user_authentication"` (RFC 9470
    /// §3) is the step-up. Its `acr_values` must be space-separated values of visible ASCII (at most 16, each at most
    /// 256 characters) and its `max_age` a whole number of seconds (RFC 9470 §3, OpenID Connect Core §3.1.2.1).
    ///
    /// - Throws: `invalid_step_up_challenge` when the answer is a step-up challenge that cannot be read — fields
    ///   that do not follow the grammar but name `insufficient_user_authentication`, an empty or malformed
    ///   `acr_values`, a `max_age` that is not a whole number of seconds.
    package static func required(by response: HTTPResponse) throws -> StepUpRequirement? {
        guard response.status == .unauthorized else { return nil }
        let fields = response.headerFields[values: .wwwAuthenticate]
        guard !fields.isEmpty else { return nil }
        // Each field on its own: an unreadable field that does not name the step-up error (another layer's challenge)
        // is skipped and hides nothing; one that names it is this error's business.
        var challenges: [AuthenticationChallenge] = []
        for field in fields {
            do {
                challenges += try AuthenticationChallenge.parse([field])
            } catch {
                guard field.localizedCaseInsensitiveContains(insufficientUserAuthentication) else { continue }
                throw malformed("its WWW-Authenticate field does not follow RFC 9110's grammar (\(error.reason))")
            }
        }
        guard
            let challenge = challenges.first(where: {
                ($0.scheme == "bearer" || $0.scheme == "dpop") && $0.parameters["error"] == insufficientUserAuthentication
            })
        else { return nil }
        var requirement = StepUpRequirement()
        if let text = challenge.parameters["acr_values"] {
            let values = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard !values.isEmpty, values.count <= maximumACRValues,
                values.allSatisfy({ $0.utf8.count <= maximumACRLength && $0.utf8.allSatisfy { (0x21...0x7E).contains($0) && $0 != 0x22 && $0 != 0x5C } })
            else {
                throw malformed("its acr_values is not a list of up to \(maximumACRValues) space-separated values of visible ASCII")
            }
            requirement.acrValues = values
        }
        if let text = challenge.parameters["max_age"] {
            guard (1...10).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let seconds = Int(text) else {
                throw malformed("its max_age is not a whole number of seconds")
            }
            requirement.maxAge = seconds
        }
        return requirement
    }

    static let insufficientUserAuthentication = "insufficient_user_authentication"

    private static func malformed(_ reason: String) -> AuthError {
        AuthError(.invalidStepUpChallenge, "The resource answered with a step-up challenge (RFC 9470) that cannot be read: \(reason).", httpStatus: 401)
    }

    /// The error ``Session/send(_:body:)`` throws for this requirement.
    package func error(_ code: AuthError.Code = .stepUpRequired, _ message: String? = nil, providerID: ProviderID?) -> AuthError {
        var wanted: [String] = []
        if !acrValues.isEmpty { wanted.append("acr_values \(acrValues.joined(separator: " "))") }
        if let maxAge { wanted.append("an authentication at most \(maxAge) s old") }
        let summary = wanted.isEmpty ? "a new authentication" : wanted.joined(separator: " and ")
        var error = AuthError(
            code, message ?? "The resource asks the user to authenticate again (RFC 9470 step-up): \(summary).", providerID: providerID, httpStatus: 401
        )
        error.stepUp = self
        return error
    }
}
