package import AuthCore
import Foundation

extension AuthClient {
    /// The `grant_type` of OAuth 2.0 Token Exchange (RFC 8693 §2.1).
    static let tokenExchangeGrantType = "urn:ietf:params:oauth:grant-type:token-exchange"

    /// Exchanges `subjectToken` for the token `request` asks for (RFC 8693 §2.1) and checks the answer (§2.2.1):
    /// what `Session.exchangeToken(_:)` does with one of the session's tokens.
    ///
    /// - Parameters:
    ///   - request: the audience, resources, scope and token type to ask for, and the actor.
    ///   - subjectToken: the token exchanged (`subject_token`).
    ///   - subjectTokenType: its type (`subject_token_type`, RFC 8693 §3).
    ///   - dpopKey: the key to prove possession of: each attempt carries a proof, and a `DPoP` token comes back bound to
    ///     it (RFC 9449 §5); `nil` for bearer tokens.
    /// - Throws: as `Session.exchangeToken(_:)`.
    package func exchangeToken(
        _ request: TokenExchangeRequest, subjectToken: Secret, subjectTokenType: TokenExchangeTokenType, dpopKey: DPoPKey? = nil
    ) async throws -> ExchangedToken {
        do {
            guard (request.actorToken == nil) == (request.actorTokenType == nil) else {
                throw AuthError(.invalidConfiguration, "A token exchange's actor token needs its actor_token_type (RFC 8693 §2.1), and the type its token.")
            }
            let metadata = try await metadata()
            var form: [(String, String)] = [("grant_type", Self.tokenExchangeGrantType)]
            form += request.resources.map { ("resource", $0.absoluteString) }
            form += request.audience.map { ("audience", $0) }
            if let scopes = request.scopes { form.append(("scope", scopes.joined(separator: " "))) }
            if let type = request.requestedTokenType { form.append(("requested_token_type", type.rawValue)) }
            form += [("subject_token", subjectToken.reveal()), ("subject_token_type", subjectTokenType.rawValue)]
            if let actor = request.actorToken, let type = request.actorTokenType {
                form += [("actor_token", actor.reveal()), ("actor_token_type", type.rawValue)]
            }
            log(
                .debug, "exchange.request", "Exchanging a token (RFC 8693).",
                ["subject_token_type": subjectTokenType.rawValue, "requested_token_type": request.requestedTokenType?.rawValue ?? "none"])
            let members = try await postTokenRequest(form, metadata: metadata, dpopKey: dpopKey)
            let token = try exchangedToken(from: members, request: request, dpopKey: dpopKey)
            log(
                .info, "exchange.completed", "A token exchange issued a token.",
                ["issued_token_type": token.issuedTokenType.rawValue, "token_type": token.tokenType])
            return token
        } catch let error as AuthError {
            let attributed = error.attributed(to: provider.id)
            log(.notice, "exchange.failed", attributed.message, ["code": attributed.code.rawValue])
            throw attributed
        }
    }

