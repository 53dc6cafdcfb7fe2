public import AuthCore
public import AuthTesting
public import Foundation

/// The built-in providers' emulators, by provider id and by the name `auth-emulator emulate` serves them under.
extension ProviderEmulator {
    /// A fresh emulator for `providerID`, or `nil` when there is none.
    public static func make(for providerID: ProviderID, clock: any WallClock = SystemWallClock()) -> ProviderEmulator? {
        factories[providerID]?(clock)
    }

    /// Every emulator for `providerID`: the one ``make(for:clock:)`` returns, then variants (GOV.UK One Login as a
    /// web service sees it).
    public static func makeAll(for providerID: ProviderID, clock: any WallClock = SystemWallClock()) -> [ProviderEmulator] {
        (factories[providerID].map { [$0] } ?? []).map { $0(clock) } + (variants[providerID] ?? []).map { $0(clock) }
    }

    private static let variants: [ProviderID: [@Sendable (any WallClock) -> ProviderEmulator]] = ["govuk": [{ govUKService(clock: $0) }]]

    /// The provider ids that have emulators.
    public static var emulatedProviderIDs: [ProviderID] { factories.keys.sorted() }

    private static let factories: [ProviderID: @Sendable (any WallClock) -> ProviderEmulator] = [
        "oidc": { openIDConnect(clock: $0) },
        "govuk": { govUK(clock: $0) },
        "onelogin": { oneLogin(clock: $0) },
        "schibsted": { schibsted(clock: $0) },
        "uber": { uber(clock: $0) },
        "grab": { grab(clock: $0) },
        "google": { google(clock: $0) },
        "microsoft": { microsoft(clock: $0) },
        "github": { github(clock: $0) },
        "apple": { apple(clock: $0) }
    ]

    /// The emulators `auth-emulator emulate` serves over HTTP, by name: each provider's, and `govuk-service` (GOV.UK One
    /// Login as a web service sees it).
    public static let servedEmulatorNames = ["oidc", "govuk", "govuk-service", "onelogin", "schibsted", "uber", "grab", "google", "microsoft", "github", "apple"]

    /// The emulator `name` (one of ``servedEmulatorNames``) served over HTTP at `origin`, or `nil` for another name.
    public static func served(_ name: String, at origin: URL, clock: any WallClock = SystemWallClock()) -> ProviderEmulator? {
        switch name {
        case "oidc": openIDConnect(clock: clock, origin: origin)
        case "govuk": govUK(clock: clock, origin: origin)
        case "govuk-service": govUKService(clock: clock, issuer: URL(string: origin.absoluteString.trimmingSuffix("/") + "/")!)
        case "onelogin": oneLogin(clock: clock, origin: origin)
        case "schibsted": schibsted(clock: clock, origin: origin)
        case "uber": uber(clock: clock, origin: origin)
        case "grab": grab(clock: clock, origin: origin)
        case "google": google(clock: clock, origin: origin)
        case "microsoft": microsoft(clock: clock, origin: origin)
        case "github": github(clock: clock, origin: origin)
        case "apple": apple(clock: clock, origin: origin)
        default: nil
        }
    }
}
