import Foundation

/// An OAuth error as a provider sends it, read one way wherever it arrives: the query of an authorization redirect
/// (RFC 6749 §4.1.2.1), or the JSON or form-encoded body of an endpoint's answer (RFC 6749 §5.2), with an error status
/// or — as GitHub does — inside a successful one.
///
/// Every reading of `error` and `error_description` in the engine is here, so a rule about them (which codes mean
/// `invalid_grant`, how provider text is made safe) holds for every endpoint at once. Both values are provider text:
/// they pass through ``ProviderText`` with control and formatting characters removed, cut to
/// ``maximumLength`` characters.
struct OAuthErrorResponse: Sendable, Equatable {
    /// The `error` code, safe to show.
    let error: String
    /// The `error_description`, safe to show; `nil` when absent or empty.
    let description: String?

    /// The longest `error` or `error_description` kept.
    static let maximumLength = 300

    /// The error codes that mean what RFC 6749's `invalid_grant` means: the code or refresh token is wrong, spent or
    /// expired, so the grant cannot be redeemed again. Besides `invalid_grant`, GitHub's `bad_verification_code`
    /// (https://docs.github.com/en/apps/oauth-apps/maintaining-oauth-apps/troubleshooting-oauth-app-access-token-request-errors#bad-verification-code)
    /// and `bad_refresh_token`
    /// (https://docs.github.com/en/apps/creating-github-apps/authenticating-with-a-github-app/refreshing-user-access-tokens):
    /// a refresh refused with one of them signs the user out, as `invalid_grant` does, whatever the HTTP status.
    static let invalidGrantCodes: Set<String> = ["invalid_grant", "bad_verification_code", "bad_refresh_token"]

    /// The error of a redirect's query or a form body's parameters; `nil` without a non-empty `error`.
    init?(parameters: [String: String]) {
        self.init(error: parameters["error"], description: parameters["error_description"])
    }

    /// The error of a JSON (or form-decoded) body's members; `nil` without a non-empty string `error`.
    init?(members: [String: JSONValue]) {
        self.init(error: members["error"]?.stringValue, description: members["error_description"]?.stringValue)
    }

    /// The error of an endpoint's body: form-encoded when `contentType` says so, JSON otherwise; `nil` when the body is
    /// neither or carries no `error`.
    init?(body: Data, contentType: String?) {
        guard let members = try? TokenResponse.members(of: body, contentType: contentType) else { return nil }
        self.init(members: members)
    }

    private init?(error: String?, description: String?) {
        guard let error = error.map(Self.safeText), !error.isEmpty else { return nil }
        self.error = error
        self.description = Self.safeDescription(description)
    }

    /// A redirect's `error_description` made safe, whether or not an `error` came with it (a vendor's own error
    /// parameters, GOV.UK's logout answer); `nil` when absent or empty.
    static func description(in parameters: [String: String]) -> String? {
        safeDescription(parameters["error_description"])
    }

    private static func safeDescription(_ text: String?) -> String? {
        text.map(safeText).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Provider text as it may appear in a message: controls, escapes and bidirectional marks removed (not replaced,
    /// so a description reads as the provider meant it), cut to ``maximumLength`` characters.
    static func safeText(_ text: String) -> String {
        ProviderText.sanitized(text, limit: maximumLength, removingUnsafe: true)
    }

    /// `: description`, or nothing: the tail of a message that quotes the provider.
    var detail: String { description.map { ": \($0)" } ?? "" }

    /// The engine's code for this error at an endpoint: `invalid_grant` for the codes of ``invalidGrantCodes``,
    /// `token_request_failed` for any other.
    var code: AuthError.Code { Self.invalidGrantCodes.contains(error) ? .invalidGrant : .tokenRequestFailed }

    /// The error of an authorization redirect: the provider refused the sign-in (`authorization_failed`).
    var authorizationError: AuthError {
        if error == "invalid_request_uri" {
            // RFC 9126 §2.2, §4: a pushed request's reference is short-lived and single-use; the usual cause is a URL
            // opened late or twice, which the developer fixes by opening it promptly (AuthorizationRequest's
            // pushedRequestExpiresAt) and once.
            return AuthError(
                .authorizationFailed,
                "The provider refused the pushed request's request_uri ('invalid_request_uri'\(detail)): it expires shortly after the push and is accepted once, so open the authorization URL promptly and only once, and start the sign-in again.",
                oauthError: error)
        }
        return AuthError(.authorizationFailed, "The provider refused the sign-in with '\(error)'\(detail).", oauthError: error)
    }

    /// The error of an endpoint's answer with `status` (any status: GitHub answers errors with 200).
    func endpointError(httpStatus status: Int, providerID: ProviderID?) -> AuthError {
        AuthError(
            code, "The provider refused the request with '\(error)'\(detail) (HTTP \(status)).", providerID: providerID, oauthError: error, httpStatus: status
        )
    }

    /// The error for an endpoint's answer that is not 2xx, whose body ``init(body:contentType:)`` read as `response`: a
    /// server error for 5xx (retryable, whatever the body says), the OAuth error when the body carries one, a bare
    /// `http_error` otherwise.
    static func error(forStatus status: Int, response: OAuthErrorResponse?, providerID: ProviderID?) -> AuthError {
        if status >= 500 {
            return AuthError(
                .serverError, "The provider had a server error (HTTP \(status)); try again later.", providerID: providerID, oauthError: response?.error,
                httpStatus: status
            )
        }
        if let response { return response.endpointError(httpStatus: status, providerID: providerID) }
        return AuthError(.httpError, "The provider answered with HTTP \(status).", providerID: providerID, httpStatus: status)
    }
}
