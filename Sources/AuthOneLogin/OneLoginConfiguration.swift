public import AuthCore
public import Foundation

/// OneLogin's configuration, as the vendor SDK reads it from `OL-Oidc.plist` or a dictionary.
///
/// Required: `issuer`, `clientId`, `redirectUri`, `scopes` (space-separated, containing `openid`); all values are
/// strings. **Every other key is an additional authorization parameter** (for example `resource`).
public struct OneLoginConfiguration: Sendable, Hashable {
    /// The default property-list name.
    public static let defaultPlistName = "OL-Oidc"
    /// The keys the SDK reads itself; every other key is sent as an authorization parameter.
    public static let reservedKeys: Set<String> = ["issuer", "clientId", "redirectUri", "scopes"]

    /// The issuer (`https://<subdomain>.onelogin.com/oidc/2`).
    public let issuer: URL
    /// The client id.
    public let clientId: String
    /// The redirect URI (a custom scheme registered in `CFBundleURLTypes`).
    public let redirectUri: URL
    /// The scopes.
    public let scopes: [String]
    /// Additional authorization parameters: every other key.
    public let additionalParameters: [String: String]

    /// Reads a configuration dictionary of strings (the vendor's `OLOidcConfig(dict:)`).
    ///
    /// - Throws: `missing_configuration_key` naming the key; `invalid_configuration` for a non-URL issuer or
    ///   redirect, scopes without `openid`, a value that is not a string, a `scope` key, or a custom parameter the
    ///   engine sets itself (`state`, `client_id`, …).
    public init(dict: [String: String]) throws {
        try self.init(ProviderConfiguration(dict.mapValues(JSONValue.string)))
    }

    /// Reads the configuration from a dictionary from any source.
    ///
    /// - Throws: as ``init(dict:)``.
    public init(_ configuration: ProviderConfiguration) throws {
        let id = OneLoginProvider.id
        // OneLogin's discovery names its issuer without a trailing slash (`…/oidc/2`); one typed in the configuration
        // is dropped so discovery's exact issuer check passes, as the vendor SDK accepted it.
        let configuredIssuer = try configuration.requiredURL("issuer", providerID: id)
        issuer =
            configuredIssuer.absoluteString.hasSuffix("/") && configuredIssuer.path.count > 1
            ? URL(string: String(configuredIssuer.absoluteString.dropLast()))!
            : configuredIssuer
        clientId = try configuration.requiredString("clientId", providerID: id)
        redirectUri = try configuration.requiredURL("redirectUri", providerID: id)
        let scopeText = try configuration.requiredString("scopes", providerID: id)
        scopes = ProviderConfiguration.words(scopeText)
        guard scopes.contains("openid") else {
            throw AuthError(.invalidConfiguration, "The OneLogin 'scopes' must contain openid; got '\(scopeText)'.", providerID: id)
        }
        var extra: [String: String] = [:]
        for (key, value) in configuration.values.sorted(by: { $0.key < $1.key }) where !Self.reservedKeys.contains(key) {
            // Caught here, at load, rather than at the first sign-in: what the engine sets cannot be a custom
            // parameter, and `scope` would duplicate the one built from `scopes`.
            if key == "scope" {
                throw AuthError(.invalidConfiguration, "The OneLogin configuration has 'scope'; list the scopes under 'scopes'.", providerID: id)
            }
            if AuthClient.reservedParameters.contains(key) {
                throw AuthError(
                    .invalidConfiguration,
                    "The OneLogin configuration key '\(key)' is a parameter the engine sets itself; remove it.",
                    providerID: id
                )
            }
            guard let text = value.stringValue else {
                throw AuthError(.invalidConfiguration, "The OneLogin configuration value for '\(key)' must be a string.", providerID: id)
            }
            extra[key] = text
        }
        additionalParameters = extra
    }

    /// Reads a property list (the vendor's `OLOidcConfig(plist:)`): `<name>.plist` in `directory`.
    ///
    /// - Throws: `configuration_file_not_found`; `configuration_file_invalid` for a file that cannot be read, is not
    ///   a dictionary, or has a value that is not a string (naming the key, in `configurationKey`), as
    ///   the vendor's plist had to be a dictionary of strings; then the dictionary's errors.
    public init(plist name: String = OneLoginConfiguration.defaultPlistName, in directory: URL) throws {
        let file = directory.appendingPathComponent(name.hasSuffix(".plist") ? name : name + ".plist")
        do {
            let configuration = try ProviderConfiguration(contentsOf: file)
            // Checked before any field is read: the vendor SDK refused the whole file (`configFileParseFailure`)
            // when it was not `[String: String]`, whatever else was wrong with it.
            if let key = configuration.values.keys.sorted().first(where: { configuration.values[$0]?.stringValue == nil }) {
                throw AuthError(
                    .configurationFileInvalid,
                    "\(file.lastPathComponent): the value for '\(key)' must be a string.",
                    configurationKey: key
                )
            }
            try self.init(configuration)
        } catch let error as AuthError {
            throw error.attributed(to: OneLoginProvider.id)
        }
    }

    /// Reads `<name>.plist` from `bundle`'s resources (the app bundle by default).
    public init(plist name: String = OneLoginConfiguration.defaultPlistName, bundle: Bundle = .main) throws {
        guard let url = bundle.url(forResource: name, withExtension: "plist") else {
            throw AuthError(.configurationFileNotFound, "\(name).plist is not in the app bundle; add it to the target's resources.", providerID: OneLoginProvider.id)
        }
        try self.init(plist: name, in: url.deletingLastPathComponent())
    }
}
