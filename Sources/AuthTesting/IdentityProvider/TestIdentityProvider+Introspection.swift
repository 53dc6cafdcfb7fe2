import AuthCore
import Foundation

// Token introspection (RFC 7662).
extension TestIdentityProvider {
    /// Whether a token is an active access token, with its client, scope, subject, expiry and DPoP binding.
    func introspect(_ request: CapturedRequest, url: URL) -> (Data, HTTPResponse) {
        let form = formParameters(request)
        if case .failure(let failure) = authenticateClient(request, form: form) { return clientAuthenticationError(failure, url: url) }
        guard let token = form["token"], let record = accessTokens[token], isActive(record) else {
            return json(["active": false], url: url)
        }
        return json(
            [
                "active": true, "client_id": .string(record.clientID), "scope": .string(record.scope),
                "sub": .string(record.subject), "exp": .number(record.expiresAt.timeIntervalSince1970.rounded(.down)),
                "token_type": record.dpopKeyThumbprint == nil ? "Bearer" : "DPoP",
                "cnf": record.dpopKeyThumbprint.map { ["jkt": .string($0)] } ?? .null
            ].filter { $0.value != .null }, url: url)
    }
}
