public import AuthCore
import Foundation

/// Grab (GrabID Partner): endpoints from Grab's own service discovery document, `acr_values` from a dictionary,
/// login hints, and full ID token validation (the vendor SDK did none).
public struct GrabProvider: AuthProvider {
    /// `grab`.
    public static let id: ProviderID = "grab"
    /// `Grab`.
    public static let displayName = "Grab"

    /// The configuration.
    public let configuration: GrabConfiguration
    /// Sent as `device_id` on every authorization request, as the vendor SDK sends the app's
    /// `identifierForVendor`; `nil` sends none.
    public let deviceId: String?

    /// Creates the provider from a typed configuration.
    public init(configuration: GrabConfiguration, deviceId: String? = nil) {
        self.configuration = configuration
        self.deviceId = deviceId
    }

    /// Creates the provider from the `GrabIdPartnerSDK` dictionary.
    public init(configuration: ProviderConfiguration) throws {
        self.init(configuration: try GrabConfiguration(configuration))
    }

    /// The client id, redirect and scopes.
    public var client: ClientRegistration {
        ClientRegistration(clientID: configuration.clientId, redirectURI: configuration.redirectUrl, scopes: configuration.scope)
    }

    /// Grab's service discovery document, loaded once. Missing endpoints are an error, not silence.
    ///
    /// Required: `authorization_endpoint`, `token_endpoint` and `id_token_verification_endpoint` (what the vendor SDK
    /// required), plus `issuer` and `jwks_uri`, because this SDK validates the ID token's signature and issuer
    /// itself instead of trusting it unchecked; Grab's document carries both (its SDK's own test fixture has
    /// `issuer` `https://idp.grab.com` and `jwks_uri` …`/public_keys`). The error names the missing member.
    public var endpointSource: EndpointSource {
        let url = configuration.serviceDiscoveryUrl
        return .custom(cacheKey: "grab:" + url.absoluteString) { transport in
            try await GrabServiceDiscovery.load(url, transport: transport)
        }
    }

    /// `acr_values`, `device_id`, and the configured `login_hint`, `id_token_hint`, `prompt`, `request` when
    /// non-empty and not given for this login.
    public func authorizationParameters(for request: SignInContext) -> [String: String] {
        var parameters: [String: String] = [:]
        if let deviceId, !deviceId.isEmpty { parameters["device_id"] = deviceId }
        if let acr = configuration.acrValuesParameter, request.options.acrValues.isEmpty { parameters["acr_values"] = acr }
        if let hint = configuration.hint, request.options.loginHint == nil { parameters["login_hint"] = hint }
        if let hint = configuration.idTokenHint, request.options.idTokenHint == nil { parameters["id_token_hint"] = hint }
        if let prompt = configuration.prompt, request.options.prompt.isEmpty { parameters["prompt"] = prompt }
        if let object = configuration.request { parameters["request"] = object }
        return parameters
    }

    /// Grab's token response must carry `expires_in` and an `id_token` (besides the access token and type).
    public func validate(_ result: SignInResult, for request: SignInContext) throws {
        guard result.tokens.expiresIn != nil else {
            throw AuthError(.invalidResponse, "The Grab token response has no 'expires_in'.", providerID: Self.id)
        }
        guard result.idTokenClaims != nil else {
            throw AuthError(.missingIDToken, "The Grab token response has no 'id_token'.", providerID: Self.id)
        }
    }
}

/// Grab's service discovery document.
enum GrabServiceDiscovery {
    static func load(_ url: URL, transport: any HTTPTransport) async throws -> ProviderMetadata {
        var request = HTTPRequest(method: .get, url: url)
        request.headerFields.set("application/json", forName: "Accept")
        let (data, response): (Data, HTTPResponse)
        do {
            (data, response) = try await transport.send(request)
        } catch {
            throw AuthError(.network, "Grab's service discovery could not be reached.", providerID: GrabProvider.id, underlying: error)
        }
        guard (200..<300).contains(response.status.code), let document = try? JSONValue.parseObject(data) else {
            throw AuthError(.discoveryFailed, "Grab's service discovery answered HTTP \(response.status.code) without a JSON document.", providerID: GrabProvider.id, httpStatus: response.status.code)
        }
        for key in ["authorization_endpoint", "token_endpoint", "id_token_verification_endpoint"] where document[key]?.stringValue == nil {
            throw AuthError(.discoveryFailed, "Grab's service discovery document has no '\(key)'.", providerID: GrabProvider.id, endpoint: key)
        }
        for key in ["issuer", "jwks_uri"] where document[key]?.stringValue == nil {
            throw AuthError(.discoveryFailed, "Grab's service discovery document has no '\(key)', which this SDK needs to validate the ID token's issuer and signature (the vendor SDK did not validate them).",
                            providerID: GrabProvider.id, endpoint: key)
        }
        do {
            return try ProviderMetadata(document: document)
        } catch let error as AuthError {
            throw error.attributed(to: GrabProvider.id)
        }
    }
}
