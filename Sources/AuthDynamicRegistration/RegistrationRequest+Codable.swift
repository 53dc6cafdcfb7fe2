import AuthCore
import Foundation

extension RegistrationRequest: Codable {
    private enum CodingKeys: String, CodingKey {
        case applicationType = "application_type"
        case redirectURIs = "redirect_uris"
        case authenticationMethod = "token_endpoint_auth_method"
        case jwks
        case scopes = "scope"
        case grantTypes = "grant_types"
        case responseTypes = "response_types"
        case clientName = "client_name"
        case contacts
        case idTokenEncryptionAlgorithm = "id_token_encrypted_response_alg"
        case idTokenContentEncryption = "id_token_encrypted_response_enc"
        case userInfoEncryptionAlgorithm = "userinfo_encrypted_response_alg"
        case userInfoContentEncryption = "userinfo_encrypted_response_enc"
        case userInfoSigningAlgorithm = "userinfo_signed_response_alg"
    }

    /// Decodes a request as ``encode(to:)`` wrote it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let method = try container.decode(String.self, forKey: .authenticationMethod)
        guard let authenticationMethod = ClientRegistration.AuthenticationMethod(rawValue: method) else {
            throw DecodingError.dataCorruptedError(forKey: .authenticationMethod, in: container, debugDescription: "unknown method")
        }
        self.init(
            applicationType: try container.decode(ApplicationType.self, forKey: .applicationType),
            redirectURIs: try container.decode([URL].self, forKey: .redirectURIs),
            authenticationMethod: authenticationMethod,
            jwks: try container.decodeIfPresent([String: JSONValue].self, forKey: .jwks),
            scopes: try container.decode([String].self, forKey: .scopes),
            grantTypes: try container.decode([String].self, forKey: .grantTypes),
            clientName: try container.decodeIfPresent(String.self, forKey: .clientName),
            contacts: try container.decodeIfPresent([String].self, forKey: .contacts) ?? []
        )
        responseTypes = try container.decode([String].self, forKey: .responseTypes)
        if let algorithm = try container.decodeIfPresent(String.self, forKey: .idTokenEncryptionAlgorithm) {
            idTokenEncryption = ResponseEncryption(algorithm: algorithm, contentEncryption: try container.decode(String.self, forKey: .idTokenContentEncryption))
        }
        if let algorithm = try container.decodeIfPresent(String.self, forKey: .userInfoEncryptionAlgorithm) {
            userInfoEncryption = ResponseEncryption(algorithm: algorithm, contentEncryption: try container.decode(String.self, forKey: .userInfoContentEncryption))
        }
        userInfoSigningAlgorithm = try container.decodeIfPresent(String.self, forKey: .userInfoSigningAlgorithm).flatMap(JWSAlgorithm.init(rawValue:))
    }

    /// Encodes the request's fields (public keys only: it never holds a private key).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(applicationType, forKey: .applicationType)
        try container.encode(redirectURIs, forKey: .redirectURIs)
        try container.encode(authenticationMethod.rawValue, forKey: .authenticationMethod)
        try container.encodeIfPresent(jwks, forKey: .jwks)
        try container.encode(scopes, forKey: .scopes)
        try container.encode(grantTypes, forKey: .grantTypes)
        try container.encode(responseTypes, forKey: .responseTypes)
        try container.encodeIfPresent(clientName, forKey: .clientName)
        try container.encode(contacts, forKey: .contacts)
        try container.encodeIfPresent(idTokenEncryption?.algorithm, forKey: .idTokenEncryptionAlgorithm)
        try container.encodeIfPresent(idTokenEncryption?.contentEncryption, forKey: .idTokenContentEncryption)
        try container.encodeIfPresent(userInfoEncryption?.algorithm, forKey: .userInfoEncryptionAlgorithm)
        try container.encodeIfPresent(userInfoEncryption?.contentEncryption, forKey: .userInfoContentEncryption)
        try container.encodeIfPresent(userInfoSigningAlgorithm?.rawValue, forKey: .userInfoSigningAlgorithm)
    }
}
