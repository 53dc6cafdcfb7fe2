public import AuthCore
public import Foundation

/// Registers clients with an issuer (OpenID Connect Dynamic Client Registration 1.0, RFC 7591), and reads and updates
/// a registration (RFC 7592).
///
/// Every answer is checked against what was asked (``DynamicRegistration``'s rules); a refused answer stores nothing.
/// Secrets (the initial access token, the client secret, the registration access token) travel as
/// `Secret` and are never logged; error messages name endpoints, fields and methods, never a secret.
///
/// ```swift
/// let registrar = ClientRegistrar(transport: transport)
/// let registration = try await registrar.register(
///     RegistrationRequest(redirectURIs: [URL(string: "http://127.0.0.1:53682/callback")!]),
///     issuer: "https://id.example.com", storage: storage)
/// let provider = try OpenIDProvider(configuration: registration.providerConfiguration())  // AuthOIDC
/// ```
public struct ClientRegistrar: Sendable {
    let transport: any HTTPTransport
    let clock: any WallClock
    let limits: HTTPRequestLimits

    /// Creates a registrar sending through `transport`.
    ///
    /// - Parameters:
    ///   - transport: the HTTP transport.
    ///   - clock: the time `client_secret_expires_at` is compared with.
    ///   - limits: the size cap and deadline of each request.
    public init(transport: any HTTPTransport, clock: any WallClock = SystemWallClock(), limits: HTTPRequestLimits = HTTPRequestLimits()) {
        self.transport = transport
        self.clock = clock
        self.limits = limits
    }

    /// Registers a client with `issuer`'s `registration_endpoint` (from its discovery document), checks the answer
    /// and saves it in `storage`.
    ///
    /// - Parameters:
    ///   - request: what to register.
    ///   - issuer: the issuer URL.
    ///   - initialAccessToken: the bearer token an issuer with closed registration requires (RFC 7591 §3).
    ///   - storage: where the registration is kept (saved only when every check passed).
    /// - Throws: `endpoint_unavailable` when the issuer has no registration endpoint; `discovery_failed`,
    ///   `discovery_issuer_mismatch`, `insecure_endpoint`; `registration_refused` with the provider's error; the
    ///   `registration_*` codes for an answer that changed what was asked.
    public func register(
        _ request: RegistrationRequest, issuer: String, initialAccessToken: Secret? = nil, storage: (any RegistrationStorage)? = nil
    ) async throws -> DynamicRegistration {
        let endpoint = try await registrationEndpoint(issuer: issuer)
        return try await register(request, at: endpoint, issuer: issuer, initialAccessToken: initialAccessToken, storage: storage)
    }

    /// Registers a client at `endpoint` (RFC 7591 §3.1), checks the answer and saves it in `storage`.
    ///
    /// - Throws: as ``register(_:issuer:initialAccessToken:storage:)``, but for discovery.
    public func register(
        _ request: RegistrationRequest, at endpoint: URL, issuer: String, initialAccessToken: Secret? = nil, storage: (any RegistrationStorage)? = nil
    ) async throws -> DynamicRegistration {
        try endpoint.requireSecureEndpoint("registration endpoint")
        let answer = try await exchange(.post, endpoint, body: try request.metadata(), bearer: initialAccessToken, expecting: 201)
        let registration = try DynamicRegistration.checked(answer, asked: request, issuer: issuer, now: clock.now())
        try await storage?.save(registration)
        return registration
    }

    /// Reads the registration back (RFC 7592 §2.1) and checks it still is what was registered.
    ///
    /// - Throws: `endpoint_unavailable` without a registration client URI or access token; `registration_refused`
    ///   (`invalid_token` when the provider revoked the registration); the `registration_*` codes.
    public func read(_ registration: DynamicRegistration, storage: (any RegistrationStorage)? = nil) async throws -> DynamicRegistration {
        let (uri, token) = try management(registration)
        let answer = try await exchange(.get, uri, body: nil, bearer: token, expecting: 200)
        let current = try DynamicRegistration.checked(answer, asked: registration.request, issuer: registration.issuer, now: clock.now(), previous: registration)
        try await storage?.save(current)
        return current
    }

