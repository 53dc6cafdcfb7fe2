public import AuthCore
import Foundation

extension NativeSSOFamily {
    /// Signs `client`'s app in with the family's shared sign-in, with no browser (OpenID Connect Native SSO for Mobile
    /// Apps 1.0 §4): a token exchange that presents the shared ID token (`subject_token`, type
    /// `urn:ietf:params:oauth:token-type:id_token`) and device secret (`actor_token`, type
    /// `urn:x-oath:params:oauth:token-type:device-secret`), `audience` the issuer (§4.1). The answer's ID token is
    /// verified in full but for the nonce and must name the shared sign-in's user; then the identity gate, as for any
    /// sign-in.
    ///
    /// - Parameters:
    ///   - client: the app's own client (its own client id, registered for the same family at the provider).
    ///   - scopes: the scopes to ask for; the client's configured scopes by default.
    /// - Throws: `no_shared_sign_in`; `foreign_device_secret` for a shared sign-in of another family or issuer
    ///   (nothing is sent); `missing_issued_token_type`, `issued_token_type_mismatch`; `subject_mismatch` for tokens
    ///   of another user; the ID token checks; `invalid_grant` when the provider no longer accepts the device secret
    ///   (its session ended). Nothing is stored when any check fails.
    public func signIn(with client: AuthClient, scopes: [String]? = nil) async throws -> Session {
        try await client.grantSignIn {
            let metadata = try await client.metadata()
            guard let record = try await storage.credential(for: key(issuer: metadata.issuer)) else {
                throw AuthError(
                    .noSharedSignIn, "The app family '\(name)' has no shared sign-in at this issuer; sign in with a browser (with the device_sso scope) first.")
            }
            guard record.providerID == "native-sso", record.issuer == metadata.issuer, record.clientID == name,
                record.annotations?["native_sso_family"] == name, let idToken = record.idToken
            else {
                throw AuthError(
                    .foreignDeviceSecret,
                    "The shared store's device secret belongs to another app family or issuer than '\(name)' at \(metadata.issuer); nothing was sent or stored.")
            }
            let deviceSecret = record.deviceSecret ?? record.accessToken
            let requested = scopes ?? client.provider.client.scopes
            let dpopKey = try client.newDPoPKey(for: metadata)
            // Native SSO §4.1: audience is the issuer; no requested_token_type (an access token, with an ID token and
            // a refresh token as the server grants them, §4.4).
            let form: [(String, String)] = [
                ("grant_type", AuthClient.tokenExchangeGrantType), ("audience", metadata.issuer),
                ("subject_token", idToken.reveal()), ("subject_token_type", TokenExchangeTokenType.idToken.rawValue),
                ("actor_token", deviceSecret.reveal()), ("actor_token_type", TokenExchangeTokenType.deviceSecret.rawValue),
                ("scope", requested.joined(separator: " "))
            ]
            client.log(.debug, "native_sso.exchange", "Signing in with the app family's shared sign-in (token exchange).", ["family": name])
            let members = try await client.postTokenRequest(form, metadata: metadata, dpopKey: dpopKey)
            guard let issued = members["issued_token_type"]?.stringValue, !issued.isEmpty else {
                throw AuthError(.missingIssuedTokenType, "The Native SSO token exchange answer has no 'issued_token_type' (RFC 8693 §2.2.1); nothing was stored.")
            }
            guard issued == TokenExchangeTokenType.accessToken.rawValue else {
                throw AuthError(
                    .issuedTokenTypeMismatch,
                    "The Native SSO token exchange answer issued '\(ProviderText.sanitized(issued, limit: 120))', not an access token; nothing was stored.")
            }
            let tokens = try client.tokenResponse(from: members, dpopKey: dpopKey)
            // The user must be the shared sign-in's (read before the gate verifies the ID token in full and stores).
            if let subject = record.subject, let newID = tokens.idToken, let jws = try? CompactJWS(parsing: newID.reveal()),
                let claims = try? JSONValue.parseObject(jws.payload), claims["sub"]?.stringValue != subject
            {
                throw AuthError(.subjectMismatch, "The Native SSO sign-in's ID token names another user than the family's shared sign-in; nothing was stored.")
            }
            let session = try await client.admitGrantedTokens(
                tokens, grant: .tokenExchange, metadata: metadata, dpopKey: dpopKey, openIDRequested: requested.contains("openid"),
                completion: "Signed in with the app family's shared sign-in (Native SSO), without a browser.")
            // A new device secret (checked against the new ID token's ds_hash by the gate) replaces the shared one.
            if await session.credential.deviceSecret != nil { try await share(session) }
            return session
        }
    }
}
