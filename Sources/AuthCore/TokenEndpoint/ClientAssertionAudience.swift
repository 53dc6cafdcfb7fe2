/// What a `private_key_jwt` client assertion names as its audience (`aud`, RFC 7523 §3). The token endpoint's URL by
/// default, which RFC 9126 §2 and RFC 7662/7009 servers accept at their other endpoints too; some providers accept
/// only their issuer identifier (as draft-ietf-oauth-rfc7523bis recommends), or only the URL of the endpoint called
/// (Glewlwyd 2.7.5). Whatever the audience, an assertion is sent only to the token endpoint's origin.
package enum ClientAssertionAudience: String, Sendable, Hashable, CaseIterable {
    /// The token endpoint's URL (the configuration key `client_assertion_audience` absent or `"token_endpoint"`).
    case tokenEndpoint = "token_endpoint"
    /// The provider's issuer identifier (`"issuer"`).
    case issuer
    /// The URL of the endpoint each assertion is sent to: token, pushed authorization, revocation, introspection
    /// (`"endpoint"`).
    case endpoint
}
