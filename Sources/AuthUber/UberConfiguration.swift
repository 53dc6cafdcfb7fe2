public import AuthCore
public import Foundation

/// The `Uber` dictionary of Info.plist: `ClientID` and `RedirectURI` (required), `DisplayName` (optional).
public struct UberConfiguration: Sendable, Hashable {
    /// The client id.
    public let clientID: String
    /// The redirect URI (`<bundle id>://oauth/consumer` is the preferred format).
    public let redirectURI: URL
    /// The app's display name.
    public let displayName: String?
    /// Scopes to request (not in the vendor's plist; default `profile`).
    public let scopes: [String]
    /// The authorization server (`https://auth.uber.com`; another for tests).
    public let authServer: URL

    /// The URL schemes to list in `LSApplicationQueriesSchemes` for the native hand-off check.
    public static let queriedSchemes = ["uber", "uberauth", "ubereats", "uberdriver"]

    /// Creates a configuration.
    public init(
        clientID: String,
        redirectURI: URL,
        displayName: String? = nil,
        scopes: [String] = ["profile"],
        authServer: URL = URL(string: "https://auth.uber.com")!
    ) {
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.displayName = displayName
        self.scopes = scopes
        self.authServer = authServer
    }

    /// Reads the `Uber` dictionary (or a whole Info.plist containing it).
    ///
    /// - Throws: `missing_configuration_key` for `ClientID` or `RedirectURI` — errors, never a crash.
    public init(_ configuration: ProviderConfiguration) throws {
        let id = UberProvider.id
        let section = configuration.section("Uber") ?? configuration
        self.init(
            clientID: try section.requiredString("ClientID", providerID: id),
            redirectURI: try section.requiredURL("RedirectURI", providerID: id),
            displayName: section.string("DisplayName"),
            scopes: section.scopes("Scopes") ?? ["profile"],
            authServer: section["AuthServer"] == nil ? URL(string: "https://auth.uber.com")! : try section.requiredURL("AuthServer", providerID: id)
        )
    }

    /// `/oauth/v2/<id>/authorize`: `universal` in app, `riders`, `eats` or `drivers` for a native hand-off.
    public func authorizeEndpoint(_ id: String) -> URL {
        authServer.appendingPathComponent("oauth/v2/\(id)/authorize")
    }
}
