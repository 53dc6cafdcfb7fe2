package import Foundation

/// The two shapes a token endpoint answers in besides RFC 6749 §5.1's JSON: a form-encoded body, and an error inside a
/// successful (HTTP 200) answer.
///
/// GitHub does both: its token endpoint answers `application/x-www-form-urlencoded` unless the request says
/// `Accept: application/json`, and it reports `bad_verification_code`, `incorrect_client_credentials` and the device
/// flow's `authorization_pending` / `slow_down` with HTTP 200 and an `error` member
/// (https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps#2-users-are-redirected-back-to-your-site-by-github,
/// https://docs.github.com/en/apps/oauth-apps/maintaining-oauth-apps/troubleshooting-oauth-app-access-token-request-errors).
/// The engine always asks for JSON, but reads either shape, so a server that ignores `Accept` is still understood,
/// and an error is never taken for tokens (the token endpoint reads it with ``OAuthErrorResponse``, as every error).
extension TokenResponse {
    /// The members of a token endpoint's body: a form-encoded one (its `Content-Type` is
    /// `application/x-www-form-urlencoded`) as string members, anything else as a JSON object.
    ///
    /// - Throws: `invalid_response` for a body that is neither.
    package static func members(of data: Data, contentType: String?) throws -> [String: JSONValue] {
        if isFormEncoded(contentType) {
            guard UTF8Validation.isValid(Array(data)) else {
                throw AuthError(.invalidResponse, "The token response is form-encoded but not UTF-8.")
            }
            let pairs = FormEncoding.decode(String(decoding: data, as: UTF8.self))
            // The first of repeated names, as everywhere else this engine reads a form.
            return Dictionary(pairs.map { ($0.0, JSONValue.string($0.1)) }) { first, _ in first }
        }
        do {
            return try JSONValue.parseObject(data)
        } catch {
            throw AuthError(.invalidResponse, "The token response is not a JSON object.")
        }
    }

    /// Whether `contentType` names `application/x-www-form-urlencoded` (any parameters, any case).
    package static func isFormEncoded(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        return mediaType.lowercased() == "application/x-www-form-urlencoded"
    }
}
