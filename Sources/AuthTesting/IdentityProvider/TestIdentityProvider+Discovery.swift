import AuthCore
import Foundation

// The discovery document (OpenID Connect Discovery 1.0) and the JWKS its `jwks_uri` names.
extension TestIdentityProvider {
    /// The discovery document: the endpoints, what the provider supports, then the quirks and the behaviour.
    func discoveryDocument() -> [String: JSONValue] {
        var document: [String: JSONValue] = [
            "issuer": .string(configuration.issuer.absoluteString),
            "authorization_endpoint": .string(endpoint(configuration.paths.authorize).absoluteString),
            "token_endpoint": .string(endpoint(configuration.paths.token).absoluteString),
            "jwks_uri": .string(endpoint(configuration.paths.jwks).absoluteString),
            "userinfo_endpoint": configuration.paths.userinfo.map { .string(endpoint($0).absoluteString) } ?? .null,
            "revocation_endpoint": .string(endpoint(configuration.paths.revoke).absoluteString),
            "introspection_endpoint": .string(endpoint(configuration.paths.introspect).absoluteString),
            "end_session_endpoint": .string(endpoint(configuration.paths.endSession).absoluteString),
            "response_types_supported": ["code"],
            // Listed only by a provider that supports DPoP and says so.
            "dpop_signing_alg_values_supported": configuration.dpop.map { settings -> JSONValue in settings.advertised ? .array(settings.algorithms.map(JSONValue.string)) : .null }
                ?? .null,
            "grant_types_supported": configuration.issuesRefreshTokens ? ["authorization_code", "refresh_token"] : ["authorization_code"],
            "code_challenge_methods_supported": ["S256"],
            "id_token_signing_alg_values_supported": .array([.string(configuration.signingAlgorithm.rawValue)]),
            "scopes_supported": ["openid", "email", "profile", "offline_access"],
            "token_endpoint_auth_methods_supported": ["none", "client_secret_basic", "client_secret_post", "private_key_jwt"],
            "authorization_response_iss_parameter_supported": .bool(behavior.advertisesIssParameter)
        ]
        if let pushed = configuration.pushedAuthorization {
            document["pushed_authorization_request_endpoint"] = .string(endpoint(configuration.paths.pushedAuthorization).absoluteString)
            document["require_pushed_authorization_requests"] = .bool(pushed.required)
        }
        if let device = configuration.paths.deviceAuthorization {
            document["device_authorization_endpoint"] = .string(endpoint(device).absoluteString)
            document["grant_types_supported"] = .array((document["grant_types_supported"]?.arrayValue ?? []) + [.string(TokenGrant.deviceCode(Secret("")).grantType)])
        }
        if let exchange = configuration.tokenExchange {
            document["grant_types_supported"] = .array((document["grant_types_supported"]?.arrayValue ?? []) + [.string(Self.tokenExchangeGrantType)])
            if !exchange.nativeSSOFamilies.isEmpty {
                // Native SSO: the `device_sso` scope and the metadata that announces it.
                document["scopes_supported"] = .array((document["scopes_supported"]?.arrayValue ?? []) + ["device_sso"])
                document["native_sso_supported"] = true
            }
        }
        document["registration_endpoint"] = configuration.paths.registration.map { .string(endpoint($0).absoluteString) }
        for name in ["dpop_signing_alg_values_supported", "userinfo_endpoint"] where document[name] == .null { document[name] = nil }
        document.merge(configuration.quirks.discoveryExtras) { _, extra in extra }
        for name in configuration.quirks.discoveryRemovals { document[name] = nil }
        document.merge(behavior.discoveryOverrides) { _, override in override }
        return document
    }

    /// The JWKS: the keys ID tokens are signed with, as the behaviour publishes them.
    func jwks(url: URL) -> (Data, HTTPResponse) {
        if let status = behavior.jwksFailureStatus { return json(["error": "unavailable"], status: status, url: url) }
        var keys = behavior.withdrawsPrimaryKeys ? [] : TestSigningKeys.primary.publicJWKs
        if behavior.publishRotatedKeys { keys += TestSigningKeys.rotated.publicJWKs }
        let headers = behavior.jwksCacheControl.map { ["Cache-Control": $0] } ?? [:]
        return json(["keys": .array(keys)], url: url, headers: headers)
    }
}
