import Foundation
import HTTPTypes

/// Signed and encrypted user info answers (OpenID Connect Core §5.3.2): a JWT (`Content-Type: application/jwt`), for a
/// client that registered `userinfo_signed_response_alg` and/or `userinfo_encrypted_response_alg`.
extension AuthClient {
    /// The claims of a user info answer: JSON as it is, a JWE decrypted with the client's keys, a JWT verified like an
    /// ID token — the pinned algorithm (the registered one, else the ID token policy's), the issuer's published keys,
    /// `iss` and `aud` when present (§5.3.2: "the UserInfo Response SHOULD contain the Claims iss (issuer) and aud
    /// (audience)"). The caller checks `sub`.
    ///
    /// - Throws: `unencrypted_response`, `decryption_failed` and `unsupported_algorithm` as for ID tokens;
    ///   `unsigned_response` for a JSON or `alg: none` answer where a signed one was registered (unsigned JWTs are
    ///   refused always); `invalid_signature`, `invalid_issuer`, `invalid_audience` for a JWT that fails those checks.
    func userInfoClaims(_ data: Data, response: HTTPResponse, metadata: ProviderMetadata) async throws -> [String: JSONValue] {
        let client = provider.client
        let mediaType = response.headerFields[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard mediaType == "application/jwt" || client.userInfoEncryption != nil || client.userInfoSigningAlgorithm != nil else {
            return try providerHTTP.decodeObject(data, what: "user info response")
        }
        do {
            var text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if CompactJWE.looksEncrypted(text) {
                guard let registered = client.userInfoEncryption else {
                    throw AuthError(
                        .decryptionFailed, "The user info answer is encrypted, and this client registered for no encrypted user info (userinfo_encrypted_response_alg).")
                }
                let plaintext = try ResponseDecryption.decrypt(text, expected: registered, client: client)
                // Encrypted but not signed (only `userinfo_encrypted_response_alg` registered): JSON inside.
                if client.userInfoSigningAlgorithm == nil, plaintext.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) == UInt8(ascii: "{") {
                    return try providerHTTP.decodeObject(plaintext, what: "decrypted user info response")
                }
                text = try ResponseDecryption.signedJWT(plaintext, what: "user info answer")
            } else if let registered = client.userInfoEncryption {
                throw AuthError(
                    .unencryptedResponse,
                    "The user info answer arrived in the clear, though this client registered for user info encrypted with \(registered.algorithm)/\(registered.contentEncryption)."
                )
            }
            if text.hasPrefix("{") {
                guard let registered = client.userInfoSigningAlgorithm else { return try providerHTTP.decodeObject(data, what: "user info response") }
                throw AuthError(.unsignedResponse, "The user info answer is unsigned JSON, though this client registered for user info signed with \(registered.rawValue).")
            }
            return try await verifiedUserInfo(text, metadata: metadata)
        } catch let error as AuthError {
            throw error.attributed(to: provider.id)
        }
    }

    /// The claims of the signed user info JWT `token`, verified with the issuer's keys.
    private func verifiedUserInfo(_ token: String, metadata: ProviderMetadata) async throws -> [String: JSONValue] {
        let client = provider.client
        let jws: CompactJWS
        do {
            jws = try CompactJWS(parsing: token)
        } catch {
            throw AuthError(.invalidResponse, "The user info answer is neither JSON nor a JWT.")
        }
        guard jws.header.algorithm.lowercased() != "none" else {
            throw AuthError(.unsignedResponse, "The user info answer is an unsigned JWT (alg none); unsigned answers are refused always.")
        }
        let policy = provider.idTokenPolicy.pinned(for: client.profile)
        let algorithm = try jws.pinnedAlgorithm(
            allowed: client.userInfoSigningAlgorithm.map { [$0] } ?? policy.allowedAlgorithms, tokenKind: "user info answer")
        let key = try await idTokenVerifier.providerKey(for: jws, algorithm: algorithm, metadata: metadata, now: clock.now(), tokenKind: "signed user info answers")
        let claims = try jws.verifiedClaims(with: key, algorithm: algorithm, tokenKind: "user info answer", malformed: .invalidResponse)
        if let issuer = claims["iss"] {
            guard let claimed = issuer.stringValue, policy.tokenIssuerMatches(claimed, expected: metadata.issuer, claim: { claims[$0]?.stringValue }) else {
                throw AuthError(.invalidIssuer, "The signed user info answer's 'iss' is not the issuer '\(metadata.issuer)'.")
            }
        }
        if let audience = claims["aud"] {
            let audiences = audience.stringValue.map { [$0] } ?? audience.arrayValue?.compactMap(\.stringValue) ?? []
            guard audiences.contains(client.clientID) else {
                throw AuthError(.invalidAudience, "The signed user info answer is not issued for this client id.")
            }
        }
        return claims
    }
}
