import AuthCore
import Foundation

// A strict client registration endpoint (RFC 7591; OpenID Connect Dynamic Client Registration 1.0) and its client
// configuration endpoint (RFC 7592), enabled by `Paths.registration`.
extension TestIdentityProvider {
    /// A dynamically registered client: the client the other endpoints know, what was registered, and the token that
    /// reads, replaces and deletes it.
    struct DynamicClient: Sendable {
        var client: Client
        var metadata: [String: JSONValue]
        let registrationAccessToken: String
    }

    /// The client with `id`: a configured one, or one registered dynamically.
    func client(withID id: String?) -> Client? {
        guard let id else { return nil }
        return configuration.clients.first(where: { $0.id == id }) ?? dynamicClients[id]?.client
    }

    /// Answers the registration endpoint (POST) and the client configuration endpoints beneath it (GET, PUT, DELETE).
    func registration(_ request: CapturedRequest, path: String, base: String, url: URL) -> (Data, HTTPResponse) {
        let method = request.httpMethod
        if path == base {
            guard method == "POST" else { return oauthError("invalid_request", description: "POST the client metadata.", status: 405, url: url) }
            return register(request, url: url)
        }
        let id = String(path.dropFirst(base.count + 1))
        guard let stored = dynamicClients[id],
            let header = request.value(forHTTPHeaderField: "Authorization"), header == "Bearer " + stored.registrationAccessToken
        else {
            // RFC 7592 §2: an unknown client or a wrong token are alike, 401 invalid_token.
            return oauthError("invalid_token", status: 401, url: url)
        }
        switch method {
        case "GET": return json(registrationAnswer(stored, includingToken: false), url: url)
        case "PUT": return replace(stored, request, url: url)
        case "DELETE":
            dynamicClients[id] = nil
            return (Data(), .make(status: 204))
        default: return oauthError("invalid_request", status: 405, url: url)
        }
    }

    private func register(_ request: CapturedRequest, url: URL) -> (Data, HTTPResponse) {
        guard let body = request.httpBody, let metadata = try? JSONValue.parseObject(body) else {
            return oauthError("invalid_client_metadata", description: "The body is not a JSON object.", url: url)
        }
        let id = "dyn_" + SecureRandom.token(byteCount: 12)
        switch validatedClient(metadata, id: id, secret: nil) {
        case .failure(let refusal): return oauthError(refusal.error, description: refusal.description, url: url)
        case .success(let (client, registered)):
            let stored = DynamicClient(client: client, metadata: registered, registrationAccessToken: "rat_" + SecureRandom.token(byteCount: 24))
            dynamicClients[id] = stored
            return json(registrationAnswer(stored, includingToken: true), status: 201, url: url, headers: ["Cache-Control": "no-store"])
        }
    }

    /// RFC 7592 §2.2: the whole metadata replaced; `client_id` (and a `client_secret`) must be the client's own, and the
    /// server-assigned fields must not be sent.
    private func replace(_ stored: DynamicClient, _ request: CapturedRequest, url: URL) -> (Data, HTTPResponse) {
        guard let body = request.httpBody, let metadata = try? JSONValue.parseObject(body) else {
            return oauthError("invalid_client_metadata", description: "The body is not a JSON object.", url: url)
        }
        guard metadata["client_id"]?.stringValue == stored.client.id else {
            return oauthError("invalid_request", description: "client_id must be the registered client's.", url: url)
        }
        if let secret = metadata["client_secret"], secret.stringValue != stored.client.secret {
            return oauthError("invalid_request", description: "client_secret does not match.", url: url)
        }
        for name in ["registration_access_token", "registration_client_uri", "client_secret_expires_at", "client_id_issued_at"] where metadata[name] != nil {
            return oauthError("invalid_request", description: "\(name) must not be sent in an update.", url: url)
        }
        var fields = metadata
        for name in ["client_id", "client_secret"] { fields[name] = nil }
        switch validatedClient(fields, id: stored.client.id, secret: stored.client.secret) {
        case .failure(let refusal): return oauthError(refusal.error, description: refusal.description, url: url)
        case .success(let (client, registered)):
            let updated = DynamicClient(client: client, metadata: registered, registrationAccessToken: stored.registrationAccessToken)
            dynamicClients[client.id] = updated
            return json(registrationAnswer(updated, includingToken: false), url: url, headers: ["Cache-Control": "no-store"])
        }
    }

