import Foundation

extension AuthClient {
    /// The claim checks every signed event a provider sends a server shares with an ID token — a back-channel logout
    /// token, Sign in with Apple's account notification: `iss` the provider's issuer, `aud` naming this client, `iat`
    /// within the policy's window by the injected clock, and `exp` (when present) not past. One rule, so the two
    /// routes cannot drift apart; each caller names its own error through `refuse`.
    func checkSignedEventClaims(
        _ claims: [String: JSONValue], metadata: ProviderMetadata, policy: IDTokenPolicy, refuse: (String) -> AuthError
    ) throws {
        guard let issuer = claims["iss"]?.stringValue,
            policy.tokenIssuerMatches(issuer, expected: metadata.issuer, claim: { claims[$0]?.stringValue })
        else { throw refuse("is not from the provider's issuer") }
        let audiences: [String]
        switch claims["aud"] {
        case .string(let value): audiences = [value]
        case .array(let values): audiences = values.compactMap(\.stringValue)
        default: audiences = []
        }
        guard audiences.contains(provider.client.clientID) else { throw refuse("is not addressed to this client") }
        let now = clock.now()
        guard let issuedAt = claims["iat"]?.timestampValue else { throw refuse("has no valid 'iat'") }
        guard issuedAt.timeIntervalSince(now) <= policy.clockSkew,
            now.timeIntervalSince(issuedAt) <= policy.maximumIssuedAtAge + policy.clockSkew
        else { throw refuse("was issued at an unacceptable time ('iat')") }
        if let expiry = claims["exp"], expiry != .null {
            guard let date = expiry.timestampValue, date.timeIntervalSince(now) > -policy.clockSkew else { throw refuse("has expired") }
        }
    }
}
