public import AuthCore
import Foundation

extension GOVUKServiceConfiguration {
    /// The keys that mark a dictionary as a web service's configuration rather than an app's: a native app has no
    /// private key and no secret.
    static let serviceMarkerKeys = ["private_key", "private_key_file", "private_key_jwk", "client_secret"]

    /// Whether `configuration` describes a web service (it has `"kind": "service"`, a private key or a client
    /// secret) rather than an app using the vendor's mobile SDK.
    public static func describesService(_ configuration: ProviderConfiguration) -> Bool {
        configuration.string("kind") == "service" || serviceMarkerKeys.contains { configuration[$0] != nil }
    }

    /// Reads a service configuration from a dictionary (a JSON file, the registry).
    ///
    /// | key | required | meaning |
    /// |---|---|---|
    /// | `environment` | one of these two | `integration` or `production` (sets every URL below) |
    /// | `issuer` | | the issuer URL, trailing slash included (a simulator or an emulator) |
    /// | `client_id` | yes | the service's client id |
    /// | `private_key`, `private_key_file`, `private_key_jwk`, `private_key_alg`, `private_key_id` | one of these or `client_secret` | the service's RSA key (see `ProviderConfiguration.clientSigningKey(providerID:)`) |
    /// | `client_secret` | | `client_secret_post` (authentication-only services) |
    /// | `redirect_uri` | yes | the registered redirect URI |
    /// | `post_logout_redirect_uri` | no | the registered post-logout redirect URI |
    /// | `scope` | no | default `openid email phone` |
    /// | `vtr` | no | vectors of trust: an array or JSON array text (default `["Cl.Cm"]`) |
    /// | `ui_locales` | no | `en` or `cy` |
    /// | `claims` | no | identity claims: `coreIdentityJWT`, `address`, `passport`, `drivingPermit`, `returnCode` (or their URIs) |
    /// | `identity_issuer`, `did_url` | with `issuer` and identity | the core identity JWT's `iss` and the DID document |
    /// | `request_object` | no | send authorization requests as a signed request object |
    ///
    /// - Throws: `missing_configuration_key` or `invalid_configuration` naming the key and what to fix; never with
    ///   key material in the message.
    public init(dictionary configuration: ProviderConfiguration) throws {
        let id = GOVUKProvider.id
        let environment = try configuration.govUKEnvironment()
        let issuer: URL
        if configuration["issuer"] != nil {
            issuer = try configuration.requiredURL("issuer", providerID: id)
        } else if let environment {
            issuer = environment.issuer
        } else {
            throw AuthError(.missingConfigurationKey, "Set 'environment' (integration or production) or 'issuer' for GOV.UK One Login.", providerID: id)
        }
        let clientAuthentication: ClientAuthentication
        let method = try configuration.clientAuthenticationMethod(providerID: id)
        if let key = try configuration.clientSigningKey(providerID: id) {
            guard method == nil || method == .privateKeyJWT else {
                throw AuthError(.invalidConfiguration, "token_endpoint_auth_method must be private_key_jwt when a private key is configured.", providerID: id)
            }
            clientAuthentication = .privateKey(key)
        } else if let secret = configuration.string("client_secret"), !secret.isEmpty {
            guard method == nil || method == .clientSecretPost else {
                throw AuthError(.invalidConfiguration, "GOV.UK One Login accepts a client secret only as client_secret_post.", providerID: id)
            }
            clientAuthentication = .clientSecret(Secret(secret))
        } else {
            throw AuthError(
                .missingConfigurationKey,
                "A GOV.UK One Login service authenticates with its private key (private_key_file, private_key or private_key_jwk) or, without identity, a client_secret.",
                providerID: id
            )
        }
        let vectors = try Self.vectors(configuration["vtr"] ?? configuration["vectorsOfTrust"])
        let claims = try (configuration.scopes("claims") ?? []).map { name -> IdentityClaim in
            guard let claim = IdentityClaim(name: name) else {
                let known = IdentityClaim.allCases.map(\.shortName).joined(separator: ", ")
                throw AuthError(.invalidConfiguration, "Unknown GOV.UK identity claim '\(name)'; use \(known).", providerID: id)
            }
            return claim
        }
        let locale = try configuration.govUKLocale("ui_locales", "locale")
        let identityIssuer = configuration.string("identity_issuer") ?? environment?.identityIssuer.absoluteString
        let didURL = try configuration["did_url"] == nil ? environment?.didDocumentURL : configuration.requiredURL("did_url", providerID: id)
        let requestsIdentity = vectors.contains(where: \.requestsIdentity)
        if requestsIdentity, identityIssuer == nil || didURL == nil {
            throw AuthError(
                .missingConfigurationKey, "Identity with a custom 'issuer' needs 'identity_issuer' and 'did_url' (where the identity key is published).", providerID: id)
        }
        try self.init(
            issuer: issuer,
            clientID: try configuration.requiredString("client_id", aliases: ["clientID", "clientId"], providerID: id),
            clientAuthentication: clientAuthentication,
            redirectURI: try configuration.requiredURL("redirect_uri", aliases: ["redirectURI", "redirectUri"], providerID: id),
            postLogoutRedirectURI: configuration["post_logout_redirect_uri"] == nil ? nil : try configuration.requiredURL("post_logout_redirect_uri", providerID: id),
            scopes: configuration.scopes("scope") ?? configuration.scopes("scopes") ?? ["openid", "email", "phone"],
            vectorsOfTrust: vectors,
            locale: locale,
            identityClaims: Set(claims),
            identityIssuer: identityIssuer ?? issuer.absoluteString,
            didDocumentURL: didURL ?? issuer.appendingPathComponent(".well-known/did.json"),
            usesSignedRequestObject: configuration.bool("request_object") ?? false
        )
    }

    /// `vtr` as an array of strings, JSON array text, or one vector; default `["Cl.Cm"]`.
    private static func vectors(_ value: JSONValue?) throws -> [VectorOfTrust] {
        guard let value else { return [VectorOfTrust(.medium)] }
        var texts: [String]
        if let array = value.arrayValue {
            texts = array.compactMap(\.stringValue)
            guard texts.count == array.count else {
                throw AuthError(.invalidConfiguration, "vtr must be an array of strings such as [\"Cl.Cm.P2\"].", providerID: GOVUKProvider.id)
            }
        } else if let text = value.stringValue {
            if text.hasPrefix("[") {
                guard let parsed = try? JSONDecoder().decode([String].self, from: Data(text.utf8)) else {
                    throw AuthError(.invalidConfiguration, "vtr '\(text)' is not a JSON array of strings.", providerID: GOVUKProvider.id)
                }
                texts = parsed
            } else {
                texts = [text]
            }
        } else {
            throw AuthError(.invalidConfiguration, "vtr must be an array of strings such as [\"Cl.Cm.P2\"].", providerID: GOVUKProvider.id)
        }
        return try texts.map { try VectorOfTrust(parsing: $0) }
    }
}
