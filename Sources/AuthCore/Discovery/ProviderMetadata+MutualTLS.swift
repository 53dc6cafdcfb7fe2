import Foundation

extension ProviderMetadata {
    /// The endpoints RFC 8705 §5 names for mutual TLS, where `mtls_endpoint_aliases` has them: a provider may serve
    /// the requests that present a client certificate (token, pushed authorization, revocation, introspection, device
    /// authorization, user info) on other hosts or paths than the plain ones. A client that authenticates with its
    /// certificate uses the aliases; its certificate-bound tokens then go to the alias of user info as well. Endpoints
    /// without an alias stay as they are; the aliases are checked like every other endpoint afterwards.
    ///
    /// - Throws: `discovery_failed` naming the member when `mtls_endpoint_aliases` is not an object or an alias is not
    ///   an absolute URL.
    package func usingMutualTLSAliases() throws -> ProviderMetadata {
        guard let value = document["mtls_endpoint_aliases"], value != .null else { return self }
        guard let aliases = value.objectValue else {
            throw AuthError(.discoveryFailed, "The discovery document's 'mtls_endpoint_aliases' is not an object.", endpoint: "mtls_endpoint_aliases")
        }
        func alias(_ key: String) throws -> URL? {
            guard let entry = aliases[key], entry != .null else { return nil }
            guard let text = entry.stringValue, let url = URL(string: text), url.scheme != nil else {
                throw AuthError(
                    .discoveryFailed, "The discovery document's 'mtls_endpoint_aliases.\(key)' is not an absolute URL.",
                    endpoint: "mtls_endpoint_aliases.\(key)")
            }
            return url
        }
        var metadata = self
        metadata.tokenEndpoint = try alias("token_endpoint") ?? tokenEndpoint
        metadata.revocationEndpoint = try alias("revocation_endpoint") ?? revocationEndpoint
        metadata.introspectionEndpoint = try alias("introspection_endpoint") ?? introspectionEndpoint
        metadata.pushedAuthorizationRequestEndpoint = try alias("pushed_authorization_request_endpoint") ?? pushedAuthorizationRequestEndpoint
        metadata.deviceAuthorizationEndpoint = try alias("device_authorization_endpoint") ?? deviceAuthorizationEndpoint
        metadata.userinfoEndpoint = try alias("userinfo_endpoint") ?? userinfoEndpoint
        return metadata
    }
}
