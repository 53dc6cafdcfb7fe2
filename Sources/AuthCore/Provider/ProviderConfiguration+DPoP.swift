extension ProviderConfiguration {
    /// The `dpop` key: `true` binds every grant's tokens to a DPoP key (RFC 9449), `false` never does, and without the
    /// key (or with `"when_advertised"`) DPoP is used when the provider's metadata offers it.
    ///
    /// - Throws: `invalid_configuration` for another value.
    package func dpopUsage(providerID: ProviderID? = nil) throws -> DPoPUsage {
        guard let value = self["dpop"] else { return .whenAdvertised }
        if let flag = value.boolValue { return flag ? .always : .never }
        if let name = value.stringValue, let usage = DPoPUsage(rawValue: name) { return usage }
        throw AuthError(
            .invalidConfiguration,
            "The configuration key 'dpop' must be true, false or \"when_advertised\".",
            providerID: providerID
        )
    }
}
