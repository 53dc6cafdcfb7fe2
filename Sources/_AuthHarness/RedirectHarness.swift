import AuthCore
public import Foundation

/// The redirect parsers an attacker's URL reaches, for the fuzzers and the redirect benchmark.
///
/// Not API: this module exists because Fuzz/ and Benchmarks/ are separate packages and cannot see AuthCore's
/// `package` declarations. Apps complete a sign-in with `AuthClient.completeSignIn(redirect:)`.
public enum RedirectHarness {
    /// Decodes `text` as `application/x-www-form-urlencoded` pairs (a query or a form body).
    public static func decodeForm(_ text: String) -> [(String, String)] {
        FormEncoding.decode(text)
    }

    /// Whether `url` is `registered` exactly, as the engine compares a redirect with the registered redirect URI.
    public static func redirect(_ url: URL, matches registered: URL) -> Bool {
        AuthorizationResponse.redirect(url, matches: registered)
    }

    /// Parses `url` as an authorization response and reads each of its fields; `false` when it is refused
    /// (duplicate parameter, oversized, malformed).
    public static func parse(_ url: URL) -> Bool {
        guard let response = try? AuthorizationResponse(parsing: url) else { return false }
        _ = (response.state, response.code, response.error, response.errorDescription, response.issuer)
        return true
    }

    /// Parses `redirect` as the authorization response for `redirectURI` (exact match first), as a sign-in does.
    @inline(never)
    public static func parse(_ redirect: URL, expecting redirectURI: URL) throws {
        _ = try AuthorizationResponse(redirect: redirect, redirectURI: redirectURI)
    }
}
