public import AuthCore
public import Foundation

/// What a client asks an issuer's `registration_endpoint` to register (OpenID Connect Dynamic Client Registration 1.0
/// §2, RFC 7591 §2): a code-flow client with PKCE, its redirect URIs and how it authenticates at the token endpoint.
///
/// Every field that matters for security is checked against the answer: a provider that registers something else
/// (other redirect URIs, another authentication method, other grant or response types) is refused.
public struct RegistrationRequest: Sendable, Hashable {
    /// The OpenID Connect `application_type`.
    public enum ApplicationType: String, Sendable, Hashable, Codable {
        /// An app on the user's device: custom-scheme or loopback `http` redirect URIs.
        case native
        /// A web application: `https` redirect URIs (the default of the specification).
        case web
    }

    /// `native` or `web`.
    public var applicationType: ApplicationType
    /// The redirect URIs to register, each exactly as the client will send it.
    public var redirectURIs: [URL]
    /// `token_endpoint_auth_method`: `none` for a public client.
    public var authenticationMethod: ClientRegistration.AuthenticationMethod
    /// The client's public keys (a JWK Set) for `private_key_jwt` and for encrypted responses (`use: enc`); never a
    /// private key.
    public var jwks: [String: JSONValue]?
    /// The scopes the client will ask for (sent as `scope`).
    public var scopes: [String]
    /// The grant types: `authorization_code`, with `refresh_token` when the client refreshes.
    public var grantTypes: [String]
    /// The response types: `code` (the engine always adds PKCE).
    public var responseTypes: [String]
    /// A human-readable name, shown on the consent page.
    public var clientName: String?
    /// E-mail addresses of the people responsible for the client (`contacts`; some providers require one).
    public var contacts: [String]
    /// `id_token_encrypted_response_alg` / `_enc`: ID tokens encrypted to a key in ``jwks`` (or, for `A128KW` /
    /// `A256KW`, with a key derived from the client secret). Set after `init`.
    public var idTokenEncryption: ResponseEncryption? = nil
    /// `userinfo_encrypted_response_alg` / `_enc`: user info answers encrypted likewise. Set after `init`.
    public var userInfoEncryption: ResponseEncryption? = nil
    /// `userinfo_signed_response_alg`: user info answers signed by the issuer with this algorithm. Set after `init`.
    public var userInfoSigningAlgorithm: JWSAlgorithm? = nil

    /// Creates a request for a code-flow client.
    ///
    /// - Parameters:
    ///   - applicationType: `native` (the default) or `web`.
    ///   - redirectURIs: the redirect URIs.
    ///   - authenticationMethod: `none` (a public client, the default) or one of the confidential methods.
    ///   - jwks: the public JWK Set for `private_key_jwt`.
    ///   - scopes: the scopes, `openid` by default.
    ///   - grantTypes: `authorization_code` and `refresh_token` by default.
    ///   - clientName: the name to show.
    ///   - contacts: the people responsible for the client.
    public init(
        applicationType: ApplicationType = .native,
        redirectURIs: [URL],
        authenticationMethod: ClientRegistration.AuthenticationMethod = .none,
        jwks: [String: JSONValue]? = nil,
        scopes: [String] = ["openid"],
        grantTypes: [String] = ["authorization_code", "refresh_token"],
        clientName: String? = nil,
        contacts: [String] = []
    ) {
        self.applicationType = applicationType
        self.redirectURIs = redirectURIs
        self.authenticationMethod = authenticationMethod
        self.jwks = jwks
        self.scopes = scopes
        self.grantTypes = grantTypes
        self.responseTypes = ["code"]
        self.clientName = clientName
        self.contacts = contacts
    }

    /// The JSON body (RFC 7591 §3.1).
    ///
    /// - Throws: `invalid_configuration` for no redirect URI, or `private_key_jwt` without `jwks`.
    func metadata() throws -> [String: JSONValue] {
        guard !redirectURIs.isEmpty else {
            throw AuthError(.invalidConfiguration, "A registration needs at least one redirect URI.", configurationKey: "redirect_uris")
        }
        var object: [String: JSONValue] = [
            "application_type": .string(applicationType.rawValue),
            "redirect_uris": .array(redirectURIs.map { .string($0.absoluteString) }),
            "token_endpoint_auth_method": .string(authenticationMethod.rawValue),
            "grant_types": .array(grantTypes.map { .string($0) }),
            "response_types": .array(responseTypes.map { .string($0) }),
            "scope": .string(scopes.joined(separator: " "))
        ]
        if authenticationMethod == .privateKeyJWT {
            guard let jwks, case .array(let keys)? = jwks["keys"], !keys.isEmpty else {
                throw AuthError(.invalidConfiguration, "private_key_jwt needs the client's public keys (jwks) in the registration.", configurationKey: "jwks")
            }
        }
        if let jwks { object["jwks"] = .object(jwks) }
        // OpenID Connect Dynamic Client Registration §2: the signed and encrypted response metadata.
        if let idTokenEncryption {
            object["id_token_encrypted_response_alg"] = .string(idTokenEncryption.algorithm)
            object["id_token_encrypted_response_enc"] = .string(idTokenEncryption.contentEncryption)
        }
        if let userInfoEncryption {
            object["userinfo_encrypted_response_alg"] = .string(userInfoEncryption.algorithm)
            object["userinfo_encrypted_response_enc"] = .string(userInfoEncryption.contentEncryption)
        }
        if let userInfoSigningAlgorithm { object["userinfo_signed_response_alg"] = .string(userInfoSigningAlgorithm.rawValue) }
        if let clientName { object["client_name"] = .string(clientName) }
        if !contacts.isEmpty { object["contacts"] = .array(contacts.map { .string($0) }) }
        return object
    }
}
