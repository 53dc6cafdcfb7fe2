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

    /// The `par` key: `true` pushes every authorization request (RFC 9126), `false` never does unless the provider
    /// requires it (then sign-in fails naming this key), and without the key (or with `"when_advertised"`) requests are
    /// pushed when the provider's metadata names a pushed authorization request endpoint.
    ///
    /// - Throws: `invalid_configuration` for another value.
    package func pushedAuthorizationUsage(providerID: ProviderID? = nil) throws -> PushedAuthorizationUsage {
        guard let value = self["par"] else { return .whenAdvertised }
        if let flag = value.boolValue { return flag ? .always : .never }
        if let name = value.stringValue, let usage = PushedAuthorizationUsage(rawValue: name) { return usage }
        throw AuthError(
            .invalidConfiguration, "The configuration key 'par' must be true, false or \"when_advertised\".", providerID: providerID, configurationKey: "par")
    }

    /// The `par_repeat` key: the authorization parameters a pushed request's URL repeats, for a provider that applies
    /// OpenID Connect Core §6.1 to pushed requests; an array of names from `response_type`, `scope` and
    /// `redirect_uri` (empty when absent).
    ///
    /// - Throws: `invalid_configuration` for another shape or another name.
    package func pushedRequestRepeatedParameters(providerID: ProviderID? = nil) throws -> [String] {
        guard let value = self["par_repeat"] else { return [] }
        let allowed: Set<String> = ["response_type", "scope", "redirect_uri"]
        guard let names = value.arrayValue?.compactMap(\.stringValue), names.count == value.arrayValue?.count,
            names.allSatisfy(allowed.contains)
        else {
            throw AuthError(
                .invalidConfiguration,
                "The configuration key 'par_repeat' must be an array of names from response_type, scope and redirect_uri.",
                providerID: providerID, configurationKey: "par_repeat")
        }
        return names
    }

    /// The `profile` key: `"fapi2"` holds the client to the FAPI 2.0 Security Profile (``ClientProfile/fapi2``);
    /// absent or `"standard"`, no profile.
    ///
    /// - Throws: `invalid_configuration` for another value.
    package func clientProfile(providerID: ProviderID? = nil) throws -> ClientProfile {
        guard let value = self["profile"] else { return .standard }
        guard let name = value.stringValue, let profile = ClientProfile(rawValue: name) else {
            throw AuthError(
                .invalidConfiguration, "The configuration key 'profile' must be \"fapi2\" or \"standard\".", providerID: providerID, configurationKey: "profile")
        }
        return profile
    }
}
