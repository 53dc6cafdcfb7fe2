import Foundation

extension AuthClient {
    /// The provider's endpoints, loaded once and cached.
    ///
    /// For discovery, the document's `issuer` must name the configured issuer under the provider's
    /// `IDTokenPolicy/issuerComparison` (exactly, by default; also an `IDTokenPolicy/alternativeIssuers` spelling, or the
    /// policy's issuer template, for AuthMicrosoft's multi-tenant endpoints), and every endpoint must use `https` unless its host
    /// is a loopback address.
    ///
    /// - Throws: `discovery_failed`, `discovery_issuer_mismatch`, `insecure_endpoint`, or a transport error.
    public func metadata() async throws -> ProviderMetadata {
        switch provider.endpointSource {
        case .fixed(let fixed):
            return try prepared(fixed)
        case .discovery(let issuer):
            try issuer.requireSecureEndpoint("issuer", providerID: provider.id)
            let http = providerHTTP
            return try await metadataCache.metadata(for: issuer.absoluteString) { [self] in
                try prepared(try await Self.discover(issuer: issuer, http: http, policy: provider.idTokenPolicy))
            }
        case .custom(let cacheKey, let load):
            let transport = transport
            return try await metadataCache.metadata(for: cacheKey) { [self] in
                try prepared(try await load(transport))
            }
        }
    }

    /// The metadata as this client uses it: completed by the provider, the RFC 8705 aliases for a client that
    /// authenticates with its TLS certificate, and every endpoint checked.
    private func prepared(_ loaded: ProviderMetadata) throws -> ProviderMetadata {
        var metadata = provider.completedMetadata(loaded)
        if provider.client.usesMutualTLS {
            do { metadata = try metadata.usingMutualTLSAliases() } catch let error as AuthError { throw error.attributed(to: provider.id) }
        }
        try checkEndpointsAreSecure(metadata)
        return metadata
    }

    /// Loads `issuer`'s discovery document through `http` and checks that it names `issuer` under `policy`.
    static func discover(issuer: URL, http: ProviderHTTPClient, policy: IDTokenPolicy = .standard) async throws -> ProviderMetadata {
        // OpenID Connect Discovery §4: append the well-known path to the issuer, keeping any path it has.
        let base = issuer.absoluteString.trimmingSuffix("/")
        guard let url = URL(string: base + "/.well-known/openid-configuration") else {
            throw AuthError(.invalidConfiguration, "The issuer '\(issuer)' is not a valid URL.", providerID: http.providerID)
        }
        let data: Data
        do {
            data = try await http.get(url, endpoint: "discovery")
        } catch let error as AuthError where error.code == .httpError {
            throw AuthError(
                .discoveryFailed,
                "The discovery document at \(url.absoluteString) could not be loaded (HTTP \(error.httpStatus ?? 0)); check the issuer URL.",
                providerID: http.providerID,
                httpStatus: error.httpStatus
            )
        }
        let document = try http.decodeObject(data, what: "discovery document")
        var metadata: ProviderMetadata
        do {
            metadata = try ProviderMetadata(document: document)
        } catch let error as AuthError {
            throw error.attributed(to: http.providerID)
        }
        guard policy.discoveryIssuerMatches(metadata.issuer, expected: issuer.absoluteString) else {
            throw AuthError(
                .discoveryIssuerMismatch,
                "The discovery document names the issuer '\(metadata.issuer)', not '\(issuer.absoluteString)'.",
                providerID: http.providerID
            )
        }
        // Sessions are stored under the configured spelling, so a tolerated trailing `/` in the document never
        // moves them to another storage key (restoring looks them up under the configured issuer).
        metadata.issuer = issuer.absoluteString
        return metadata
    }

    /// Every endpoint the metadata names must be `https`, or `http` on a loopback IP literal (see
    /// `URL.isSecureEndpoint`); checked before any of them is called or opened.
    func checkEndpointsAreSecure(_ metadata: ProviderMetadata) throws {
        for endpoint in metadata.allEndpoints {
            try endpoint.requireSecureEndpoint("endpoint", providerID: provider.id)
        }
    }
}
