import Foundation

extension ProviderConfiguration {
    /// The client registration OpenID Connect providers read alike, so each provider states only its own keys:
    ///
    /// | key | meaning |
    /// |---|---|
    /// | `client_id` | required |
    /// | `redirect_uri` | required |
    /// | `scope` | a space-separated string or an array; `defaultScopes` when absent; `openid` put first when missing |
    /// | `client_secret` | optional; an empty string means none |
    /// | `token_endpoint_auth_method` | `client_secret_basic`, `client_secret_post`, `private_key_jwt`, `none` |
    /// | `post_logout_redirect_uri` | optional; the registered post-logout redirect URI |
    /// | `par` | `true`: push every authorization request (RFC 9126); `false`: never; absent: when the provider advertises it |
    /// | `client_assertion_audience` | `"token_endpoint"` (default), `"issuer"` or `"endpoint"`: the `aud` of `private_key_jwt` assertions |
    /// | `par_repeat` | names from `response_type`, `scope`, `redirect_uri` repeated in a pushed request's URL (``ClientRegistration/pushedRequestRepeatedParameters``) |
    /// | `profile` | `"fapi2"`: the FAPI 2.0 Security Profile (``ClientProfile/fapi2``) |
    /// | `*_encrypted_response_*`, `userinfo_signed_response_alg`, `decryption_key*` | signed and encrypted responses (``applyResponseProtection(to:providerID:)``) |
    ///
    /// - Parameters:
    ///   - defaultMethodWithSecret: the method when a secret is configured and no method is named (Microsoft's
    ///     `client_secret_post`); `nil` leaves the engine's default.
    ///   - signingKey: the client's key for `private_key_jwt`, read by ``clientSigningKey(providerID:)``.
    ///   - dpop: when tokens are DPoP-bound.
    /// - Throws: `missing_configuration_key` naming `client_id` or `redirect_uri`; `invalid_configuration` for a value
    ///   of the wrong shape; `fapi_profile_violation` naming the rule a `fapi2` client breaks.
    package func openIDClient(
        providerID: ProviderID,
        defaultScopes: [String],
        defaultMethodWithSecret: ClientRegistration.AuthenticationMethod? = nil,
        signingKey: ClientSigningKey? = nil,
        dpop: DPoPUsage = .never
    ) throws -> ClientRegistration {
        let clientID = try requiredString("client_id", providerID: providerID)
        let redirectURI = try requiredURL("redirect_uri", providerID: providerID)
        var scopes = self.scopes("scope") ?? defaultScopes
        if !scopes.contains("openid") { scopes.insert("openid", at: 0) }
        let secret = string("client_secret").flatMap { $0.isEmpty ? nil : Secret($0) }
        let method = try clientAuthenticationMethod(providerID: providerID) ?? (secret == nil ? nil : defaultMethodWithSecret)
        let postLogout = self["post_logout_redirect_uri"] == nil ? nil : try requiredURL("post_logout_redirect_uri", providerID: providerID)
        var client = ClientRegistration(
            clientID: clientID, clientSecret: secret, redirectURI: redirectURI, scopes: scopes,
            authenticationMethod: method, signingKey: signingKey, dpop: dpop,
            pushedAuthorization: try pushedAuthorizationUsage(providerID: providerID), profile: try clientProfile(providerID: providerID)
        )
        client.postLogoutRedirectURI = postLogout
        client.pushedRequestRepeatedParameters = try pushedRequestRepeatedParameters(providerID: providerID)
        client.clientAssertionAudience = try clientAssertionAudience(providerID: providerID)
        try applyResponseProtection(to: &client, providerID: providerID)
        try client.checkFAPI2Registration(providerID: providerID)
        return client
    }

    /// The `parameters` key: extra authorization parameters, a dictionary of strings (empty when absent).
    ///
    /// - Throws: `invalid_configuration` when it is present but not a dictionary of strings.
    package func authorizationParameters(providerID: ProviderID) throws -> [String: String] {
        guard self["parameters"] != nil else { return [:] }
        guard section("parameters") != nil, let parameters = stringDictionary("parameters") else {
            throw AuthError(.invalidConfiguration, "The configuration key 'parameters' must be a dictionary of strings.", providerID: providerID, configurationKey: "parameters")
        }
        return parameters
    }
}
