import AuthCore
import Foundation

extension DynamicRegistration {
    /// The registration an answer describes (RFC 7591 §3.2.1, RFC 7592 §3), refused when it is not what was asked.
    ///
    /// RFC 7591 §3.2.1: the server returns every registered metadata value, and may replace a requested one; a client
    /// must then check what it got. Absent values take their defaults (RFC 7591 §2: `client_secret_basic`,
    /// `authorization_code`, `code`; OpenID Connect Dynamic Client Registration §2: `web`), so a provider that drops
    /// `token_endpoint_auth_method` for a public client has made it confidential.
    ///
    /// - Parameters:
    ///   - answer: the endpoint's JSON object.
    ///   - asked: what the client asked to register.
    ///   - issuer: the issuer.
    ///   - now: the time to compare `client_secret_expires_at` with.
    ///   - previous: the stored registration, when reading or updating one: the client id must stay, and its
    ///     registration access token and URI stay unless the answer brings new ones.
    /// - Throws: the `registration_*` codes, each for its own mismatch.
    static func checked(
        _ answer: [String: JSONValue], asked: RegistrationRequest, issuer: String, now: Date, previous: DynamicRegistration? = nil
    ) throws -> DynamicRegistration {
        guard let clientID = answer["client_id"]?.stringValue, !clientID.isEmpty else {
            throw AuthError(.registrationMissingClientID, "The registration answer has no client_id; nothing was registered.")
        }
        if let previous, previous.clientID != clientID {
            throw AuthError(.registrationMissingClientID, "The registration answer names another client_id than the registered client's.")
        }
        let redirects = Set((answer["redirect_uris"]?.arrayValue ?? []).compactMap(\.stringValue))
        guard redirects == Set(asked.redirectURIs.map(\.absoluteString)) else {
            throw AuthError(.registrationRedirectMismatch, "The provider registered other redirect URIs than the ones asked for.")
        }
        let type = answer["application_type"]?.stringValue ?? RegistrationRequest.ApplicationType.web.rawValue
        guard type == asked.applicationType.rawValue else {
            throw AuthError(.registrationApplicationTypeChanged, "The provider registered the application type '\(type)', not '\(asked.applicationType.rawValue)'.")
        }
        let method = answer["token_endpoint_auth_method"]?.stringValue ?? ClientRegistration.AuthenticationMethod.clientSecretBasic.rawValue
        if method != asked.authenticationMethod.rawValue {
            let publicAsked = asked.authenticationMethod == .none
            guard publicAsked == (method == "none") else {
                throw AuthError(
                    .registrationClientTypeChanged,
                    publicAsked
                        ? "The provider registered a confidential client (\(method)) where a public one (none) was asked for."
                        : "The provider registered a public client (none) where \(asked.authenticationMethod.rawValue) was asked for."
                )
            }
            throw AuthError(.registrationAuthMethodChanged, "The provider registered the authentication method '\(method)', not '\(asked.authenticationMethod.rawValue)'.")
        }
        let grants = answer["grant_types"]?.arrayValue?.compactMap(\.stringValue) ?? ["authorization_code"]
        guard Set(grants) == Set(asked.grantTypes) else {
            throw AuthError(.registrationGrantTypesChanged, "The provider registered the grant types \(grants.sorted()), not \(asked.grantTypes.sorted()).")
        }
        let responses = answer["response_types"]?.arrayValue?.compactMap(\.stringValue) ?? ["code"]
        guard Set(responses) == Set(asked.responseTypes) else {
            throw AuthError(.registrationResponseTypesChanged, "The provider registered the response types \(responses.sorted()), not \(asked.responseTypes.sorted()).")
        }
        // OpenID Connect Dynamic Client Registration §2: an answer may leave a value out (the engine then refuses a
        // response in the clear with unencrypted_response), but one that names another algorithm is refused here.
        let protection: [(String, String?)] = [
            ("id_token_encrypted_response_alg", asked.idTokenEncryption?.algorithm), ("id_token_encrypted_response_enc", asked.idTokenEncryption?.contentEncryption),
            ("userinfo_encrypted_response_alg", asked.userInfoEncryption?.algorithm), ("userinfo_encrypted_response_enc", asked.userInfoEncryption?.contentEncryption),
            ("userinfo_signed_response_alg", asked.userInfoSigningAlgorithm?.rawValue)
        ]
        for (name, value) in protection {
            guard let value, let registered = answer[name], registered != .null else { continue }
            guard registered.stringValue == value else {
                throw AuthError(.registrationResponseProtectionChanged, "The provider registered \(name) '\(registered.stringValue ?? "?")', not '\(value)'.")
            }
        }
        try checkPKCE(answer)
        // A public client keeps no secret, even one the provider sent: it authenticates with none.
        let sent = answer["client_secret"]?.stringValue.flatMap { $0.isEmpty ? nil : Secret($0) } ?? (previous?.clientSecret)
        let secret = asked.authenticationMethod == .none ? nil : sent
        if [.clientSecretBasic, .clientSecretPost].contains(asked.authenticationMethod), secret == nil {
            throw AuthError(.registrationMissingClientSecret, "The provider registered a client that authenticates with a secret and sent no client_secret.")
        }
        var expiry: Date?
        if let seconds = answer["client_secret_expires_at"]?.numberValue, seconds != 0 {
            expiry = Date(timeIntervalSince1970: seconds)
        } else if answer["client_secret"] == nil {
            expiry = previous?.clientSecretExpiresAt
        }
        if secret != nil, let expiry, expiry <= now {
            throw AuthError(.registrationSecretExpired, "The client_secret the provider issued expired at \(expiry); nothing was registered.")
        }
        var registrationURI = previous?.registrationClientURI
        if let text = answer["registration_client_uri"]?.stringValue {
            guard let url = URL(string: text) else {
                throw AuthError(.invalidResponse, "The registration_client_uri is not a URL.", endpoint: "registration_client_uri")
            }
            try url.requireSecureEndpoint("registration_client_uri")
            registrationURI = url
        }
        let token = answer["registration_access_token"]?.stringValue.flatMap { $0.isEmpty ? nil : Secret($0) } ?? previous?.registrationAccessToken
        return DynamicRegistration(
            issuer: issuer, clientID: clientID, clientSecret: secret, clientSecretExpiresAt: expiry, registrationAccessToken: token,
            registrationClientURI: registrationURI, request: asked
        )
    }