    /// Replaces the registration's metadata with `request` (RFC 7592 §2.2) and checks the answer against it.
    ///
    /// - Throws: as ``read(_:storage:)``.
    public func update(_ registration: DynamicRegistration, to request: RegistrationRequest, storage: (any RegistrationStorage)? = nil) async throws
        -> DynamicRegistration
    {
        let (uri, token) = try management(registration)
        var body = try request.metadata()
        body["client_id"] = .string(registration.clientID)
        if let secret = registration.clientSecret { body["client_secret"] = .string(secret.reveal()) }
        let answer = try await exchange(.put, uri, body: body, bearer: token, expecting: 200)
        let updated = try DynamicRegistration.checked(answer, asked: request, issuer: registration.issuer, now: clock.now(), previous: registration)
        try await storage?.save(updated)
        return updated
    }

    /// The issuer's `registration_endpoint`, from its discovery document (whose `issuer` must be `issuer`).
    ///
    /// - Throws: `discovery_failed`, `discovery_issuer_mismatch`, `endpoint_unavailable`, `insecure_endpoint`.
    public func registrationEndpoint(issuer: String) async throws -> URL {
        let trimmed = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        guard let url = URL(string: trimmed + "/.well-known/openid-configuration") else {
            throw AuthError(.invalidConfiguration, "The issuer is not a URL.", configurationKey: "issuer")
        }
        try url.requireSecureEndpoint("issuer")
        let document: [String: JSONValue]
        do {
            document = try await exchange(.get, url, body: nil, bearer: nil, expecting: 200)
        } catch let error as AuthError where error.code == .registrationRefused || error.code == .invalidResponse || error.code == .httpError {
            throw AuthError(.discoveryFailed, "The issuer's discovery document could not be read.", httpStatus: error.httpStatus, endpoint: "discovery")
        }
        guard document["issuer"]?.stringValue == issuer else {
            throw AuthError(.discoveryIssuerMismatch, "The discovery document names another issuer than the one asked for.", endpoint: "discovery")
        }
        guard let text = document["registration_endpoint"]?.stringValue, let endpoint = URL(string: text) else {
            throw AuthError(
                .endpointUnavailable, "The issuer has no registration_endpoint: it does not allow dynamic client registration.", endpoint: "registration_endpoint")
        }
        try endpoint.requireSecureEndpoint("registration endpoint")
        return endpoint
    }

    private func management(_ registration: DynamicRegistration) throws -> (URL, Secret) {
        guard let uri = registration.registrationClientURI, let token = registration.registrationAccessToken else {
            throw AuthError(
                .endpointUnavailable, "The provider gave this registration no registration_client_uri and access token (RFC 7592).",
                endpoint: "registration_client_uri")
        }
        try uri.requireSecureEndpoint("registration_client_uri")
        return (uri, token)
    }

    /// Sends one JSON request and returns the JSON object of the expected status.
    private func exchange(_ method: HTTPRequest.Method, _ url: URL, body: [String: JSONValue]?, bearer: Secret?, expecting status: Int) async throws
        -> [String: JSONValue]
    {
        var request = HTTPRequest(method: method, url: url)
        request.headerFields.set("application/json", forName: "Accept")
        if let bearer { request.headerFields.set("Bearer " + bearer.reveal(), forName: "Authorization") }
        var data: Data?
        if let body {
            request.headerFields.set("application/json", forName: "Content-Type")
            data = try JSONValue.object(body).jsonData()
        }
        let (answer, response) = try await transport.send(request, body: data, limits: limits)
        let object = try? JSONValue.parseObject(answer)
        guard response.status.code == status || (status == 201 && response.status.code == 200 && object?["client_id"] != nil) else {
            let error = object?["error"]?.stringValue
            // The provider's own words say what it refused (a redirect URI, a method): shown, sanitized and capped, as
            // every provider text is.
            let description = object?["error_description"]?.stringValue.map { ": " + ProviderText.sanitized($0, limit: 200) } ?? ""
            throw AuthError(
                response.status.code == 400 || response.status.code == 401 || response.status.code == 403 ? .registrationRefused : .httpError,
                "\(request.summary) answered HTTP \(response.status.code)\(error.map { " (\(ProviderText.sanitized($0, limit: 80)))" } ?? "")\(description).",
                oauthError: error, httpStatus: response.status.code
            )
        }
        guard let object else {
            throw AuthError(.invalidResponse, "\(request.summary) did not answer with a JSON object.")
        }
        return object
    }
}
