/// Whether a client pushes its authorization requests to the provider first (RFC 9126, PAR): the parameters go in a
/// back-channel POST, authenticated like a token request, and the browser is sent to the authorization endpoint with
/// only `client_id` and the `request_uri` the provider answered.
public enum PushedAuthorizationUsage: String, Sendable, Hashable {
    /// When the provider's metadata names a `pushed_authorization_request_endpoint`, and always when it says
    /// `require_pushed_authorization_requests`. The configuration key `par` absent or `"when_advertised"`.
    case whenAdvertised = "when_advertised"
    /// Always: a provider without a pushed authorization request endpoint cannot sign in (`endpoint_unavailable`).
    /// The configuration key `par: true`.
    case always
    /// Never, unless the provider requires it: then sign-in fails with `invalid_configuration` naming the setting.
    /// The configuration key `par: false`.
    case never
}