    /// What the endpoint answers (RFC 7591 §3.2.1): every registered value, the client id and secret, and the
    /// registration's own URI and (on registration) access token.
    private func registrationAnswer(_ stored: DynamicClient, includingToken: Bool) -> [String: JSONValue] {
        var answer = stored.metadata
        answer["client_id"] = .string(stored.client.id)
        answer["client_id_issued_at"] = .number(clock.now().timeIntervalSince1970.rounded(.down))
        if let secret = stored.client.secret {
            answer["client_secret"] = .string(secret)
            answer["client_secret_expires_at"] = 0
        }
        if let base = configuration.paths.registration {
            answer["registration_client_uri"] = .string(endpoint(base + "/" + stored.client.id).absoluteString)
        }
        if includingToken { answer["registration_access_token"] = .string(stored.registrationAccessToken) }
        return answer
    }

    /// Why metadata was refused: the RFC 7591 §3.2.2 error and its description.
    struct RegistrationRefusal: Error {
        let error: String
        let description: String
    }

    /// The client `metadata` describes, with the metadata as registered (defaults filled in), or why it is refused.
    private func validatedClient(_ metadata: [String: JSONValue], id: String, secret: String?) -> Result<(Client, [String: JSONValue]), RegistrationRefusal> {
        func refuse(_ error: String, _ description: String) -> Result<(Client, [String: JSONValue]), RegistrationRefusal> {
            .failure(RegistrationRefusal(error: error, description: description))
        }
        var registered = metadata
        let type = metadata["application_type"]?.stringValue ?? "web"
        guard ["web", "native"].contains(type) else { return refuse("invalid_client_metadata", "application_type must be web or native.") }
        registered["application_type"] = .string(type)
        let redirects = (metadata["redirect_uris"]?.arrayValue ?? []).compactMap(\.stringValue).compactMap { URL(string: $0) }
        guard !redirects.isEmpty, redirects.count == metadata["redirect_uris"]?.arrayValue?.count else {
            return refuse("invalid_redirect_uri", "redirect_uris must list at least one absolute URI.")
        }
        for redirect in redirects {
            guard let scheme = redirect.scheme?.lowercased(), redirect.fragment == nil else {
                return refuse("invalid_redirect_uri", "A redirect URI must be absolute and without a fragment.")
            }
            // OpenID Connect Dynamic Client Registration §2: web clients https; native clients a custom scheme or
            // loopback http (RFC 8252 §7.3).
            let allowed = type == "web" ? scheme == "https" : scheme != "https" && (scheme != "http" || redirect.isLoopback)
            guard allowed else {
                return refuse("invalid_redirect_uri", "A \(type) client's redirect URI must use \(type == "web" ? "https" : "a custom scheme or loopback http").")
            }
        }
        let method = metadata["token_endpoint_auth_method"]?.stringValue ?? "client_secret_basic"
        guard ["none", "client_secret_basic", "client_secret_post", "private_key_jwt"].contains(method) else {
            return refuse("invalid_client_metadata", "token_endpoint_auth_method '\(method)' is not supported.")
        }
        registered["token_endpoint_auth_method"] = .string(method)
        var publicKey: [String: JSONValue]?
        if method == "private_key_jwt" {
            guard let key = metadata["jwks"]?["keys"]?.arrayValue?.first?.objectValue, metadata["jwks"]?["keys"]?.arrayValue?.count == 1 else {
                return refuse("invalid_client_metadata", "private_key_jwt needs jwks with exactly one public key.")
            }
            guard key["d"] == nil else { return refuse("invalid_client_metadata", "jwks must hold public keys only.") }
            publicKey = key
        }
        let responses = metadata["response_types"]?.arrayValue?.compactMap(\.stringValue) ?? ["code"]
        guard responses == ["code"] else { return refuse("invalid_client_metadata", "Only the code response type is supported.") }
        registered["response_types"] = ["code"]
        let grants = metadata["grant_types"]?.arrayValue?.compactMap(\.stringValue) ?? ["authorization_code"]
        let supported = configuration.issuesRefreshTokens ? ["authorization_code", "refresh_token"] : ["authorization_code"]
        guard grants.contains("authorization_code"), grants.allSatisfy(supported.contains) else {
            return refuse("invalid_client_metadata", "grant_types must include authorization_code and only \(supported.joined(separator: ", ")).")
        }
        registered["grant_types"] = .array(grants.map { .string($0) })
        let clientSecret = ["client_secret_basic", "client_secret_post"].contains(method) ? (secret ?? "sec_" + SecureRandom.token(byteCount: 24)) : nil
        return .success((Client(id: id, secret: clientSecret, redirectURIs: redirects, publicKey: publicKey), registered))
    }
}
