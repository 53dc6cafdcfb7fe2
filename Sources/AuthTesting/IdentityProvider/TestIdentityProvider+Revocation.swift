import AuthCore
import Foundation

// Token revocation (RFC 7009).
extension TestIdentityProvider {
    /// Revokes a refresh token's whole family, or one access token; unknown tokens are not an error (RFC 7009 §2.2).
    func revoke(_ request: CapturedRequest, url: URL) -> (Data, HTTPResponse) {
        if let status = behavior.revocationFailureStatus { return json(["error": "unavailable"], status: status, url: url) }
        let form = formParameters(request)
        if case .failure(let failure) = authenticateClient(request, form: form) { return clientAuthenticationError(failure, url: url) }
        if let token = form["token"] {
            if let record = refreshTokens[token] { revokedFamilies.insert(record.family) }
            if accessTokens[token] != nil { accessTokens[token] = nil }
        }
        return (Data(), .make(status: 200))
    }
}
