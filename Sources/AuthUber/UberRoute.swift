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
public enum UberDestination: Sendable, Equatable {
    /// In the app, in a secure web session.
    case inApp
    /// In the first of these native apps that is installed; in app when none is.
    case native([UberApp])

    /// `.native` with the default order: rides, eats, driver.
    public static let native = UberDestination.native([.rides, .eats, .driver])
}

/// A login screen to force.
public enum UberPrompt: String, Sendable, CaseIterable {
    /// Ask for the login even with a session. In-app only: dropped for native destinations.
    case login
    /// Show the consent screen.
    case consent
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
    public static func candidates(_ destination: UberDestination, canOpen: (UberApp) -> Bool) -> [UberRoute] {
        guard case .native(let apps) = destination else { return [.inApp] }
        return apps.filter(canOpen).map(UberRoute.native) + [.inApp]
    }

    /// Decides the route: the first of ``candidates(_:canOpen:)``.
    public static func decide(_ destination: UberDestination, canOpen: (UberApp) -> Bool) -> UberRoute {
        candidates(destination, canOpen: canOpen)[0]
    }

    /// `prompt` as sent: `login consent` order; `login` is dropped for native routes.
    public func promptValues(_ prompt: Set<UberPrompt>) -> [String] {
        UberPrompt.allCases.filter { prompt.contains($0) && !($0 == .login && self != .inApp) }.map(\.rawValue)
    }
}
