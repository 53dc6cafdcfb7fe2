import AuthCore
import Foundation

extension TestIdentityProvider {
    /// RP-initiated logout, answered as GOV.UK's simulator does: always a 302 — to the registered
    /// `post_logout_redirect_uri` (with `state`) when the `id_token_hint` verifies and names a client that registered
    /// it, otherwise to the provider's default page, with `error_code` and `error_description` when something was wrong.
    ///
    /// GOV.UK One Login's "Log your users out of GOV.UK One Login"
    /// (docs.sign-in.service.gov.uk/integrate-with-integration-environment/log-your-users-out): `post_logout_redirect_uri`
    /// may be used only with an `id_token_hint`, must match the logout URI the service registered, and `state` comes
    /// back on the redirect to it. A registered loopback URI (`http://127.0.0.1/…`) matches on any port, as redirect
    /// URIs do (RFC 8252 §7.3): where a web sample on an ephemeral port listens.
    func endSession(_ url: URL) -> (Data, HTTPResponse) {
        let query = queryParameters(url)
        let fallback = configuration.quirks.defaultLogoutURL ?? endpoint("/signed-out")
        func redirect(_ target: URL, error: (code: String, description: String)? = nil) -> (Data, HTTPResponse) {
            var pairs: [(String, String)] = []
            if let state = query["state"] { pairs.append(("state", state)) }
            if let error { pairs += [("error_code", error.code), ("error_description", error.description)] }
            return (Data(), .make(status: 302, headers: ["Location": target.appendingQuery(pairs).absoluteString]))
        }
        guard let hint = query["id_token_hint"] else { return redirect(fallback) }
        let keys = JSONWebKeySet(
            keys: (TestSigningKeys.primary.publicJWKs + TestSigningKeys.rotated.publicJWKs).compactMap {
                $0.objectValue.flatMap { try? JSONWebKey($0) }
            })
        guard let jws = try? CompactJWS(parsing: hint), let algorithm = JWSAlgorithm(rawValue: jws.header.algorithm),
            let key = try? keys.key(id: jws.header.keyID, for: algorithm),
            key.isValidSignature(jws.signature, for: jws.signingInput, algorithm: algorithm),
            let claims = try? JSONValue.parseObject(jws.payload)
        else { return redirect(fallback, error: ("invalid_request", "unable to validate id_token_hint")) }
        // The hint's expiry is ignored: a user may sign out long after the ID token expired.
        guard let audience = claims["aud"]?.stringValue ?? claims["aud"]?.arrayValue?.first?.stringValue, claims["sub"] != nil else {
            return redirect(fallback)
        }
        guard let client = self.client(withID: audience) else {
            return redirect(fallback, error: ("unauthorized_client", "client not found"))
        }
        guard let requested = query["post_logout_redirect_uri"] else { return redirect(fallback) }
        guard let target = URL(string: requested), client.postLogoutRedirectURIs.contains(where: { Self.redirect(target, matchesRegistered: $0) }) else {
            return redirect(fallback, error: ("invalid_request", "client registry does not contain post_logout_redirect_uri"))
        }
        return redirect(target)
    }
}
