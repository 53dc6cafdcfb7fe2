import AuthCore
import Foundation

extension HostileScenario {
    /// A provider that advertises a pushed authorization request endpoint (RFC 9126) and answers the push wrongly: the
    /// client must refuse before the browser opens.
    static let pushedAuthorizationRequest: [HostileScenario] = [
        .init(
            id: "rfc9126-par-answer-without-request-uri", summary: "the PAR endpoint answers 201 without request_uri",
            reference: "RFC 9126 §2.2", stage: .pushedAuthorizationRequest, expectation: .rejected(.missingRequestURI)
        ) { pushedAnswer(&$0, status: 201, ["expires_in": 60]) },
        .init(
            id: "rfc9126-par-absurd-expires-in", summary: "the PAR endpoint's expires_in is a year",
            reference: "RFC 9126 §2.2", stage: .pushedAuthorizationRequest, expectation: .rejected(.invalidRequestURILifetime)
        ) { pushedAnswer(&$0, status: 201, ["request_uri": "urn:ietf:params:oauth:request_uri:x", "expires_in": 31_536_000]) },
        .init(
            id: "rfc9126-par-non-positive-expires-in", summary: "the PAR endpoint's expires_in is 0",
            reference: "RFC 9126 §2.2", stage: .pushedAuthorizationRequest, expectation: .rejected(.invalidRequestURILifetime)
        ) { pushedAnswer(&$0, status: 201, ["request_uri": "urn:ietf:params:oauth:request_uri:x", "expires_in": 0]) },
        .init(
            id: "rfc9126-par-error-answer", summary: "the PAR endpoint answers 400 invalid_request",
            reference: "RFC 9126 §2.3", stage: .pushedAuthorizationRequest, expectation: .rejected(.pushedAuthorizationFailed)
        ) { pushedAnswer(&$0, status: 400, ["error": "invalid_request"]) }
    ]

    /// Advertises the provider's `/par` in discovery and answers every push with `status` and `body`.
    private static func pushedAnswer(_ behavior: inout TestIdentityProvider.Behavior, status: Int, _ body: [String: JSONValue]) {
        behavior.discoveryOverrides["pushed_authorization_request_endpoint"] = .string(TestIdentityProvider.defaultIssuer.absoluteString + "/par")
        behavior.pushedAuthorizationAnswer = (status, body)
    }
}
