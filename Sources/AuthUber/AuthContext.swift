import Foundation

/// A native Uber app that can take over the login.
public enum UberApp: String, Sendable, CaseIterable {
    /// Uber (rides).
    case rides
    /// Uber Eats.
    case eats
    /// Uber Driver.
    case driver

    /// The URL scheme checked with `canOpenURL`.
    public var scheme: String {
        switch self {
        case .rides: "uber"
        case .eats: "ubereats"
        case .driver: "uberdriver"
        }
    }

    /// The id in the authorize path: `riders`, `eats`, `drivers`.
    public var pathID: String {
        switch self {
        case .rides: "riders"
        case .eats: "eats"
        case .driver: "drivers"
        }
    }
}

/// Where the login happens.
public enum AuthDestination: Sendable, Equatable {
    /// In the app, in a secure web session.
    case inApp
    /// In the first of these native apps that is installed; in app when none is.
    case native([UberApp])

    /// `.native` with the default order: rides, eats, driver.
    public static let native = AuthDestination.native([.rides, .eats, .driver])
}

/// A login screen to force.
public enum Prompt: String, Sendable, CaseIterable {
    /// Ask for the login even with a session. In-app only: dropped for native destinations.
    case login
    /// Show the consent screen.
    case consent
}

/// User information to prefill on the login screen (sent through a pushed authorization request; in-app only).
public struct Prefill: Sendable, Equatable {
    /// The e-mail address.
    public var email: String?
    /// The phone number.
    public var phoneNumber: String?
    /// The first name.
    public var firstName: String?
    /// The last name.
    public var lastName: String?

    /// Creates a prefill.
    public init(email: String? = nil, phoneNumber: String? = nil, firstName: String? = nil, lastName: String? = nil) {
        self.email = email
        self.phoneNumber = phoneNumber
        self.firstName = firstName
        self.lastName = lastName
    }

    /// `login_hint`: standard base64 of the JSON `{email, phone, first_name, last_name}`, absent fields omitted.
    public var loginHint: String {
        var object: [String: String] = [:]
        object["email"] = email
        object["phone"] = phoneNumber
        object["first_name"] = firstName
        object["last_name"] = lastName
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Encoding a dictionary of strings cannot fail.
        return (try! encoder.encode(object)).base64EncodedString()
    }
}

/// How the login is done and what it returns.
public struct AuthContext: Sendable {
    /// Where the login happens.
    public var authDestination: AuthDestination
    /// Screens to force.
    public var prompt: Set<Prompt>
    /// Whether the code is exchanged here (PKCE and tokens) or returned for a backend.
    public var shouldExchangeAuthCode: Bool
    /// Prefill (in-app only).
    public var prefill: Prefill?
    /// With `shouldExchangeAuthCode == false`: whether the authorization uses PKCE, so the backend must send
    /// ``UberClient/codeVerifier`` with the code (the default, safer). `false` requests the code without PKCE, as the
    /// vendor SDK did, for a backend that cannot send `code_verifier` yet; the code is then bound only to `state` and
    /// the redirect. Ignored when the code is exchanged here (always PKCE).
    public var backendExchangeUsesPKCE = true

    /// Creates a context. Defaults: the native apps in the vendor's order, falling back to in app (the vendor's
    /// `.native()`), and the code exchanged here — unlike the vendor SDK, whose default handed the bare code to the
    /// app: a plain `login()` then signs the user in with tokens kept in safe storage. Pass
    /// `shouldExchangeAuthCode: false` for a backend that redeems the code.
    public init(
        authDestination: AuthDestination = .native,
        prompt: Set<Prompt> = [],
        shouldExchangeAuthCode: Bool = true,
        prefill: Prefill? = nil
    ) {
        self.authDestination = authDestination
        self.prompt = prompt
        self.shouldExchangeAuthCode = shouldExchangeAuthCode
        self.prefill = prefill
    }
}

/// The route a login takes.
public enum UberRoute: Sendable, Equatable {
    /// The in-app web session (`universal`).
    case inApp
    /// A hand-off to this native app.
    case native(UberApp)

    /// The authorize path id.
    public var pathID: String {
        switch self {
        case .inApp: "universal"
        case .native(let app): app.pathID
        }
    }

    /// The routes a login tries, in order: for a native destination each app that can be opened, in the
    /// destination's order, and in app last — also when no app can be opened or the list is empty (the vendor SDK
    /// got stuck there). A route is left for the next when its app does not open.
    public static func candidates(_ destination: AuthDestination, canOpen: (UberApp) -> Bool) -> [UberRoute] {
        guard case .native(let apps) = destination else { return [.inApp] }
        return apps.filter(canOpen).map(UberRoute.native) + [.inApp]
    }

    /// Decides the route: the first of ``candidates(_:canOpen:)``.
    public static func decide(_ destination: AuthDestination, canOpen: (UberApp) -> Bool) -> UberRoute {
        candidates(destination, canOpen: canOpen)[0]
    }

    /// `prompt` as sent: `login consent` order; `login` is dropped for native routes.
    public func promptValues(_ prompt: Set<Prompt>) -> [String] {
        Prompt.allCases.filter { prompt.contains($0) && !($0 == .login && self != .inApp) }.map(\.rawValue)
    }
}
