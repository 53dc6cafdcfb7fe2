import AuthCore
public import Foundation

/// One entry of the client public info's `custom_protocols` (each entry is itself a JSON string).
public struct GrabCustomProtocol: Sendable, Hashable, Codable {
    /// The scheme checked with `canOpenURL` (`protocol_pax_ios`).
    public let paxProtocol: String
    /// The deep link base the login is handed to (`protocol_ios`).
    public let loginProtocol: String
    /// The App Store link (`appstore_link_ios`).
    public let appStoreLink: String?

    enum CodingKeys: String, CodingKey {
        case paxProtocol = "protocol_pax_ios"
        case loginProtocol = "protocol_ios"
        case appStoreLink = "appstore_link_ios"
    }

    /// Creates an entry.
    public init(paxProtocol: String, loginProtocol: String, appStoreLink: String?) {
        self.paxProtocol = paxProtocol
        self.loginProtocol = loginProtocol
        self.appStoreLink = appStoreLink
    }

    /// Parses the client public info response: `custom_protocols` is an array of JSON strings.
    ///
    /// - Throws: `grab_custom_protocol_invalid` (Grab's `customProtocolsService` / `invalidCustomProtocolUrl`) for a
    ///   response or entry that does not decode.
    public static func parse(publicInfo data: Data) throws -> [GrabCustomProtocol] {
        guard let object = try? JSONValue.parseObject(data) else {
            throw AuthError(.grabCustomProtocolInvalid, "The Grab client public info is not a JSON object.", providerID: GrabProvider.id)
        }
        return try (object["custom_protocols"]?.arrayValue ?? []).map { entry in
            guard let text = entry.stringValue, let decoded = try? JSONDecoder().decode(GrabCustomProtocol.self, from: Data(text.utf8)) else {
                throw AuthError(
                    .grabCustomProtocolInvalid, "A Grab custom_protocols entry is not a JSON string with protocol_pax_ios and protocol_ios.", providerID: GrabProvider.id)
            }
            return decoded
        }
    }
}

/// How a Grab login reaches the user.
public enum GrabRoute: Sendable, Equatable {
    /// The in-app web session.
    case web
    /// A hand-off to the Grab app with this deep link; `appStore` is where to go if the app does not open (else the
    /// web), as the vendor SDK falls back.
    case app(URL, appStore: URL?)
    /// The app is not installed: open the App Store (the login then ends with `launchAppStoreLink`).
    case appStore(URL)

    /// Decides the route — a pure function of the request and the host's capabilities.
    ///
    /// Never a hand-off when the request carries `login_hint`, `id_token_hint` or `prompt`. Otherwise the first
    /// custom protocol whose `protocol_pax_ios` the host can open gets the login: its `protocol_ios` plus every
    /// authorization parameter plus `auth_endpoint`, with the App Store link of another entry as the fallback should
    /// the app not open (the vendor's choice). Failing that, an App Store link if one exists; else web — and web
    /// too when an entry's scheme could not be asked about at all (`canQuery` false: missing from the app's
    /// `LSApplicationQueriesSchemes`), because then "cannot open" says nothing about whether Grab is installed and
    /// the Grab SDK's README says such an app reverts to the web login.
    public static func decide(
        authorizationURL: URL,
        authorizationEndpoint: URL,
        customProtocols: [GrabCustomProtocol],
        canQuery: (URL) -> Bool = { _ in true },
        canOpen: (URL) -> Bool
    ) -> GrabRoute {
        let items = URLComponents(url: authorizationURL, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let names = Set(items.filter { !($0.value ?? "").isEmpty }.map(\.name))
        guard names.isDisjoint(with: ["login_hint", "id_token_hint", "prompt"]) else { return .web }
        let chosen = customProtocols.firstIndex { entry in
            guard let pax = URL(string: entry.paxProtocol), URL(string: entry.loginProtocol) != nil else { return false }
            return canOpen(pax)
        }
        let store = customProtocols.indices.lazy.filter { $0 != chosen }
            .compactMap { customProtocols[$0].appStoreLink.flatMap(URL.init(string:)) }.first
        guard let chosen, let base = URL(string: customProtocols[chosen].loginProtocol) else {
            let unqueryable = customProtocols.contains { URL(string: $0.paxProtocol).map { !canQuery($0) } ?? false }
            return unqueryable ? .web : store.map(GrabRoute.appStore) ?? .web
        }
        let pairs = items.map { ($0.name, $0.value ?? "") } + [("auth_endpoint", authorizationEndpoint.absoluteString)]
        return .app(base.appendingQuery(pairs), appStore: store)
    }
}
