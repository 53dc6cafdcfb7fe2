package import AuthCore
package import Crypto
package import Foundation

/// Sign in with Apple's server in front of a `TestIdentityProvider`: what Apple does that a standard OpenID Connect
/// server does not, and the provider cannot express.
///
/// - The client secret JWT is checked at the token and revocation endpoints (``clientSecretProblem(_:teamKey:teamID:keyID:now:)``)
///   and a bad one answered HTTP 400 `invalid_client`, as Apple answers
///   (https://developer.apple.com/documentation/sign_in_with_apple/errorresponse).
/// - An authorization with `response_mode=form_post` is answered with an auto-submitting HTML form that POSTs the
///   response to the redirect URI (OAuth 2.0 Form Post Response Mode), adding the `user` JSON —
///   `{"name":{"firstName":…,"lastName":…},"email":…}` — on the user's first authorization only
///   (https://developer.apple.com/documentation/sign_in_with_apple/request_an_authorization_to_the_sign_in_with_apple_server).
///   All clients of the emulated team are one app group, so the first authorization is counted per user.
/// - A native app's code (issued for the device's own redirect) is redeemed without `redirect_uri`.
package final class AppleIDServer: Sendable {
    private struct State {
        /// Subjects whose first authorization has been answered (their name was posted).
        var authorized: Set<String> = []
        /// The authorization requests asking for `form_post`, by `state`.
        var formPostRequests: [String: [String: String]] = [:]
    }

    private let idp: TestIdentityProvider
    private let teamKey: P256.Signing.PublicKey
    private let teamID: String
    private let keyID: String
    private let names: @Sendable (String) -> (firstName: String, lastName: String)?
    /// Where Apple answers a native app's device; a code redeemed without `redirect_uri` by a client registered with
    /// it was issued for it.
    private let nativeRedirectURI: URL?
    private let state = LockedValue(State())

    /// Apple's limit on a client secret's `exp - iat` (six months).
    package static let maximumSecretLifetime: TimeInterval = 15_777_000

    /// Puts the server in front of `idp`; client secrets must be signed by `teamKey` under `keyID` for `teamID`;
    /// `names` gives each subject's name for the first authorization.
    package init(
        idp: TestIdentityProvider, teamKey: P256.Signing.PublicKey, teamID: String, keyID: String, nativeRedirectURI: URL? = nil,
        names: @escaping @Sendable (String) -> (firstName: String, lastName: String)?
    ) {
        self.nativeRedirectURI = nativeRedirectURI
        self.idp = idp
        self.teamKey = teamKey
        self.teamID = teamID
        self.keyID = keyID
        self.names = names
    }

    /// Answers one request: Apple's own rules first, then the identity provider.
    package func handle(_ request: CapturedRequest) async -> (Data, HTTPResponse) {
        let path = request.url?.path ?? ""
        let paths = idp.configuration.paths
        switch (request.httpMethod, path) {
        case ("GET", paths.authorize):
            if let url = request.url {
                let query = Self.parameters(URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery)
                if query["response_mode"] == "form_post", let requestState = query["state"] {
                    state.withLock { $0.formPostRequests[requestState] = query }
                }
            }
        case ("POST", paths.token), ("POST", paths.revoke):
            let form = Self.parameters(request.body.map { String(decoding: $0, as: UTF8.self) })
            if Self.clientSecretProblem(form, teamKey: teamKey, teamID: teamID, keyID: keyID, now: idp.clock.now()) != nil {
                let body = try! JSONValue.object(["error": "invalid_client"]).jsonData()
                return (body, .make(status: 400, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"]))
            }
            if path == paths.token, let native = nativeRedirect(form) {
                var forwarded = request
                var rewritten = form
                rewritten["redirect_uri"] = native.absoluteString
                forwarded.body = Data(FormEncoding.encode(rewritten).utf8)
                return await idp.handle(forwarded)
            }
        default:
            break
        }
        let (data, response) = await idp.handle(request)
        return await formPost(data, response)
    }

    /// Form-encoded `text` as a dictionary (the first of repeated names).
    private static func parameters(_ text: String?) -> [String: String] {
        Dictionary(FormEncoding.decode(text ?? ""), uniquingKeysWith: { first, _ in first })
    }

    /// The device redirect URI to add to a code exchange of a native client that sent none.
    private func nativeRedirect(_ form: [String: String]) -> URL? {
        guard form["grant_type"] == "authorization_code", form["redirect_uri"] == nil,
            let client = idp.configuration.clients.first(where: { $0.id == form["client_id"] })
        else { return nil }
        // Served over HTTP, every client also has the loopback URIs: the native one is named, not counted.
        if let nativeRedirectURI, client.redirectURIs.contains(nativeRedirectURI) { return nativeRedirectURI }
        return client.redirectURIs.count == 1 ? client.redirectURIs.first : nil
    }

    /// A redirect back to the client, answering a `form_post` request, turned into the page that posts it.
    private func formPost(_ data: Data, _ response: HTTPResponse) async -> (Data, HTTPResponse) {
        guard (300..<400).contains(response.statusCode), let location = response.value(forHTTPHeaderField: "Location"),
            let url = URL(string: location)
        else { return (data, response) }
        let parameters = Self.parameters(URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery)
        guard let requestState = parameters["state"], let query = state.withLock({ $0.formPostRequests.removeValue(forKey: requestState) }) else {
            return (data, response)
        }
        var fields = FormEncoding.decode(URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? "")
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.query = nil
        let action = components?.url?.absoluteString ?? location
        if parameters["code"] != nil, let user = await firstAuthorizationUser(scopes: (query["scope"] ?? "").split(separator: " ").map(String.init)) {
            fields.append(("user", user))
        }
        let inputs = fields.map { "<input type=\"hidden\" name=\"\(HTMLText.escape($0.0))\" value=\"\(HTMLText.escape($0.1))\">" }.joined()
        let page = """
            <!DOCTYPE html><html><head><title>Sign in with Apple</title></head><body onload="document.forms[0].submit()">\
            <form method="post" action="\(HTMLText.escape(action))">\(inputs)<noscript><button type="submit">Continue</button></noscript></form>\
            </body></html>
            """
        return (Data(page.utf8), .make(status: 200, headers: ["Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store"]))
    }

    /// The `user` JSON for the signed-in user's first authorization (the requested parts only), `nil` afterwards.
    private func firstAuthorizationUser(scopes: [String]) async -> String? {
        let user = await idp.user
        guard state.withLock({ $0.authorized.insert(user.subject).inserted }) else { return nil }
        var object: [String: JSONValue] = [:]
        if scopes.contains("name"), let name = names(user.subject) {
            object["name"] = ["firstName": .string(name.firstName), "lastName": .string(name.lastName)]
        }
        if scopes.contains("email"), let email = user.claims["email"]?.stringValue { object["email"] = .string(email) }
        guard !object.isEmpty, let data = try? JSONValue.object(object).jsonData() else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// Why `form`'s `client_secret` is not one Apple accepts for its `client_id`, or `nil` when it is: an ES256 JWS
    /// whose `kid` is `keyID`, signed by `teamKey`, with `iss` `teamID`, `sub` the `client_id`, `aud`
    /// `https://appleid.apple.com`, `iat` not in the future, `exp` in the future and at most six months after `iat`
    /// (https://developer.apple.com/documentation/sign_in_with_apple/generate_and_validate_tokens).
    package static func clientSecretProblem(_ form: [String: String], teamKey: P256.Signing.PublicKey, teamID: String, keyID: String, now: Date) -> String? {
        guard let clientID = form["client_id"], !clientID.isEmpty else { return "client_id is missing" }
        guard let secret = form["client_secret"], !secret.isEmpty else { return "client_secret is missing" }
        guard let jws = try? CompactJWS(parsing: secret), let claims = try? JSONValue.parseObject(jws.payload) else {
            return "client_secret is not a JWT"
        }
        guard jws.header.algorithm == "ES256", jws.header.keyID == keyID else { return "client_secret must be ES256 with the key's kid" }
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: jws.signature),
            teamKey.isValidSignature(signature, for: SHA256.hash(data: jws.signingInput))
        else { return "client_secret signature is invalid" }
        guard claims["iss"]?.stringValue == teamID else { return "client_secret iss is not the team id" }
        guard claims["sub"]?.stringValue == clientID else { return "client_secret sub is not the client_id" }
        let audience = claims["aud"]?.stringValue.map { [$0] } ?? claims["aud"]?.arrayValue?.compactMap(\.stringValue) ?? []
        guard audience == ["https://appleid.apple.com"] else { return "client_secret aud is not https://appleid.apple.com" }
        guard let issuedAt = claims["iat"]?.numberValue, let expiry = claims["exp"]?.numberValue else { return "client_secret lacks iat or exp" }
        let time = now.timeIntervalSince1970
        guard issuedAt <= time + 60 else { return "client_secret iat is in the future" }
        guard expiry > time else { return "client_secret has expired" }
        guard expiry - issuedAt <= maximumSecretLifetime else { return "client_secret lives longer than six months" }
        return nil
    }

    /// A client secret as a developer signs one with the team's `.p8` key `pem`, valid for one hour from `now`.
    ///
    /// - Throws: `invalid_configuration` when `pem` is not a P-256 private key.
    package static func clientSecret(pem: String, teamID: String, keyID: String, clientID: String, now: Date, lifetime: TimeInterval = 3600) throws -> String {
        let key = try ClientSigningKey(pem: pem, algorithm: .es256, keyID: keyID)
        let issuedAt = now.timeIntervalSince1970.rounded(.down)
        return try key.signedJWT(
            type: "JWT",
            claims: [
                "iss": .string(teamID), "iat": .number(issuedAt), "exp": .number(issuedAt + lifetime),
                "aud": "https://appleid.apple.com", "sub": .string(clientID)
            ])
    }
}
