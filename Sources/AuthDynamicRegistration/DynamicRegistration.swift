public import AuthCore
public import Foundation

/// A client registered with an issuer (RFC 7591 §3.2.1): what the provider assigned, the secrets to read and update
/// the registration (RFC 7592), and what was registered — checked against what was asked.
///
/// `Codable`, to be kept beside the credential; its secrets are `Secret` values, which print as
/// `<redacted>` and encode as their plain value (storage must keep them).
public struct DynamicRegistration: Sendable, Hashable, Codable {
    /// The issuer the client is registered with.
    public var issuer: String
    /// The assigned `client_id`.
    public var clientID: String
    /// The `client_secret`, for a confidential client.
    public var clientSecret: Secret?
    /// When the secret expires (`client_secret_expires_at`); `nil` when it never does.
    public var clientSecretExpiresAt: Date?
    /// The `registration_access_token` that reads and updates the registration (RFC 7592).
    public var registrationAccessToken: Secret?
    /// The `registration_client_uri`, the registration's own URL (RFC 7592).
    public var registrationClientURI: URL?
    /// What was registered (the request the answer was checked against).
    public var request: RegistrationRequest

    /// Creates a registration (from storage, or for tests).
    public init(
        issuer: String,
        clientID: String,
        clientSecret: Secret? = nil,
        clientSecretExpiresAt: Date? = nil,
        registrationAccessToken: Secret? = nil,
        registrationClientURI: URL? = nil,
        request: RegistrationRequest
    ) {
        self.issuer = issuer
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.clientSecretExpiresAt = clientSecretExpiresAt
        self.registrationAccessToken = registrationAccessToken
        self.registrationClientURI = registrationClientURI
        self.request = request
    }

    /// The client registration to build a provider with: the first redirect URI, the registered scopes and method.
    ///
    /// - Parameters:
    ///   - signingKey: the private key for `private_key_jwt` (whose public half was registered).
    ///   - dpop: whether tokens are bound to a DPoP key.
    ///   - decryptionKeys: the private keys whose public halves were registered for encrypted responses.
    public func clientRegistration(signingKey: ClientSigningKey? = nil, dpop: DPoPUsage = .whenAdvertised, decryptionKeys: [ClientDecryptionKey] = []) -> ClientRegistration {
        var client = ClientRegistration(
            clientID: clientID, clientSecret: clientSecret, redirectURI: request.redirectURIs[0], scopes: request.scopes,
            authenticationMethod: request.authenticationMethod, signingKey: signingKey, dpop: dpop
        )
        client.decryptionKeys = decryptionKeys
        client.idTokenEncryption = request.idTokenEncryption
        client.userInfoEncryption = request.userInfoEncryption
        client.userInfoSigningAlgorithm = request.userInfoSigningAlgorithm
        return client
    }

    /// The `oidc` provider's configuration for this client: `issuer`, `client_id`, `client_secret`, `redirect_uri`,
    /// `scope` and `token_endpoint_auth_method`, with `extra` keys added.
    public func providerConfiguration(adding extra: [String: JSONValue] = [:]) -> ProviderConfiguration {
        var values: [String: JSONValue] = [
            "issuer": .string(issuer), "client_id": .string(clientID), "redirect_uri": .string(request.redirectURIs[0].absoluteString),
            "scope": .string(request.scopes.joined(separator: " ")), "token_endpoint_auth_method": .string(request.authenticationMethod.rawValue)
        ]
        if let clientSecret { values["client_secret"] = .string(clientSecret.reveal()) }
        // What was registered for signed and encrypted responses becomes what the engine requires of them.
        if let encryption = request.idTokenEncryption {
            values["id_token_encrypted_response_alg"] = .string(encryption.algorithm)
            values["id_token_encrypted_response_enc"] = .string(encryption.contentEncryption)
        }
        if let encryption = request.userInfoEncryption {
            values["userinfo_encrypted_response_alg"] = .string(encryption.algorithm)
            values["userinfo_encrypted_response_enc"] = .string(encryption.contentEncryption)
        }
        if let algorithm = request.userInfoSigningAlgorithm { values["userinfo_signed_response_alg"] = .string(algorithm.rawValue) }
        values.merge(extra) { _, added in added }
        return ProviderConfiguration(values)
    }
}
