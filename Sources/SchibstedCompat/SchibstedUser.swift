public import AuthCore
import AuthSchibsted
import AuthURLSession
public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A logged-in Schibsted account user (the vendor's `User`).
public struct SchibstedUser: Sendable {
    /// The session: tokens refreshed single-flight, authorized requests with refresh-on-401, events.
    public let session: Session
    /// Delegates told when this user is logged out, explicitly or forced (the vendor's `user.delegates`).
    public let delegates: UserDelegates
    private let client: SchibstedAccountClient

    /// The annotation that keeps `legacy_user_id` for a session adopted from the vendor SDK, which stored the ID
    /// token's claims but (in 6.x) not the ID token.
    static let legacyUserIDAnnotation = "schibsted.legacy_user_id"

    init(session: Session, client: SchibstedAccountClient) {
        self.session = session
        self.client = client
        self.delegates = UserDelegates(session: session)
    }

    /// Whether the user is still logged in (the vendor's `isLoggedIn()`).
    public var isLoggedIn: Bool {
        get async { await session.isSignedIn }
    }

    /// The user's UUID (`sub`).
    public var uuid: String? {
        get async {
            if let subject = await session.idTokenClaims?.subject { return subject }
            return await session.subject
        }
    }
    /// The legacy numeric user id (`legacy_user_id`).
    public var userId: String? {
        get async {
            switch await session.idTokenClaims?["legacy_user_id"] {
            case .string(let value): value
            case .number(let value): JSONValue.number(value).int64Value.map(String.init)
            default: await session.credential.annotations?[Self.legacyUserIDAnnotation]
            }
        }
    }

    /// The user's SDRN for tracking (the vendor SDK 6's `user.sdrn`), from the legacy user id and the environment.
    public var sdrn: String? {
        get async {
            guard let userId = await userId else { return nil }
            return client.configuration.environment.sdrn(userId: userId)
        }
    }

    /// A short-lived JWT identifying the user to Schibsted's web frontends (the vendor SDK 6's `frontendJWT()`),
    /// from the session service's `/frontend-jwt`.
    public func frontendJWT() async throws -> Secret {
        var request = HTTPRequest(method: .get, url: client.configuration.environment.sessionServiceEndpoint("/frontend-jwt"))
        request.setSchibstedUserAgent()
        request.headerFields.set("application/json", forName: "Accept")
        let (data, response) = try await session.send(request)
        guard response.status.code == 200 else {
            throw AuthError(.httpError, "GET /frontend-jwt answered HTTP \(response.status.code).", providerID: SchibstedProvider.id, httpStatus: response.status.code)
        }
        guard let jwt = (try? JSONValue.parseObject(data))?["id_jwt"]?.stringValue, !jwt.isEmpty else {
            throw AuthError(.invalidResponse, "The /frontend-jwt response has no id_jwt.", providerID: SchibstedProvider.id)
        }
        return Secret(jwt)
    }

    /// Sends `request` with the user's token; a 401 refreshes once (shared with concurrent 401s) and retries.
    public func send(_ request: HTTPRequest, body: Data? = nil) async throws -> (Data, HTTPResponse) {
        try await session.send(request, body: body)
    }

    /// Sends a `URLRequest` (method, URL, header fields, `httpBody`) with the user's token, as ``send(_:body:)``.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await session.send(request)
    }

    /// The profile from `/api/2/user/<uuid>` (the vendor's `fetchProfileData`).
    public func fetchProfileData() async throws -> UserProfileResponse {
        guard let uuid = await uuid else {
            throw AuthError(.notSignedIn, "The user has no uuid.", providerID: SchibstedProvider.id)
        }
        let data = try await api("GET", "/api/2/user/\(uuid)", form: [])
        do {
            // camelCase on the wire, decoded as it is (the vendor's plain `JSONDecoder`).
            return try JSONDecoder().decode(DataWrapper<UserProfileResponse>.self, from: data).data
        } catch {
            throw AuthError(.invalidResponse, "The profile response is not the expected {\"data\": …} object.", providerID: SchibstedProvider.id)
        }
    }

    /// A URL that opens a logged-in web session for `clientId` (the vendor's `webSessionURL`).
    public func webSessionURL(clientId: String, redirectURI: URL, state: String? = nil) async throws -> URL {
        var form = [("type", "session"), ("clientId", clientId), ("redirectUri", redirectURI.absoluteString)]
        if let state { form.append(("state", state)) }
        let code = try await exchangeCode(form)
        return client.configuration.environment.endpoint("/session/\(code)")
    }

    /// A one-time code for `clientId`, for a backend to exchange (the vendor's `oneTimeCode`).
    public func oneTimeCode(clientId: String) async throws -> Secret {
        Secret(try await exchangeCode([("type", "code"), ("clientId", clientId)]))
    }

    /// Logs out locally; ``delegates`` and observers of `AuthEvent` are told. With simplified login shared, the
    /// vendor-format copy of the session is removed too, so the vendor's apps stop offering it.
    public func logout() async throws {
        let key = await session.credential.storageKey
        try await session.signOut(revokingTokens: false)
        await client.removeSharedSession(key)
    }

    private func exchangeCode(_ form: [(String, String)]) async throws -> String {
        let data = try await api("POST", "/api/2/oauth/exchange", form: form)
        guard let object = try? JSONValue.parseObject(data), let code = object["data"]?["code"]?.stringValue else {
            throw AuthError(.invalidResponse, "The exchange response has no data.code.", providerID: SchibstedProvider.id)
        }
        return code
    }

    private func api(_ method: String, _ path: String, form: [(String, String)]) async throws -> Data {
        var request = HTTPRequest(method: HTTPRequest.Method(method) ?? .get, url: client.configuration.environment.endpoint(path))
        request.setSchibstedUserAgent()
        request.headerFields.set("application/json", forName: "Accept")
        var body: Data?
        if !form.isEmpty {
            request.headerFields.set("application/x-www-form-urlencoded", forName: "Content-Type")
            body = Data(FormEncoding.encode(form).utf8)
        }
        let (data, response) = try await session.send(request, body: body)
        guard (200..<300).contains(response.status.code) else {
            throw AuthError(.httpError, "\(method) \(path) answered HTTP \(response.status.code).", providerID: SchibstedProvider.id, httpStatus: response.status.code)
        }
        return data
    }
}

private struct DataWrapper<Wrapped: Decodable>: Decodable {
    let data: Wrapped
}