    /// Refuses an answer that says the client's PKCE is not S256.
    ///
    /// RFC 7591 §3.2.1: the server "MAY reject or replace any of the client's requested metadata values … and
    /// substitute them with suitable values", and the client checks what was registered before using it. The engine
    /// sends PKCE (RFC 7636, S256) with every authorization request, and no standard metadata member turns it on or
    /// off, so an answer can drop it in two ways only: by registering response or grant types beyond `code` and
    /// `authorization_code` (a token from the authorization endpoint has no code to bind a verifier to), refused
    /// above as `registration_response_types_changed` and `registration_grant_types_changed`; or by a server's own
    /// member naming the client's challenge method, `code_challenge_method` (a string or an array, as some servers
    /// keep per-client PKCE settings), that does not include `S256`: such a server would refuse or ignore the S256
    /// challenge the engine sends, so the code would not be bound to this client. That is
    /// `registration_pkce_dropped`, and nothing is stored.
    static func checkPKCE(_ answer: [String: JSONValue]) throws {
        guard let value = answer["code_challenge_method"] else { return }
        let methods = value.stringValue.map { [$0] } ?? value.arrayValue?.compactMap(\.stringValue) ?? []
        guard methods.contains("S256") else {
            throw AuthError(
                .registrationPKCEDropped,
                "The provider registered the client with code_challenge_method \(methods.isEmpty ? "(none)" : methods.joined(separator: ", ")), without S256; nothing was registered."
            )
        }
    }
}
