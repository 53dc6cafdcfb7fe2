import AuthCore
public import Foundation

/// Hands a sign-in to a provider's native app: whether an app can be opened, and opening a deep or universal
/// link. AuthApple implements it with `UIApplication` / `NSWorkspace`; tests use an emulated app.
///
/// Providers with app hand-off (Grab, Uber) make their route decision from ``canOpen(_:)`` alone, so the decision
/// is a pure function that is tested on every platform.
public protocol AppHandoff: Sendable {
    /// Whether a URL with this URL's scheme can be opened (`UIApplication.canOpenURL`); needs the scheme in
    /// `LSApplicationQueriesSchemes` on iOS.
    func canOpen(_ url: URL) async -> Bool
    /// Opens `url` in the app that claims it; `false` when nothing opened it.
    func open(_ url: URL) async -> Bool
}
