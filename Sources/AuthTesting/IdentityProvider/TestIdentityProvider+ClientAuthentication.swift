import AuthCore
import Foundation

// Client authentication at the token, revocation, introspection and device authorization endpoints: none,
// client_secret_basic, client_secret_post, and private_key_jwt with assertion replay detection.
extension TestIdentityProvider {
    /// Authenticates the client of a token, revocation or introspection request by the method it used.
    func authenticateClient(_ request: CapturedRequest, form: [String: String]) -> Result<Client, ClientAuthenticationFailure> {
        let result = clientAuthentication(request, form: form)
        if case .failure(let failure) = result { clientAuthenticationFailures.append(failure.rawValue) }
        return result
    }

    private func clientAuthentication(_ request: CapturedRequest, form: [String: String]) -> Result<Client, ClientAuthenticationFailure> {
        let accepted = configuration.quirks.acceptedClientAuthenticationMethods
        if form["client_assertion"] != nil || form["client_assertion_type"] != nil {
            guard accepted?.contains(.privateKeyJWT) ?? true else { return .failure(.unsupportedMethod) }
            return authenticateClientAssertion(form)
        }
        if let header = request.value(forHTTPHeaderField: "Authorization"), header.hasPrefix("Basic ") {
            guard accepted?.contains(.clientSecretBasic) ?? true else { return .failure(.unsupportedMethod) }
            guard let decoded = Data(base64Encoded: String(header.dropFirst(6))).flatMap({ String(data: $0, encoding: .utf8) }) else {
                return .failure(.wrongSecret)
            }
            let parts = decoded.split(separator: ":", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
            guard parts.count == 2, let client = self.client(withID: parts[0]) else { return .failure(.unknownClient) }
            guard client.secret == parts[1] else { return .failure(.wrongSecret) }
            return .success(client)
        }
        if form["client_secret"] != nil {
            guard accepted?.contains(.clientSecretPost) ?? true else { return .failure(.unsupportedMethod) }
        } else if let accepted, !accepted.contains(.none) {
            return .failure(.noAuthentication)
        }
        guard let client = self.client(withID: form["client_id"]) else { return .failure(.unknownClient) }
        // A key-based client must use its key; a confidential one its secret.
        guard client.publicKey == nil else { return .failure(.keyClientWithoutAssertion) }
        if let secret = client.secret, form["client_secret"] != secret { return .failure(.wrongSecret) }
        return .success(client)
    }

    /// RFC 7523 §3: the assertion's signature, `iss` = `sub` = a registered key-based client, `aud` one of the accepted
    /// audiences (the token endpoint; a string, or an array of accepted values only), an unexpired `exp` no more
    /// than five minutes ahead, and a `jti` never seen before.
    private func authenticateClientAssertion(_ form: [String: String]) -> Result<Client, ClientAuthenticationFailure> {
        guard form["client_assertion_type"] == ClientAssertion.type else { return .failure(.wrongAssertionType) }
        guard let token = form["client_assertion"], let jws = try? CompactJWS(parsing: token),
            let claims = try? JSONValue.parseObject(jws.payload)
        else { return .failure(.malformedAssertion) }
        guard let issuer = claims["iss"]?.stringValue, let subject = claims["sub"]?.stringValue else { return .failure(.malformedAssertion) }
        guard let client = self.client(withID: subject), let publicKey = client.publicKey else {
            return .failure(.unknownAssertionClient)
        }
        guard form["client_id"] == nil || form["client_id"] == subject else { return .failure(.malformedAssertion) }
        let algorithms = configuration.quirks.acceptedAssertionAlgorithms
        guard let algorithm = JWSAlgorithm(rawValue: jws.header.algorithm), algorithms?.contains(algorithm) ?? true else {
            return .failure(.unsupportedAssertionAlgorithm)
        }
        let now = clock.now().timeIntervalSince1970
        guard let expiry = claims["exp"]?.numberValue else { return .failure(.malformedAssertion) }
        guard expiry > now, expiry - now <= 300 else { return .failure(.expiredAssertion) }
        var audiences = [endpoint(configuration.paths.token).absoluteString]
        if configuration.quirks.acceptsIssuerAsAssertionAudience { audiences.append(configuration.issuer.absoluteString) }
        let claimed = claims["aud"]?.stringValue.map { [$0] } ?? claims["aud"]?.arrayValue?.compactMap(\.stringValue) ?? []
        guard !claimed.isEmpty, claimed.allSatisfy(audiences.contains) else { return .failure(.wrongAudience) }
        guard issuer == subject else { return .failure(.issuerIsNotSubject) }
        guard let key = try? JSONWebKey(publicKey), key.isValidSignature(jws.signature, for: jws.signingInput, algorithm: algorithm) else {
            return .failure(.badSignature)
        }
        guard let jti = claims["jti"]?.stringValue, !jti.isEmpty, seenAssertionIDs.insert(jti).inserted else {
            return .failure(.replayedAssertion)
        }
        return .success(client)
    }

    /// The response to a failed client authentication: the provider's own mapping, or 401 `invalid_client`.
    func clientAuthenticationError(_ failure: ClientAuthenticationFailure, url: URL) -> (Data, HTTPResponse) {
        if let answer = configuration.quirks.clientAuthenticationError?(failure) {
            return oauthError(answer.error, description: answer.description, status: answer.status, url: url)
        }
        return oauthError("invalid_client", status: 401, url: url)
    }
}
