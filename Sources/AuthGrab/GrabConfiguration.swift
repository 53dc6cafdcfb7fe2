public import AuthCore
public import Foundation

/// The `GrabIdPartnerSDK` dictionary of Info.plist.
public struct GrabConfiguration: Sendable, Hashable {
    /// `ClientId`.
    public let clientId: String
    /// `RedirectUrl`.
    public let redirectUrl: URL
    /// `Scope`: space-separated.
    public let scope: [String]
    /// `ServiceDiscoveryUrl`: Grab's own discovery document (not OIDC well-known).
    public let serviceDiscoveryUrl: URL
    /// `Request`: a request object, sent when non-empty.
    public let request: String?
    /// `AcrValues`: sent as `key:value` pairs joined by spaces, sorted by key.
    public let acrValues: [String: String]
    /// `Hint`: the default `login_hint`.
    public let hint: String?
    /// `IdTokenHint`: the default `id_token_hint`.
    public let idTokenHint: String?
    /// `Prompt` (the SDK actually reads `prompt`; both are accepted).
    public let prompt: String?
    /// `ClientSecret`: for a server registered with Grab as a confidential client (Grab's server sample sends one:
    /// grab/grabplatform-sample `server/handler/grabid.js`), sent as HTTP Basic authentication (RFC 6749 §2.3.1, the
    /// method every server must support for client passwords), never in the URL. Never in an app: anyone who has the
    /// app has its secret (check-auth-config refuses it in an Info.plist).
    public let clientSecret: Secret?

    /// Creates a configuration.
    public init(
        clientId: String,
        redirectUrl: URL,
        scope: [String],
        serviceDiscoveryUrl: URL,
        request: String? = nil,
        acrValues: [String: String] = [:],
        hint: String? = nil,
        idTokenHint: String? = nil,
        prompt: String? = nil,
        clientSecret: Secret? = nil
    ) {
        self.clientId = clientId
        self.redirectUrl = redirectUrl
        self.scope = scope
        self.serviceDiscoveryUrl = serviceDiscoveryUrl
        self.request = request
        self.acrValues = acrValues
        self.hint = hint
        self.idTokenHint = idTokenHint
        self.prompt = prompt
        self.clientSecret = clientSecret
    }

    /// Reads the `GrabIdPartnerSDK` dictionary (or a whole Info.plist containing it).
    ///
    /// - Throws: `invalid_configuration` when the dictionary is missing; `missing_configuration_key` naming
    ///   `ClientId`, `RedirectUrl`, `Scope` or `ServiceDiscoveryUrl` (Grab's invalidClientId, invalidRedirectUrl,
    ///   invalidScope, invalidServiceDiscoveryUrl); `invalid_configuration` naming `Scope` when it lacks `openid`
    ///   (without it Grab issues no ID token bound to a nonce, and `getIdTokenInfo` cannot work).
    public init(_ configuration: ProviderConfiguration) throws {
        let id = GrabProvider.id
        let section: ProviderConfiguration
        if let nested = configuration.section("GrabIdPartnerSDK") {
            section = nested
        } else if configuration["ClientId"] != nil || configuration["ServiceDiscoveryUrl"] != nil {
            section = configuration
        } else {
            throw AuthError(.invalidConfiguration, "The GrabIdPartnerSDK dictionary is missing from the configuration (Info.plist).", providerID: id)
        }
        func optional(_ keys: String...) -> String? {
            for key in keys { if let value = section.string(key), !value.isEmpty { return value } }
            return nil
        }
        let scope = ProviderConfiguration.words(try section.requiredString("Scope", providerID: id))
        guard scope.contains("openid") else {
            throw AuthError(
                .invalidConfiguration, "The configuration key 'Scope' must include openid (Grab's ID token and its nonce depend on it); it is '\(scope.joined(separator: " "))'.",
                providerID: id, configurationKey: "Scope")
        }
        self.init(
            clientId: try section.requiredString("ClientId", providerID: id),
            redirectUrl: try section.requiredURL("RedirectUrl", providerID: id),
            scope: scope,
            serviceDiscoveryUrl: try section.requiredURL("ServiceDiscoveryUrl", providerID: id),
            request: optional("Request"),
            acrValues: section.stringDictionary("AcrValues") ?? [:],
            hint: optional("Hint"),
            idTokenHint: optional("IdTokenHint"),
            prompt: optional("prompt", "Prompt"),
            clientSecret: optional("ClientSecret", "client_secret").map { Secret($0) }
        )
    }

    /// `acr_values`: each non-empty `key:value` pair, sorted by key, joined by single spaces.
    public var acrValuesParameter: String? {
        let pairs = acrValues.filter { !$0.key.isEmpty && !$0.value.isEmpty }.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }
        return pairs.isEmpty ? nil : pairs.joined(separator: " ")
    }
}
