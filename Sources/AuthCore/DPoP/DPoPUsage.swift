/// Whether a client binds its tokens to a DPoP key (RFC 9449).
public enum DPoPUsage: String, Sendable, Hashable {
    /// When the provider's metadata lists `dpop_signing_alg_values_supported` with `ES256`; otherwise bearer tokens.
    case whenAdvertised = "when_advertised"
    /// Always: every grant carries a proof, and a bearer token in answer is refused (`dpop_not_bound`). The
    /// configuration key `dpop: true`.
    case always
    /// Never: bearer tokens, even when the provider offers DPoP. The configuration key `dpop: false`.
    case never
}
