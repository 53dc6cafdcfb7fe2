import AuthCore
public import Foundation
import HTTPTypes

/// The `WWW-Authenticate` reader a resource's 401 reaches (RFC 9110 §11.6.1) and what the engine asks of it — a
/// step-up requirement (RFC 9470), a DPoP nonce demand (RFC 9449 §9) — for the fuzzers. Not API.
public enum ChallengeHarness {
    /// Reads `data` as `WWW-Authenticate` field values, one per line, and traps when the reader breaks a promise: a
    /// challenge without a scheme, a scheme or parameter name that is not lowercased, or a token68 beside
    /// parameters. Then asks for the step-up requirement and the nonce demand of a 401 carrying those fields, which
    /// may throw `invalid_step_up_challenge` but must not trap.
    public static func parseAll(_ data: Data) {
        let values = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let challenges = try? AuthenticationChallenge.parse(values) {
            for challenge in challenges {
                precondition(!challenge.scheme.isEmpty && challenge.scheme == challenge.scheme.lowercased(), "scheme '\(challenge.scheme)'")
                precondition(challenge.parameters.keys.allSatisfy { !$0.isEmpty && $0 == $0.lowercased() }, "parameter names \(challenge.parameters.keys)")
                precondition(challenge.token68 == nil || challenge.parameters.isEmpty, "a token68 beside parameters")
            }
        }
        var response = HTTPResponse(status: .unauthorized)
        for value in values { response.headerFields.append(HTTPField(name: .wwwAuthenticate, value: value)) }
        if let requirement = try? StepUpRequirement.required(by: response) {
            precondition(requirement.acrValues.count <= 16, "\(requirement.acrValues.count) acr values")
            precondition(requirement.maxAge.map { $0 >= 0 } ?? true, "a negative max_age")
        }
        _ = AuthClient.demandsDPoPNonce(response)
    }
}
