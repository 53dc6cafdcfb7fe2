package import Foundation

/// The parameters of an authorization response read from a redirect URL (RFC 6749 §4.1.2).
///
/// Parsing checks only the shape: the URL must be the registered redirect URI exactly (scheme, host, port and
/// path), and no parameter may appear twice. Tokens in the front channel (`access_token`, `id_token`) are never
/// read. The engine then checks `state`, `iss` and `error`.
package struct AuthorizationResponse: Sendable {
    /// The response parameters from the query.
    package let parameters: [String: String]

    /// `state`.
    package var state: String? { parameters["state"] }
    /// `code`.
    package var code: String? { parameters["code"] }
    /// `error`.
    package var error: String? { parameters["error"] }
    /// The OAuth error the response carries, made safe to show; `nil` without one.
    var oauthError: OAuthErrorResponse? { OAuthErrorResponse(parameters: parameters) }
    /// The OAuth error description, made safe to show as every OAuth error text is (``OAuthErrorResponse``).
    package var errorDescription: String? { OAuthErrorResponse.description(in: parameters) }
    /// The RFC 9207 `iss`.
    package var issuer: String? { parameters["iss"] }

    /// The longest redirect URL accepted.
    package static let maximumLength = 16 * 1024

    /// Parses `redirect`, which must match `redirectURI` exactly.
    ///
    /// - Throws: `redirect_mismatch` for another URL; `duplicate_parameter` for a repeated parameter.
    package init(redirect: URL, redirectURI: URL) throws {
        try self.init(redirect, expecting: redirectURI)
    }

    /// Reads the response parameters of `redirect` without checking where it points.
    ///
    /// - Throws: `redirect_mismatch` for an oversized or unparsable URL; `duplicate_parameter` for a repeated
    ///   parameter (RFC 6749 §3.1).
    package init(parsing redirect: URL) throws {
        try self.init(redirect, expecting: nil)
    }

    /// Splits the redirect's text once: matches it against `redirectURI` when given, then reads its query.
    private init(_ redirect: URL, expecting redirectURI: URL?) throws {
        let pairs = try redirect.withParts { text, parts -> [(String, String)] in
            if let redirectURI {
                let matches = redirectURI.withParts { expected, expectedParts in
                    guard let parts, let expectedParts else { return false }
                    return parts.isSameEndpoint(in: text, as: expectedParts, in: expected)
                }
                guard matches else {
                    throw AuthError(.redirectMismatch, "The redirect does not match the registered redirect URI exactly.")
                }
            }
            guard text.count <= Self.maximumLength, let parts else {
                throw AuthError(.redirectMismatch, "The redirect URL is unparsable or longer than \(Self.maximumLength) bytes.")
            }
            guard let query = parts.query else { return [] }
            return FormEncoding.decode(UnsafeRawBufferPointer(rebasing: text[query]))
        }
        var parameters = [String: String](minimumCapacity: pairs.count)
        for (name, value) in pairs {
            guard parameters.updateValue(value, forKey: name) == nil else {
                throw AuthError(.duplicateParameter, "The authorization response repeats the parameter '\(name)'.")
            }
        }
        self.parameters = parameters
    }

    /// Whether `redirect` points exactly at `redirectURI`: same scheme and host (case-insensitive), same user info
    /// (normally none) and port, same path (byte for byte). Query parameters are the response and are not compared.
    package static func redirect(_ redirect: URL, matches redirectURI: URL) -> Bool {
        redirect.withParts { received, receivedParts in
            redirectURI.withParts { expected, expectedParts in
                guard let receivedParts, let expectedParts else { return false }
                return receivedParts.isSameEndpoint(in: received, as: expectedParts, in: expected)
            }
        }
    }

    /// `missing_state` for this response: when the provider answered with an error without `state` (GOV.UK does for
    /// a request it cannot parse), its `error` and description are named, so the developer sees the provider's reason
    /// — but the response is still never attributed to a sign-in (any page could send one).
    package func missingStateError(_ message: String) -> AuthError {
        guard let error = oauthError else { return AuthError(.missingState, message) }
        let reason = error.error + error.detail
        return AuthError(.missingState, "\(message) The provider answered '\(reason)' — most likely to a request it could not parse.", oauthError: error.error)
    }
}
