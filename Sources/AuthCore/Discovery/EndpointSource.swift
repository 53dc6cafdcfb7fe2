public import Foundation

/// Where a provider's endpoints come from.
public enum EndpointSource: Sendable {
    /// OpenID Connect discovery at `issuer/.well-known/openid-configuration`, cached per issuer; the document's
    /// `issuer` must equal this issuer exactly.
    case discovery(issuer: URL)
    /// Fixed endpoints (a provider without discovery, such as Schibsted or GOV.UK One Login).
    case fixed(ProviderMetadata)
    /// A provider-specific document (such as Grab's service discovery), loaded once and cached under `cacheKey`.
    case custom(cacheKey: String, load: @Sendable (any HTTPTransport) async throws -> ProviderMetadata)
}
