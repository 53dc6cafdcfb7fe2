public import AuthCore
import Foundation

/// Grab (GrabID Partner): endpoints from Grab's own service discovery document, `acr_values` from a dictionary,
/// login hints, and the ID token validated locally when the document names `issuer` and `jwks_uri` (the vendor SDK
/// validated nothing; without them `GrabIdPartner` (GrabCompat) asks Grab's `id_token_verification_endpoint` instead).
///
/// Token requests reach Grab with their parameters in the URL query of a bodiless `POST`, as the iOS SDK sends them
/// (``behavior``). Grab's Android and JavaScript SDKs and its server sample send a JSON body instead
/// (grab/grabplatform-sdk-android `GrabSdkApi.kt`, grabplatform-sdk-js `token_request_handler.ts`), so Grab reads both;
/// nothing shows that it reads a form body.
///
/// Used by the engine itself (web sign-in, `auth-cli`, any `AuthClient`), the ID token is validated locally only: Grab's
/// `id_token_verification_endpoint` fallback is GrabCompat's (`GrabIdPartner`). A server therefore needs a discovery
/// document naming `issuer` and `jwks_uri`, and ID tokens whose `aud` is the client id and whose `iss` is the document's
/// issuer; otherwise every sign-in fails with `endpoint_unavailable`, `invalid_audience` or `invalid_issuer`. A
/// confidential client sets ``GrabConfiguration/clientSecret``; a public client signs in with PKCE alone.
public struct GrabProvider: AuthProvider {
    /// `grab`.
    public static let id: ProviderID = "grab"
    /// `Grab`.
    public static let displayName = "Grab"

    /// The configuration.
    public let configuration: GrabConfiguration
    /// Sent as `device_id` on every authorization request, as the vendor SDK sends the app's
    /// `identifierForVendor`; `nil` (no such identifier) sends it empty, as the vendor's `?? ""` does.
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

    /// The client id, redirect, scopes and (for a confidential server client) the secret, sent as HTTP Basic; Bearer
    /// tokens, as the vendor SDK's (never DPoP because a server starts advertising it).
    public var client: ClientRegistration {
        ClientRegistration(
            clientID: configuration.clientId, clientSecret: configuration.clientSecret, redirectURI: configuration.redirectUrl, scopes: configuration.scope,
            dpop: .never)
    }

    /// Token request parameters in the URL query, as GrabIdPartnerSDK's `GrabApi.fetchToken` sends them.
    public var behavior: ProviderBehavior { ProviderBehavior(sendsTokenParametersInQuery: true) }

    /// Grab's service discovery document, loaded once. Missing endpoints are an error, not silence.
    ///
    /// Required: `authorization_endpoint`, `token_endpoint` and `id_token_verification_endpoint`, exactly what the
    /// vendor SDK required; the error names the missing member. `issuer` and `jwks_uri` are used when present (the
    /// vendor's own test fixture has both) to validate the ID token locally; a document without them still signs in,
    /// through the verification endpoint (see ``validatesIDTokenLocally(_:)``), with the discovery URL's origin
    /// standing in for the missing issuer so stored sessions keep a stable key.
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
        // Every time, empty when unknown: the vendor sends `identifierForVendor?.uuidString ?? ""`.
        parameters["device_id"] = deviceId ?? ""
        if let acr = configuration.acrValuesParameter, request.options.acrValues.isEmpty { parameters["acr_values"] = acr }
        if let hint = configuration.hint, request.options.loginHint == nil { parameters["login_hint"] = hint }
        if let hint = configuration.idTokenHint, request.options.idTokenHint == nil { parameters["id_token_hint"] = hint }
        if let prompt = configuration.prompt, request.options.prompt.isEmpty { parameters["prompt"] = prompt }
        if let object = configuration.request { parameters["request"] = object }
        return parameters
    }

    /// Whether the ID token can be validated on this device: the document named both `issuer` and `jwks_uri`.
    /// Otherwise a sign-in has Grab's `id_token_verification_endpoint` vouch for it, as the vendor's
    /// `getIdTokenInfo` does.
    public static func validatesIDTokenLocally(_ metadata: ProviderMetadata) -> Bool {
        metadata.jwksURI != nil && metadata.document[GrabServiceDiscovery.assumedIssuerKey] == nil
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
    /// Marks a document whose `issuer` was missing and stood in for: no ID token can be checked against it.
    static let assumedIssuerKey = "x-grab-issuer-assumed"

    static func load(_ url: URL, transport: any HTTPTransport) async throws -> ProviderMetadata {
        var request = HTTPRequest(method: .get, url: url)
        request.headerFields.set("application/json", forName: "Accept")
        let (data, response): (Data, HTTPResponse)
        do {
            (data, response) = try await transport.send(request)
        } catch {
            throw AuthError(.network, "Grab's service discovery could not be reached.", providerID: GrabProvider.id, underlying: error)
        }
        guard (200..<300).contains(response.status.code), var document = try? JSONValue.parseObject(data) else {
            throw AuthError(
                .discoveryFailed, "Grab's service discovery answered HTTP \(response.status.code) without a JSON document.", providerID: GrabProvider.id,
                httpStatus: response.status.code)
        }
        for key in ["authorization_endpoint", "token_endpoint", "id_token_verification_endpoint"] where document[key]?.stringValue == nil {
            throw AuthError(.discoveryFailed, "Grab's service discovery document has no '\(key)'.", providerID: GrabProvider.id, endpoint: key)
        }
        if document["issuer"]?.stringValue?.isEmpty ?? true {
            // The vendor never read an issuer. One is needed to key stored sessions; the document's own origin is stable.
            guard let scheme = url.scheme, let host = url.host else {
                throw AuthError(.discoveryFailed, "Grab's service discovery URL has no origin.", providerID: GrabProvider.id)
            }
            document["issuer"] = .string("\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? ""))
            document[assumedIssuerKey] = .bool(true)
        }
        do {
            return try ProviderMetadata(document: document)
        } catch let error as AuthError {
            throw error.attributed(to: GrabProvider.id)
        }
    }
}