    /// Checks a token exchange answer (RFC 8693 §2.2.1) against what was asked.
    ///
    /// - Throws: `invalid_response` without an `access_token` or with a malformed `expires_in`;
    ///   `missing_issued_token_type`; `issued_token_type_mismatch` for another type than `requested_token_type`;
    ///   `unsupported_token_type` for a `token_type` other than `Bearer`, `DPoP` and `N_A`, or `DPoP` without a key;
    ///   `dpop_not_bound` for a bearer access token where a proof was sent; `exchange_audience_mismatch`.
    func exchangedToken(from members: [String: JSONValue], request: TokenExchangeRequest, dpopKey: DPoPKey?) throws -> ExchangedToken {
        guard let token = members["access_token"]?.stringValue, !token.isEmpty else {
            throw AuthError(.invalidResponse, "The token exchange answer has no 'access_token' (RFC 8693 §2.2.1).")
        }
        // RFC 8693 §2.2.1: issued_token_type is REQUIRED; it tells what `access_token` holds.
        guard let issuedText = members["issued_token_type"]?.stringValue, !issuedText.isEmpty else {
            throw AuthError(.missingIssuedTokenType, "The token exchange answer has no 'issued_token_type', which RFC 8693 §2.2.1 requires; nothing was kept.")
        }
        let issued = TokenExchangeTokenType(rawValue: issuedText)
        if let requested = request.requestedTokenType, issued != requested {
            throw AuthError(
                .issuedTokenTypeMismatch,
                "The token exchange answer issued '\(ProviderText.sanitized(issuedText, limit: 120))' where '\(requested.rawValue)' was asked for (RFC 8693 §2.1); nothing was kept."
            )
        }
        // RFC 8693 §2.2.1: `N_A` when the issued token is not an access token; else an access token's type (RFC 6749
        // §7.1), `DPoP` for one bound to the proof's key (RFC 9449 §5).
        let tokenType: String
        switch members["token_type"]?.stringValue?.lowercased() {
        case "bearer"?: tokenType = "Bearer"
        case "dpop"?: tokenType = "DPoP"
        case "n_a"?: tokenType = "N_A"
        case nil: throw AuthError(.invalidResponse, "The token exchange answer has no 'token_type' (RFC 8693 §2.2.1).")
        case let other?:
            throw AuthError(.unsupportedTokenType, "The token exchange answer's token type '\(ProviderText.sanitized(other, limit: 40))' is not Bearer, DPoP or N_A.")
        }
        if tokenType == "DPoP", dpopKey == nil {
            throw AuthError(.unsupportedTokenType, "The token exchange issued a DPoP-bound token though no DPoP proof was sent; it cannot be used.")
        }
        if tokenType == "Bearer", dpopKey != nil {
            throw AuthError(
                .dpopNotBound,
                "The token exchange issued a bearer token though this client sent a DPoP proof (RFC 9449 §5); a bearer token works for anyone who copies it, so it was not kept."
            )
        }
        try checkAudience(of: token, members: members, asked: request.audience)
        var expiresAt: Date?
        if let value = members["expires_in"], value != .null {
            guard let seconds = value.lifetimeValue else {
                throw AuthError(.invalidResponse, "The token exchange answer's 'expires_in' is not a non-negative number of seconds.")
            }
            expiresAt = clock.now().addingTimeInterval(seconds)
        }
        let scopes = members["scope"]?.stringValue.map { $0.split(separator: " ").map(String.init) } ?? request.scopes
        return ExchangedToken(
            token: Secret(token), issuedTokenType: issued, tokenType: tokenType, expiresAt: expiresAt, scopes: scopes, request: request,
            dpopKey: tokenType == "DPoP" ? dpopKey : nil)
    }

    /// Refuses a token for another audience than asked (RFC 8693 §2.1): the answer's own `audience` (or `aud`) when it
    /// names one, and the issued token's `aud` claim when it is a JWT. Nothing is checked without an audience asked
    /// for, or for an opaque token the answer says nothing about: only the resource server can read those.
    private func checkAudience(of token: String, members: [String: JSONValue], asked: [String]) throws {
        guard !asked.isEmpty else { return }
        func names(_ value: JSONValue?) -> [String]? {
            guard let value else { return nil }
            if let one = value.stringValue { return [one] }
            return value.arrayValue?.compactMap(\.stringValue)
        }
        var stated: [(String, [String])] = []
        if let said = names(members["audience"] ?? members["aud"]) { stated.append(("the answer's 'audience'", said)) }
        if let jws = try? CompactJWS(parsing: token), let claims = try? JSONValue.parseObject(jws.payload), let aud = names(claims["aud"]) {
            stated.append(("the issued JWT's 'aud'", aud))
        }
        for (source, audiences) in stated where Set(audiences).isDisjoint(with: asked) {
            throw AuthError(
                .exchangeAudienceMismatch,
                "The token exchange answer is for another audience than asked: \(source) names none of \(asked.joined(separator: ", ")); nothing was kept.")
        }
    }
}
